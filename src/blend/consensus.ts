// Step 3: the consensus outlier filter. With enough independent sources, a figure far from the
// median is a publisher's error (a wrong unit, a stale row, a typo), not information.
/** Below this many figures there is no majority to trust over a dissenter (Frankfurter uses 4). */
export const MIN_SOURCES_FOR_CONSENSUS = 3;
/** A figure further than this many median absolute deviations from the median is an outlier… */
export const MAD_MULTIPLE = 10;
/** …and further than this share of the median: MAD alone is zero when most sources agree exactly. */
export const MIN_RELATIVE_BAND = 0.05;

export function median(values: number[]): number {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
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


/** The value at which half the weight lies below (the lower one at an exact split). */
export function weightedMedian(values: number[], weights: number[]): number {
  const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const half = weights.reduce((s, w) => s + w, 0) / 2;
  let acc = 0;
  for (const i of order) {
    acc += weights[i]!;
    if (acc >= half) return values[i]!;
  }
  return values[order[order.length - 1]!]!;
}

/** How many of its own standard deviations a figure may sit from the weighted median before it
 *  fades: 1 / (1 + (d / (AGREEMENT_SD × σ))²), a Cauchy M-estimator step in the model's own units. */
export const AGREEMENT_SD = 3;

/**
 * Inverse-variance weights, each faded by its figure's distance from the weighted median measured in
 * its own standard deviations: a figure its error and the market's move explain keeps its weight, a
 * dissenter beyond them fades instead of pulling the mean, and nothing is dropped outright.
 */
export function robustWeights(logs: number[], variances: number[]): number[] {
  const prior = variances.map((v) => 1 / v);
  if (logs.length < MIN_SOURCES_FOR_CONSENSUS) return prior;
  const center = weightedMedian(logs, prior);
  return prior.map((w, i) => w / (1 + ((logs[i]! - center) / (AGREEMENT_SD * Math.sqrt(variances[i]!))) ** 2));
}
