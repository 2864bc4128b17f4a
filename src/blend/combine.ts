// Step 2 of the first blend: one figure per currency from all its contributions. The median is the
// simplest estimator that one wrong source cannot drag far; weighting and outlier rules come later.
import { Decimal } from '../money/decimal.js';
import { freshUntil } from './freshness.js';
import type { Contribution } from './rebase.js';

export function median(values: Decimal[]): Decimal {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((a, b) => a.cmp(b));
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : sorted[mid - 1]!.plus(sorted[mid]!).div(2);
}

export function groupByCurrency(contributions: Contribution[]): Map<string, Contribution[]> {
  const byCurrency = new Map<string, Contribution[]>();
  for (const c of contributions) {
    const list = byCurrency.get(c.currency);
    if (list) list.push(c);
    else byCurrency.set(c.currency, [c]);
  }
  return byCurrency;
}

/**
 * Carry-forward: a figure counts only while it would still be fresh on the day of the currency's
 * newest figure, so a source that stopped weeks ago does not pull a current rate back in time.
 */
export function current(list: Contribution[]): Contribution[] {
  const newest = list.reduce((m, c) => (c.date > m ? c.date : m), '');
  return list.filter((c) => freshUntil(c.date, c.cadence, 0) >= newest);
}
