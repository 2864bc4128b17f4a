// A bank's own figures over a range (D15 `/v1/bank/{code}/timeseries`): the start day first, with the
// figures in force on it as `/v1/bank/{code}?date=` answers them (a weekend's included), then per
// date the bank published after it, each currency in the bank's digits (D8 directions), read from
// the database a year at a time. A period source (D21) has one row per period: after the start
// day's, one on each day a new period (or an amendment) comes into force.
import { addDays } from '../time/days.js';
import { bankValues } from '../rates/bank-table.js';
import type { Source } from '../sources/types.js';
import type { Store } from '../store/store.js';
import { bankTableOn } from '../rates/bank-day.js';
import { PeriodWalk } from './periods.js';
import type { DayRow } from './series.js';

const CHUNK_DAYS = 366;

type Query = { start: string; end: string; symbols: string[] | undefined; reciprocal: boolean };

export async function* bankSeries(store: Store, source: Source, q: Query): AsyncGenerator<DayRow> {
  if (source.periodRates) {
    yield* periodSeries(store, source, q);
    return;
  }
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

async function* periodSeries(store: Store, source: Source, q: Query): AsyncGenerator<DayRow> {
  const walk = new PeriodWalk();
  for (let from = q.start; from <= q.end; from = addDays(from, CHUNK_DAYS)) {
    const last = addDays(from, CHUNK_DAYS - 1) < q.end ? addDays(from, CHUNK_DAYS - 1) : q.end;
    const rows = (await store.sourcePeriods(source.code, from, last)).filter((r) => !q.symbols || q.symbols.includes(r.quote));
    for (const [day, figures] of walk.changes(rows, from, last)) {
      yield [day, figures.map((r) => {
        const v = bankValues(r);
        return [r.quote, q.reciprocal ? v.reciprocal : v.direct];
      })];
    }
  }
}
