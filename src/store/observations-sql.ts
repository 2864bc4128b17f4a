// Reads over the observations table that the store's methods share.
import { sql, type Kysely } from 'kysely';
import { type Figure, SharedTexts } from '../blend/inputs.js';
import { addDays } from '../time/days.js';
import { Slices } from '../time/turns.js';
import { toObservation } from './rows.js';
import type { Database } from './schema.js';

/**
 * Each source's first and newest observation date, in source order: one seek per source in the
 * (source, date) index, walked source to source. A GROUP BY read all ~709k rows of the index, 80–140
 * ms on SQLite, synchronous on the thread that answers requests, at every health look and rates
 * rebuild (issue 34, D30); this takes about a millisecond.
 */
export async function observationSpans(db: Kysely<Database>): Promise<{ source: string; first: string; newest: string }[]> {
  const r = await sql<{ source: string; first: string; newest: string }>`
    with recursive s(source) as (
      select min(source) from observations
      union all
      select (select min(source) from observations where source > s.source) from s where s.source is not null
    )
    select source,
      (select min(date) from observations o where o.source = s.source) as first,
      (select max(date) from observations o where o.source = s.source) as newest
    from s where source is not null`.execute(db);
  return r.rows;
}

/** Each source's figures of its newest `days` days (counted back from its own newest date), every
 *  rates build's input: held through the build, so with their texts shared (SharedTexts). */
export async function recentObservations(db: Kysely<Database>, days: number): Promise<Figure[]> {
  const out: Figure[] = [];
  const texts = new SharedTexts();
  // ~90 sources read one after another: turns of the loop between them on SQLite (issue 34, D30).
  const slices = new Slices();
  for (const { source, newest } of await observationSpans(db)) {
    const rows = await db.selectFrom('observations').selectAll().where('source', '=', source).where('date', '>=', addDays(newest, -days)).execute();
    for (const r of rows) out.push(texts.figure(toObservation(r)));
    await slices.next();
  }
  return out;
}

/** Each currency's newest figure of `source` before `date` (from `since` on), in quote order: the
 *  window read by the (source, date) index and the newest picked here. A join on each currency's
 *  max(date) was planned by SQLite as a walk of all the source's figures (ECBF's 217k: 200–300 ms on
 *  the thread that answers requests, at each payload; D31). */
export async function previousRates(db: Kysely<Database>, source: string, date: string, since?: string): Promise<Figure[]> {
  const rows = await db
    .selectFrom('observations')
    .selectAll()
    .where('source', '=', source)
    .where('date', '<', date)
    .$if(since !== undefined, (q) => q.where('date', '>=', since!))
    .execute();
  const newest = new Map<string, (typeof rows)[number]>();
  for (const r of rows) if (r.date > (newest.get(r.quote)?.date ?? '')) newest.set(r.quote, r);
  return [...newest.values()].sort((a, b) => (a.quote < b.quote ? -1 : 1)).map(toObservation);
}
