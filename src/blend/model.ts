// The market model that weighs and screens one currency's figures (docs/blending.md): each figure is
// a noisy reading of the market at its fixing moment, so as a reading of the market at the reference
// moment its variance is
//   (the source's measured error)² + (its rounding)²/3 + (the currency's volatility)² × trading days apart,
// and figures are combined by inverse variance. What the market showed on the days before, carried
// forward by the same model, is a witness (witness.ts): a figure far from it and from the others, by
// more than their variances allow,
// is a publisher's error (`jump`), unless another source shows the same move or none contradicts it,
// when it is a real move and what was fixed before it is `superseded`. Pure: numbers in, numbers out.
import { tradingHoursApart } from './hours.js';
import { errorKey, priorError, PRIOR_VOLATILITY, type Quality } from './quality.js';
import type { SourceInfo } from './inputs.js';
import type { Contribution } from './rebase.js';
import { isIssuer, roundingError } from './weights.js';

/** How many standard deviations apart two readings of the market must be to contradict each other. */
export const JUMP_Z = 5;
/** Nor is a figure within 2% of the witness ever a jump: the blend's weights deal with those. */
export const MIN_JUMP = Math.log(1.02);
/** A figure fixed up to an hour before another counts as fixed with it (fixing hours are rounded). */
const SAME_TIME_HOURS = 1;

/** What the days before showed of a currency, as seen from this blend's reference moment. */
export interface Witness {
  /** ln(units per USD). */
  log: number;
  /** Variance of `log` at the reference moment: the figures' spread, plus the market's move since. */
  variance: number;
  /** How fast the market moved over the witness's days (log sd per trading day), from each source's
   *  consecutive figures: a crisis shows here days before the trailing measure (quality.ts) sees it. */
  volatility: number;
}

export type Screen = false | 'jump' | 'superseded';

export const volatilityOf = (quality: Quality | undefined, currency: string) => quality?.volatility.get(currency) ?? PRIOR_VOLATILITY;

export function errorOf(quality: Quality | undefined, c: Pick<Contribution, 'source' | 'currency'>, source: Pick<SourceInfo, 'grade'> | undefined): number {
  return quality?.error.get(errorKey(c.source, c.currency)) ?? priorError(source);
}

/** Variance of a figure as a reading at its own moment: the source's error and its rounding. */
export function ownVariance(c: Contribution, error: number): number {
  return error ** 2 + roundingError(c.published) ** 2 / 3;
}

/** The market's variance over the trading time between two moments. */
export const marketVariance = (volatility: number, a: string, b: string) => volatility ** 2 * (tradingHoursApart(a, b) / 24);

interface Reading {
  c: Contribution;
  log: number;
  /** Variance at its own moment. */
  own: number;
  /** Measured error of its source for this currency. */
  error: number;
  group: string;
  /** The source is the currency's issuer (its own base currency, or ISSUER_OF). */
  issuer: boolean;
}

/**
 * Which figures the witness rules out. A figure further than JUMP_Z deviations from the witness is
 * believed when another source (not relaying the same fixing) shows the same move, or when no other
 * figure stays at the old level (one fixed earlier does not count against the issuer's own figure);
 * otherwise it is a `jump`. Once a move is believed, figures fixed before it that still sit at the
 * old level are `superseded`.
 */
export function screen(readings: Reading[], witness: Witness, volatility: number): Screen[] {
  const z = (a: Reading, log: number, variance: number) => Math.abs(a.log - log) / Math.sqrt(a.own + variance);
  const far = readings.map((r) => Math.abs(r.log - witness.log) > MIN_JUMP && z(r, witness.log, witness.variance) > JUMP_Z);
  const apart = (a: Reading, b: Reading) => z(a, b.log, b.own + marketVariance(volatility, a.c.moment, b.c.moment)) > JUMP_Z;
  const screens: Screen[] = readings.map(() => false);
  let moved = false;
  readings.forEach((r, i) => {
    if (!far[i]) return;
    const side = Math.sign(r.log - witness.log);
    const corroborated = readings.some((o, j) => j !== i && o.group !== r.group && far[j] && Math.sign(o.log - witness.log) === side && !apart(r, o));
    // A figure at the old level that the market's move since cannot reconcile with it: fixed with
    // it or later, it says the market did not move; fixed earlier, only that it had not moved yet,
    // which counts against a relayer but not against the issuer.
    const against = readings.filter((o, j) => !far[j] && o.group !== r.group && apart(r, o));
    const contradicted = against.some((o) => laterOrWith(o, r));
    const doubted = against.length > 0 && !r.issuer;
    if (corroborated || !(contradicted || doubted)) moved = true;
    else screens[i] = 'jump';
  });
  if (moved) {
    const movers = readings.filter((_, i) => far[i] && !screens[i]);
    const first = movers.reduce((m, r) => (r.c.moment < m ? r.c.moment : m), movers[0]!.c.moment);
    readings.forEach((r, i) => {
      if (!far[i] && r.c.moment <= first && movers.some((m) => apart(r, m))) screens[i] = 'superseded';
    });
  }
  return screens;
}

/** `o` was fixed with `r` or after it (within SAME_TIME_HOURS before counts as with it). */
function laterOrWith(o: Reading, r: Reading): boolean {
  return o.c.moment >= r.c.moment || tradingHoursApart(o.c.moment, r.c.moment) <= SAME_TIME_HOURS;
}

export function readingOf(c: Contribution, quality: Quality | undefined, source: Pick<SourceInfo, 'grade' | 'currency'> | undefined, group: string): Reading {
  const error = errorOf(quality, c, source);
  return { c, log: Math.log(c.perUsd), own: ownVariance(c, error), error, group, issuer: isIssuer(c, source?.currency) };
}
