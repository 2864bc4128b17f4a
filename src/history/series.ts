// The rows of a blended range (D15): the start day (the figures in force on it, as `/v1/{base}/{date}`
// answers, a weekend's included), then each day on which a source contributing to a requested rate
// published, each requested currency's rate against the base, from the in-memory columns; with
// `group`, the mean of each ISO week or calendar month. Generators: a long range is never held whole.
import { addDays } from '../time/days.js';
import type { HistoryColumns } from './columns.js';
import { bankAt, dayNumber, valueAt } from './columns.js';
import { pairText } from './pair-text.js';
import { groupMeans, type Group } from './group.js';

export type DayRow = [day: string, rates: [code: string, text: string][]];

export interface SeriesQuery {
  base: string;
  /** undefined: every currency of each day. */
  symbols: string[] | undefined;
  start: string;
  end: string;
  group: Group | undefined;
}

function* daily(cols: HistoryColumns, q: SeriesQuery): Generator<DayRow> {
  const base = cols.series(q.base);
  if (!base) return;
  const codes = q.symbols ?? cols.codes();
  const targets = codes.flatMap((code) => {
    const col = cols.series(code);
    return col ? [{ code, col }] : [];
  });
  for (let day = q.start; day <= q.end; day = addDays(day, 1)) {
    const n = dayNumber(day);
    const b = valueAt(base, n);
    if (Number.isNaN(b)) continue;
    const from = n * 86_400;
    const on = (bank: number) => bank >= from && bank < from + 86_400;
    // USD is the pivot: its stamp is every source's newest, so it says nothing of a cross rate.
    let published = day === q.start || (q.base !== 'USD' && on(bankAt(base, n)));
    const rates: [string, string][] = [];
    for (const { code, col } of targets) {
      const v = valueAt(col, n);
      if (Number.isNaN(v)) continue;
      if (!published && (code !== 'USD' || q.base === 'USD' && targets.length === 1) && on(bankAt(col, n))) published = true;
      rates.push([code, pairText(v, b, () => [cols.text(n, code), cols.text(n, q.base)])]);
    }
    if (published && rates.length > 0) yield [day, rates];
  }
}

export function series(cols: HistoryColumns, q: SeriesQuery): Iterable<DayRow> {
  return q.group ? groupMeans(daily(cols, q), q.group) : daily(cols, q);
}
