// What the blend knows about its inputs, measured from the figures themselves over a trailing window
// rather than set as constants (docs/blending.md, "The market model"):
// - each currency's volatility: how far it moves per trading day, from every source's consecutive
//   fixings of it (robustly: the median absolute move, scaled to a standard deviation);
// - each source's error for each currency: how far its figure sits from the other sources' median of
//   the same day, less what the market moved between their fixing moments. Where fewer than four
//   sources publish a currency no robust leave-one-out comparison exists and the grade's prior stands.
// Pure: figures in, plain numbers out. All figures are natural logarithms of units per USD.
import { addDays } from '../time/days.js';
import { SAME_FIXING } from './fixing.js';
import { tradingHoursApart, tradingHoursAt } from './hours.js';
import type { Figure, SourceInfo } from './inputs.js';
import { rebase, type Contribution } from './rebase.js';

export interface Quality {
  /** Standard deviation (log) of a source's figure for a currency, by `${source} ${currency}`. */
  error: ReadonlyMap<string, number>;
  /** Standard deviation (log) of a currency's move over one trading day (24 trading hours). */
  volatility: ReadonlyMap<string, number>;
}

/** A source without a track record for a currency: 0.3% for figures recorded from the feed, 1% for
 *  hand-assembled (C) or library-fixture (F) provenance, whose rows have not been confirmed live. */
export const PRIOR_ERROR: Record<NonNullable<SourceInfo['grade']> | 'none', number> = { A: 0.001, B: 0.001, C: 0.003, F: 0.003, none: 0.001 };
/** A currency without enough consecutive fixings: 0.6% a day, a typical floating major. */
export const PRIOR_VOLATILITY = 0.006;
/** How many measurements weigh as much as the prior (the estimate shrinks towards it before). */
const PRIOR_WEIGHT = 20;
/** No source is more exact than this: two basis points, about the rounding of a 5-digit figure. */
export const ERROR_FLOOR = 0.0002;
/** A fixed currency still moves a little in USD between fixings (its anchor does): a floor. */
const VOLATILITY_FLOOR = 0.0002;
/** Median |x| of a normal variable is 0.6745 σ. */
const MAD_TO_SD = 1.4826;
/** A source's error is measured on days when at least three others publish the currency: the median
 *  of two is their mean, and one wrong figure among them (The Gambia's EUR in 2000) made every
 *  other source look as wrong as it was. */
const MIN_VOICES = 4;
/** Consecutive fixings further apart than this are not a day's move. */
const MAX_GAP_DAYS = 7;

/** Days of figures before the first of a day's month from which a day's quality is measured:
 *  about forty business days, measured once a month. */
export const QUALITY_DAYS = 60;

/** The first day of the month, from which a day's blend takes its measured quality. */
export const qualityAnchor = (day: string) => `${day.slice(0, 8)}01`;

/** The quality a blend of `day` uses: measured from the figures of the QUALITY_DAYS before the first
 *  of its month (every figure dated in that window; `rows` may hold more). `memo` keeps one per month. */
export function qualityFor(sources: readonly SourceInfo[], rows: readonly Figure[], day: string, memo?: Map<string, Quality>): Quality {
  const anchor = qualityAnchor(day);
  const kept = memo?.get(anchor);
  if (kept) return kept;
  const from = addDays(anchor, -QUALITY_DAYS);
  const quality = measureQuality(sources, rows.filter((r) => r.date >= from && r.date < anchor), SAME_FIXING);
  memo?.set(anchor, quality);
  return quality;
}

export const errorKey = (source: string, currency: string) => `${source} ${currency}`;

export function priorError(source: Pick<SourceInfo, 'grade'> | undefined): number {
  return PRIOR_ERROR[source?.grade ?? 'none'];
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The median of a sorted list with one occurrence of `value` left out. */
function medianWithout(sorted: number[], value: number): number {
  const at = sorted.indexOf(value);
  const n = sorted.length - 1;
  const nth = (k: number) => sorted[k < at ? k : k + 1]!;
  return n % 2 === 1 ? nth(n >> 1) : (nth(n / 2 - 1) + nth(n / 2)) / 2;
}

/** Shrinks a measured standard deviation towards its prior by the number of measurements. */
const shrink = (measured: number, n: number, prior: number) => Math.sqrt((n * measured ** 2 + PRIOR_WEIGHT * prior ** 2) / (n + PRIOR_WEIGHT));

/** Every source's figures of every date in `rows`, rebased to USD inside the source (no bridging). */
export function dailyContributions(sources: readonly SourceInfo[], rows: readonly Figure[]): Contribution[] {
  const byKey = new Map<string, Figure[]>();
  for (const r of rows) {
    const key = `${r.source} ${r.date}`;
    const list = byKey.get(key);
    if (list) list.push(r);
    else byKey.set(key, [r]);
  }
  const info = new Map(sources.map((s) => [s.code, s]));
  const out: Contribution[] = [];
  for (const [key, list] of byKey) {
    const source = info.get(key.slice(0, key.indexOf(' ')));
    if (source) for (const c of rebase(source, list)) if (c.perUsd > 0 && Number.isFinite(c.perUsd)) out.push(c);
  }
  return out;
}

export function measureQuality(sources: readonly SourceInfo[], rows: readonly Figure[], sameFixing: Readonly<Record<string, string>> = {}): Quality {
  const all = dailyContributions(sources, rows);
  const byCurrency = new Map<string, Contribution[]>();
  for (const c of all) {
    const list = byCurrency.get(c.currency);
    if (list) list.push(c);
    else byCurrency.set(c.currency, [c]);
  }
  const volatility = new Map<string, number>();
  const error = new Map<string, number>();
  const grade = new Map(sources.map((s) => [s.code, s]));
  for (const [currency, list] of byCurrency) {
    const vol = measureVolatility(list);
    volatility.set(currency, vol);
    for (const [source, e] of measureErrors(list, vol, sameFixing)) error.set(errorKey(source, currency), shrink(e.sd, e.n, priorError(grade.get(source))));
  }
  return { error, volatility };
}

/** A currency's volatility from its sources' consecutive fixings (each source against itself). */
export function measureVolatility(list: Contribution[]): number {
  const bySource = new Map<string, Contribution[]>();
  for (const c of list) {
    const l = bySource.get(c.source);
    if (l) l.push(c);
    else bySource.set(c.source, [c]);
  }
  const moves: number[] = [];
  for (const l of bySource.values()) {
    l.sort((a, b) => (a.moment < b.moment ? -1 : 1));
    for (let i = 1; i < l.length; i++) {
      const days = tradingHoursApart(l[i - 1]!.moment, l[i]!.moment) / 24;
      if (days < 0.5 || days > MAX_GAP_DAYS) continue;
      moves.push(Math.abs(Math.log(l[i]!.perUsd / l[i - 1]!.perUsd)) / Math.sqrt(days));
    }
  }
  if (moves.length === 0) return PRIOR_VOLATILITY;
  return Math.max(VOLATILITY_FLOOR, shrink(MAD_TO_SD * median(moves), moves.length, PRIOR_VOLATILITY));
}

/** Per source: the robust spread of its figure around the other sources' median of the same date. */
function measureErrors(list: Contribution[], vol: number, sameFixing: Readonly<Record<string, string>>): Map<string, { sd: number; n: number }> {
  const byDate = new Map<string, Contribution[]>();
  for (const c of list) {
    const l = byDate.get(c.date);
    if (l) l.push(c);
    else byDate.set(c.date, [c]);
  }
  const residuals = new Map<string, { r: number[]; market: number[] }>();
  for (const day of byDate.values()) {
    // Sources relaying one fixing are one voice (the first of the group stands for it); each member
    // is measured against the other voices.
    const voice = new Map<string, Contribution>();
    for (const c of day) if (!voice.has(sameFixing[c.source] ?? c.source)) voice.set(sameFixing[c.source] ?? c.source, c);
    if (voice.size < MIN_VOICES) continue;
    const sorted = [...voice.values()].map((c) => Math.log(c.perUsd)).sort((a, b) => a - b);
    const typical = median([...voice.values()].map((c) => tradingHoursAt(c.moment)));
    for (const c of day) {
      const own = voice.get(sameFixing[c.source] ?? c.source)!;
      const entry = residuals.get(c.source) ?? { r: [], market: [] };
      entry.r.push(Math.abs(Math.log(c.perUsd) - medianWithout(sorted, Math.log(own.perUsd))));
      entry.market.push(vol ** 2 * (Math.abs(tradingHoursAt(c.moment) - typical) / 24));
      residuals.set(c.source, entry);
    }
  }
  const out = new Map<string, { sd: number; n: number }>();
  for (const [source, { r, market }] of residuals) {
    const spread = (MAD_TO_SD * median(r)) ** 2 - median(market);
    out.set(source, { sd: Math.sqrt(Math.max(ERROR_FLOOR ** 2, spread)), n: r.length });
  }
  return out;
}
