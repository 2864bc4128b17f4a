// D15 `group=week|month`: the mean of each period's daily values, 8 significant digits, keyed by
// the period's first day (the ISO week's Monday, the month's first).
import { Decimal, toRateText } from '../money/decimal.js';
import { dayNumber, dayText } from './columns.js';

export type Group = 'week' | 'month';

export function periodStart(day: string, group: Group): string {
  if (group === 'month') return `${day.slice(0, 8)}01`;
  const n = dayNumber(day);
  // Day 0 (1970-01-01) was a Thursday: three days after a Monday.
  return dayText(n - ((n + 3) % 7));
}

type Row = [string, [string, string][]];

export function* groupMeans<T extends Row>(days: Iterable<T>, group: Group): Generator<Row> {
  let period: string | undefined;
  let sums = new Map<string, { sum: Decimal; count: number }>();
  const flush = (): Row => [period!, [...sums].map(([code, s]) => [code, toRateText(s.sum.div(s.count))])];
  for (const [day, rates] of days) {
    const p = periodStart(day, group);
    if (p !== period) {
      if (period !== undefined) yield flush();
      period = p;
      sums = new Map();
    }
    for (const [code, text] of rates) {
      const s = sums.get(code);
      if (s) {
        s.sum = s.sum.plus(text);
        s.count++;
      } else sums.set(code, { sum: new Decimal(text), count: 1 });
    }
  }
  if (period !== undefined) yield flush();
}

/** The same over an asynchronous source (a bank's rows read from the database). */
export async function* groupMeansAsync(days: AsyncIterable<Row>, group: Group): AsyncGenerator<Row> {
  const buffered: Row[] = [];
  let period: string | undefined;
  for await (const row of days) {
    const p = periodStart(row[0], group);
    if (period !== undefined && p !== period) {
      yield* groupMeans(buffered.splice(0), group);
    }
    period = p;
    buffered.push(row);
  }
  yield* groupMeans(buffered, group);
}
