// Step 3: the consensus outlier filter. With enough independent sources, a figure far from the
// median is a publisher's error (a wrong unit, a stale row, a typo), not information.
import { Decimal } from '../money/decimal.js';

/** Below this many figures there is no majority to trust over a dissenter (Frankfurter uses 4). */
export const MIN_SOURCES_FOR_CONSENSUS = 3;
/** A figure further than this many median absolute deviations from the median is an outlier… */
export const MAD_MULTIPLE = new Decimal(10);
/** …and further than this share of the median: MAD alone is zero when most sources agree exactly. */
export const MIN_RELATIVE_BAND = new Decimal('0.05');

export function median(values: Decimal[]): Decimal {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((a, b) => a.cmp(b));
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : sorted[mid - 1]!.plus(sorted[mid]!).div(2);
}

/**
 * Which values are outliers: those further from the median than max(10 × MAD, 5% of the median),
 * decided only when at least three figures are there. With three, the median is the middle figure,
 * so one wild figure is caught while two that agree are kept.
 */
export function outliers(values: Decimal[]): boolean[] {
  if (values.length < MIN_SOURCES_FOR_CONSENSUS) return values.map(() => false);
  const m = median(values);
  const mad = median(values.map((v) => v.minus(m).abs()));
  const band = Decimal.max(mad.times(MAD_MULTIPLE), m.times(MIN_RELATIVE_BAND));
  return values.map((v) => v.minus(m).abs().gt(band));
}

