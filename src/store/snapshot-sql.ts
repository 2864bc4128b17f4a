// One payload's rows stored as one atomic, idempotent snapshot, revisions counted: the SQL behind
// SqlStore.storeSnapshot, written once for both engines.
import { sql, type Kysely, type Selectable } from 'kysely';
import { storePeriods } from './period-sql.js';
import type { Database, ObservationTable } from './schema.js';
import type { SnapshotInput, SnapshotResult } from './store.js';

/** PostgreSQL channel a stored snapshot notifies, so other instances rebuild their rates. */
export const DATA_CHANNEL = 'kurs_data';

/** Rows per INSERT: well under SQLite's bound-parameter limit with 9 columns. */
const INSERT_CHUNK = 500;

export async function storeSnapshot(db: Kysely<Database>, dialect: 'sqlite' | 'postgres', s: SnapshotInput): Promise<SnapshotResult> {
  if (s.rows.length === 0) throw new Error(`${s.source}: refusing to store an empty snapshot`);
  const periods = s.rows.filter((r) => r.validTo !== undefined).length;
  if (periods !== 0 && periods !== s.rows.length) throw new Error(`${s.source}: a snapshot holds period rates or fixings, not both`);
  const dates = s.rows.map((r) => r.date).sort();
  const first = dates[0]!;
  // A period snapshot spans the days its figures are in force.
  const last = periods > 0 ? s.rows.reduce((m, r) => (r.validTo! > m ? r.validTo! : m), first) : dates[dates.length - 1]!;
  return db.transaction().execute(async (trx) => {
    const seen = await trx.selectFrom('snapshots').select('id').where('source', '=', s.source).where('sha256', '=', s.sha256).executeTakeFirst();
    if (seen) return { status: 'duplicate' } as const;
    const { id } = await trx
      .insertInto('snapshots')
      .values({ source: s.source, name: s.name, sha256: s.sha256, first_date: first, last_date: last, rows: s.rows.length, created_at: s.at, period: periods > 0 ? 1 : 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (periods > 0) {
      const counts = await storePeriods(trx, Number(id), s);
      if (dialect === 'postgres') await sql`select pg_notify(${DATA_CHANNEL}, ${String(id)})`.execute(trx);
      return { status: 'stored', ...counts } as const;
    }
    const existing = new Map<string, string>();
    const old = await trx
      .selectFrom('observations')
      .select(['quote', 'date', 'rate'])
      .where('source', '=', s.source)
      .where('date', '>=', first)
      .where('date', '<=', last)
      .execute();
    for (const o of old) existing.set(`${o.quote} ${o.date}`, o.rate);

    const fresh: Selectable<ObservationTable>[] = [];
    let revised = 0;
    let unchanged = 0;
    for (const r of s.rows) {
      const before = existing.get(`${r.quote} ${r.date}`);
      if (before === r.rate) {
        unchanged++;
        continue;
      }
      const row = { source: s.source, quote: r.quote, date: r.date, rate: r.rate, direction: r.direction, unit: r.unit, tbl: r.table, snapshot_id: Number(id), stored_at: s.at };
      if (before === undefined) {
        fresh.push(row);
      } else {
        revised++;
        await trx.updateTable('observations').set(row).where('source', '=', s.source).where('quote', '=', r.quote).where('date', '=', r.date).execute();
      }
    }
    for (let i = 0; i < fresh.length; i += INSERT_CHUNK) {
      await trx.insertInto('observations').values(fresh.slice(i, i + INSERT_CHUNK)).execute();
    }
    // Delivered at commit, to every listening instance (and never for a rolled-back snapshot).
    if (dialect === 'postgres') await sql`select pg_notify(${DATA_CHANNEL}, ${String(id)})`.execute(trx);
    return { status: 'stored', inserted: fresh.length, revised, unchanged } as const;
  });
}
