// The SQL behind materialised history (src/history/), written once for both engines. On PostgreSQL
// a recorded mark also notifies DATA_CHANNEL, so instances that do not ingest reload what changed.
import { sql, type Kysely } from 'kysely';
import { DATA_CHANNEL } from './snapshot-sql.js';
import type { Database } from './schema.js';
import type { HistoryDay, HistoryMark, SnapshotSpan } from './store.js';

/** Rows per INSERT: two parameters each, far below either engine's limit. */
const CHUNK = 500;

export async function snapshotsAfter(db: Kysely<Database>, after: number): Promise<SnapshotSpan | undefined> {
  const r = await db
    .selectFrom('snapshots')
    .select([sql<number | string | null>`max(id)`.as('last_id'), sql<string | null>`min(first_date)`.as('first'), sql<string | null>`max(last_date)`.as('last')])
    .where('id', '>', after)
    // Period rates never enter a blend (D21): their snapshots touch no day of history. Nor does a
    // snapshot that wrote no figure (a payload re-fetched unchanged; snapshot-sql.ts, D29).
    .where('period', '=', 0)
    .where('rows', '>', 0)
    .executeTakeFirst();
  if (!r || r.last_id === null || r.first === null || r.last === null) return undefined;
  return { lastId: Number(r.last_id), firstDate: r.first, lastDate: r.last };
}

export async function saveHistoryDays(db: Kysely<Database>, dialect: 'sqlite' | 'postgres', days: HistoryDay[], mark?: HistoryMark): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < days.length; i += CHUNK) {
      await trx
        .insertInto('history_days')
        .values(days.slice(i, i + CHUNK))
        .onConflict((oc) => oc.column('day').doUpdateSet({ rates: (eb) => eb.ref('excluded.rates') }))
        .execute();
    }
    if (mark) {
      await trx
        .updateTable('history_state')
        .set({ snapshot_id: mark.snapshotId, first_day: mark.firstDay, last_day: mark.lastDay })
        .where('id', '=', 1)
        .execute();
      if (dialect === 'postgres') await sql`select pg_notify(${DATA_CHANNEL}, ${`history ${mark.snapshotId}`})`.execute(trx);
    }
  });
}

export async function historyDays(db: Kysely<Database>, from: string, to: string): Promise<HistoryDay[]> {
  return db.selectFrom('history_days').select(['day', 'rates']).where('day', '>=', from).where('day', '<=', to).orderBy('day').execute();
}

export async function historyMark(db: Kysely<Database>): Promise<HistoryMark> {
  const r = await db.selectFrom('history_state').selectAll().where('id', '=', 1).executeTakeFirst();
  return { snapshotId: Number(r?.snapshot_id ?? 0), firstDay: r?.first_day ?? null, lastDay: r?.last_day ?? null };
}
