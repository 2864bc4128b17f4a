// The consensus outlier filter, applied to each date's readings of a currency before the market model
// sees them (readings.ts): with enough independent sources, a figure far from the median is a
// publisher's error (a wrong unit, a stale row, a typo), not information. Also the median that
// measuring quality takes (quality.ts).
/** Below this many figures there is no majority to trust over a dissenter (Frankfurter uses 4). */
export const MIN_SOURCES_FOR_CONSENSUS = 3;
/** A figure further than this many median absolute deviations from the median is an outlier… */
export const MAD_MULTIPLE = 10;
/** …and further than this share of the median: MAD alone is zero when most sources agree exactly. */
export const MIN_RELATIVE_BAND = 0.05;

/** Scratch space for `median`, grown as needed: measuring quality takes the median of some hundred
 *  thousand short lists a month. Module-level and still pure: `median` is synchronous and calls
 *  nothing, so no two calls ever use it at once, and each overwrites what it reads. */
let scratch = new Float64Array(64);

export function median(values: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) throw new Error('median of nothing');
  if (scratch.length < n) scratch = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) scratch[i] = values[i]!;
  const mid = n >> 1;
  const upper = select(scratch, n, mid);
  if (n % 2 === 1) return upper;
  // The lower middle is the largest of what selection left below the upper one.
  let lower = -Infinity;
  for (let i = 0; i < mid; i++) if (scratch[i]! > lower) lower = scratch[i]!;
  return (lower + upper) / 2;
}

/** The k-th smallest of a[0..n) (Hoare's selection), leaving the smaller ones before index k. */
function select(a: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i++] = a[j]!;
        a[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a[k]!;
}

/**
 * Which values are outliers: those further from the median than max(10 × MAD, 5% of the median),
 * decided only when at least three figures are there. With three, the median is the middle figure,
 * so one wild figure is caught while two that agree are kept.
 */
export function outliers(values: number[]): boolean[] {
  if (values.length < MIN_SOURCES_FOR_CONSENSUS) return values.map(() => false);
  const m = median(values);
  const mad = median(values.map((v) => Math.abs(v - m)));
  const band = Math.max(mad * MAD_MULTIPLE, m * MIN_RELATIVE_BAND);
  return values.map((v) => Math.abs(v - m) > band);
}
