// A bank's own figures over a range (D15 `/v1/bank/{code}/timeseries`): the start day first, with the
// figures in force on it as `/v1/bank/{code}?date=` answers them (a weekend's included), then per
// date the bank published after it, each currency in the bank's digits (D8 directions), read from
// the database a year at a time.
import { addDays } from '../time/days.js';
import { bankValues } from '../rates/bank-table.js';
import type { Source } from '../sources/types.js';
import type { Store } from '../store/store.js';
import { bankTableOn } from './bank-day.js';
import type { DayRow } from './series.js';

const CHUNK_DAYS = 366;

export async function* bankSeries(store: Store, source: Source, q: { start: string; end: string; symbols: string[] | undefined; reciprocal: boolean }): AsyncGenerator<DayRow> {
  const wanted = q.symbols && new Set(q.symbols);
  const opening = (await bankTableOn(store, source, q.start)).rows.filter((r) => !wanted || wanted.has(r.currency));
  if (opening.length > 0) yield [q.start, opening.map((r) => [r.currency, q.reciprocal ? r.reciprocal : r.direct])];
  for (let from = addDays(q.start, 1); from <= q.end; from = addDays(from, CHUNK_DAYS)) {
    const last = addDays(from, CHUNK_DAYS - 1);
    const rows = await store.sourceObservationsBetween(source.code, from, last < q.end ? last : q.end);
    let day: string | undefined;
    let rates: [string, string][] = [];
    for (const r of rows) {
      if (wanted && !wanted.has(r.quote)) continue;
      if (r.date !== day) {
        if (day !== undefined && rates.length > 0) yield [day, rates];
        day = r.date;
        rates = [];
      }
      const v = bankValues(r);
      rates.push([r.quote, q.reciprocal ? v.reciprocal : v.direct]);
    }
    if (day !== undefined && rates.length > 0) yield [day, rates];
  }
}
