// The SQL of period rates (D21), written once for both engines: a snapshot's period figures stored
// beside the fixings, never among them, and one source's periods read by the days they cover.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, PeriodRateTable } from './schema.js';
import type { PeriodRow, SnapshotInput } from './store.js';

/** Rows per INSERT: well under SQLite's bound-parameter limit with 10 columns. */
const INSERT_CHUNK = 400;

export const toPeriod = (r: Selectable<PeriodRateTable>): PeriodRow => ({
  source: r.source,
  quote: r.quote,
  validFrom: r.valid_from,
  validTo: r.valid_to,
  rate: r.rate,
  direction: r.direction,
  unit: Number(r.unit),
  table: r.tbl,
  storedAt: r.stored_at,
});

/** Stores snapshot `id`'s period rows: a figure of the same currency and first day is replaced (a
 *  restatement, a corrected end), an equal one left alone. */
export async function storePeriods(trx: Transaction<Database>, id: number, s: SnapshotInput): Promise<{ inserted: number; revised: number; unchanged: number }> {
  const starts = s.rows.map((r) => r.date).sort();
  const old = await trx
    .selectFrom('period_rates')
    .select(['quote', 'valid_from', 'valid_to', 'rate'])
    .where('source', '=', s.source)
    .where('valid_from', '>=', starts[0]!)
    .where('valid_from', '<=', starts[starts.length - 1]!)
    .execute();
  const existing = new Map(old.map((o) => [`${o.quote} ${o.valid_from}`, `${o.rate} ${o.valid_to}`]));
  const fresh: Selectable<PeriodRateTable>[] = [];
  let revised = 0;
  let unchanged = 0;
  for (const r of s.rows) {
    const before = existing.get(`${r.quote} ${r.date}`);
    if (before === `${r.rate} ${r.validTo}`) {
      unchanged++;
      continue;
    }
    const row = { source: s.source, quote: r.quote, valid_from: r.date, valid_to: r.validTo!, rate: r.rate, direction: r.direction, unit: r.unit, tbl: r.table, snapshot_id: id, stored_at: s.at };
    if (before === undefined) {
      fresh.push(row);
    } else {
      revised++;
      await trx.updateTable('period_rates').set(row).where('source', '=', s.source).where('quote', '=', r.quote).where('valid_from', '=', r.date).execute();
    }
  }
  for (let i = 0; i < fresh.length; i += INSERT_CHUNK) await trx.insertInto('period_rates').values(fresh.slice(i, i + INSERT_CHUNK)).execute();
  return { inserted: fresh.length, revised, unchanged };
}

export async function sourcePeriods(db: Kysely<Database>, source: string, from: string, to: string): Promise<PeriodRow[]> {
  const rows = await db
    .selectFrom('period_rates')
    .selectAll()
    .where('source', '=', source)
    .where('valid_from', '<=', to)
    .where('valid_to', '>=', from)
    .orderBy('valid_from')
    .orderBy('quote')
    .execute();
  return rows.map(toPeriod);
}
