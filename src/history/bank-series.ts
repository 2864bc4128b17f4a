// A bank's own figures over a range (D15 `/v1/bank/{code}/timeseries`): per date it published, each
// currency in the bank's digits (D8 directions), read from the database a year at a time.
import { addDays } from '../time/days.js';
import { bankValues } from '../rates/bank-table.js';
import type { Store } from '../store/store.js';
import type { DayRow } from './series.js';

const CHUNK_DAYS = 366;

export async function* bankSeries(store: Store, code: string, q: { start: string; end: string; symbols: string[] | undefined; reciprocal: boolean }): AsyncGenerator<DayRow> {
  const wanted = q.symbols && new Set(q.symbols);
  for (let from = q.start; from <= q.end; from = addDays(from, CHUNK_DAYS)) {
    const last = addDays(from, CHUNK_DAYS - 1);
    const rows = await store.sourceObservationsBetween(code, from, last < q.end ? last : q.end);
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
