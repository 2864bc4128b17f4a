// One payload's rows stored as one atomic, idempotent snapshot, revisions counted: the SQL behind
// SqlStore.storeSnapshot, written once for both engines.
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { storePeriods } from './period-sql.js';
import type { Database, ObservationTable, SnapshotTable } from './schema.js';
import type { SnapshotInput, SnapshotResult } from './store.js';
import { turn } from '../time/turns.js';

/** PostgreSQL channel a stored snapshot notifies, so other instances rebuild their rates. */
export const DATA_CHANNEL = 'kurs_data';

/** Rows per INSERT: well under SQLite's bound-parameter limit with 9 columns. */
const INSERT_CHUNK = 500;
/** Rows compared (or inserted) between two turns of the event loop: a few milliseconds each on
 *  SQLite, whose statements run on the calling thread. A 217k-row history compared in one go held
 *  the loop ~1 s (3 s on a busy machine) while a start caught up (issue 34, D29). */
const SLICE_ROWS = 2_000;

type Row = SnapshotInput['rows'][number];
interface Diff {
  fresh: Row[];
  revised: Row[];
  unchanged: number;
}

const byDate = (a: Row, b: Row) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0);

/** The newest snapshot of a source: every write to its figures adds one (nothing else writes them,
 *  and snapshots are never deleted), so an unchanged id means unchanged figures. */
async function lastSnapshot(db: Kysely<Database>, source: string): Promise<number> {
  const r = await db.selectFrom('snapshots').select(sql<number | string | null>`max(id)`.as('id')).where('source', '=', source).executeTakeFirst();
  return Number(r?.id ?? 0);
}

/** The rows (in date order) against what is stored, a slice of dates at a time; `pause` between slices. */
async function compare(db: Kysely<Database>, source: string, rows: readonly Row[], pause?: () => Promise<void>): Promise<Diff> {
  const diff: Diff = { fresh: [], revised: [], unchanged: 0 };
  for (let i = 0; i < rows.length; ) {
    let end = Math.min(i + SLICE_ROWS, rows.length);
    while (end < rows.length && rows[end]!.date === rows[end - 1]!.date) end++;
    const old = await db.selectFrom('observations').select(['quote', 'date', 'rate']).where('source', '=', source).where('date', '>=', rows[i]!.date).where('date', '<=', rows[end - 1]!.date).execute();
    const stored = new Map(old.map((o) => [`${o.quote} ${o.date}`, o.rate]));
    for (; i < end; i++) {
      const r = rows[i]!;
      const before = stored.get(`${r.quote} ${r.date}`);
      if (before === r.rate) diff.unchanged++;
      else (before === undefined ? diff.fresh : diff.revised).push(r);
    }
    if (pause && i < rows.length) await pause();
  }
  return diff;
}

/**
 * The snapshot's record. Its `rows`, `first_date` and `last_date` are the figures it wrote and their
 * span: history re-blends the days snapshots wrote (snapshotsAfter, history-sql.ts), and a history
 * re-fetched unchanged (ECBF's since 1999) wrote none, where it used to set off ~9,400 days of
 * materialising on the main thread (issue 34, D29). A period snapshot's span is the days in force.
 */
function snapshotRow(s: SnapshotInput, diff: Diff, first: string, last: string): Insertable<SnapshotTable> {
  const written = diff.fresh.length + diff.revised.length;
  let from = last;
  let to = first;
  for (const list of [diff.fresh, diff.revised]) for (const r of list) [from, to] = [r.date < from ? r.date : from, r.date > to ? r.date : to];
  const span = written > 0 && s.rows[0]!.validTo === undefined ? { first_date: from, last_date: to } : { first_date: first, last_date: last };
  return { source: s.source, name: s.name, sha256: s.sha256, ...span, rows: written, created_at: s.at, period: s.rows[0]!.validTo !== undefined ? 1 : 0 };
}

export async function storeSnapshot(db: Kysely<Database>, dialect: 'sqlite' | 'postgres', s: SnapshotInput): Promise<SnapshotResult> {
  if (s.rows.length === 0) throw new Error(`${s.source}: refusing to store an empty snapshot`);
  const periods = s.rows.filter((r) => r.validTo !== undefined).length;
  if (periods !== 0 && periods !== s.rows.length) throw new Error(`${s.source}: a snapshot holds period rates or fixings, not both`);
  const seen = (trx: Kysely<Database>) => trx.selectFrom('snapshots').select('id').where('source', '=', s.source).where('sha256', '=', s.sha256).executeTakeFirst();
  // Ingest hands the rows over in date order (prepare.ts); anything else is sorted here.
  const rows = s.rows.every((r, i) => i === 0 || s.rows[i - 1]!.date <= r.date) ? s.rows : [...s.rows].sort(byDate);
  const first = rows[0]!.date;
  // A period snapshot spans the days its figures are in force.
  const last = periods > 0 ? rows.reduce((m, r) => (r.validTo! > m ? r.validTo! : m), first) : rows[rows.length - 1]!.date;

  // Fixings are compared with what is stored before the transaction, with turns of the event loop
  // between slices; the transaction uses that comparison unless the source stored meanwhile.
  let early: { mark: number; diff: Diff } | undefined;
  if (periods === 0) {
    if (await seen(db)) return { status: 'duplicate' };
    const mark = await lastSnapshot(db, s.source);
    early = { mark, diff: await compare(db, s.source, rows, () => (s.signal?.throwIfAborted(), turn())) };
  }
  return db.transaction().execute(async (trx) => {
    // One source's snapshots commit one at a time: on PostgreSQL two could otherwise both find a
    // figure new and both insert it (SQLite's transactions take the write lock at once).
    if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${`kurs-snapshot:${s.source}`}))`.execute(trx);
    if (await seen(trx)) return { status: 'duplicate' } as const;
    const diff = periods > 0 ? undefined : early?.mark === (await lastSnapshot(trx, s.source)) ? early.diff : await compare(trx, s.source, rows);
    const { id } = await trx.insertInto('snapshots').values(snapshotRow(s, diff ?? { fresh: rows, revised: [], unchanged: 0 }, first, last)).returning('id').executeTakeFirstOrThrow();
    if (!diff) {
      const counts = await storePeriods(trx, Number(id), s);
      if (dialect === 'postgres') await sql`select pg_notify(${DATA_CHANNEL}, ${String(id)})`.execute(trx);
      return { status: 'stored', ...counts } as const;
    }
    const row = (r: Row): Selectable<ObservationTable> => ({ source: s.source, quote: r.quote, date: r.date, rate: r.rate, direction: r.direction, unit: r.unit, tbl: r.table, snapshot_id: Number(id), stored_at: s.at });
    for (const r of diff.revised) {
      await trx.updateTable('observations').set(row(r)).where('source', '=', s.source).where('quote', '=', r.quote).where('date', '=', r.date).execute();
    }
    for (let i = 0; i < diff.fresh.length; i += INSERT_CHUNK) {
      // A long history stored at once: the loop turns between slices (the connection stays this
      // transaction's; other statements wait for it, as they would for one long statement).
      if (i > 0 && i % SLICE_ROWS === 0) await turn();
      await trx.insertInto('observations').values(diff.fresh.slice(i, i + INSERT_CHUNK).map(row)).execute();
    }
    // Delivered at commit, to every listening instance (and never for a rolled-back snapshot, nor
    // one that wrote nothing).
    if (dialect === 'postgres' && diff.fresh.length + diff.revised.length > 0) await sql`select pg_notify(${DATA_CHANNEL}, ${String(id)})`.execute(trx);
    return { status: 'stored', inserted: diff.fresh.length, revised: diff.revised.length, unchanged: diff.unchanged } as const;
  });
}
