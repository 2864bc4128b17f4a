// Step 4: how much each figure counts. Banks fix at different hours (MAS at noon Singapore, the ECB
// at 14:10 CET, the Bank of Canada over the Ottawa day), and on a volatile day a currency moves more
// between those hours than banks disagree, so a figure's weight halves for every HALF_LIFE_HOURS
// between its fixing moment and the reference moment (by default the currency's newest fixing).
// Hours count business days only (weekends skipped), so Friday's figures stay whole on a Monday
// before Monday's arrive. Frankfurter instead gives full weight for three calendar days.
// Then: the issuing central bank counts more for its own currency, coarse figures count less.
import { businessDaysBehind } from '../time/days.js';
import { ISSUER_OF } from './fixing.js';
import type { SourceInfo } from './inputs.js';
import type { Contribution } from './rebase.js';

/** Two hours: on the recorded data it holds the ECB (13:15 UTC), the Bank of Canada (17:00) and the
 *  NBP (11:15) to their own figures best; at four, the ECB's hour outweighed Ottawa's on trending days. */
export const HALF_LIFE_HOURS = 2;
/** Hand-assembled (C) or library-fixture (F) provenance counts half until live fetching confirms it. */
export const GRADE_WEIGHT: Record<NonNullable<SourceInfo['grade']>, number> = { A: 1, B: 1, C: 0.5, F: 0.5 };
/** The issuer fixes its own currency from its home market, the deepest one for it, where everyone
 *  else relays a cross through USD or EUR: its figure counts as much as two others at equal time. */
export const ISSUER_WEIGHT = 2;
/** How far banks fixing at the same moment typically disagree (relative): 5 basis points on the
 *  recorded data. A figure rounded coarser than this is weighted down by its rounding error. */
export const TYPICAL_SPREAD = 0.0005;

const hourOf = (stamp: string) => Number(stamp.slice(11, 13)) + Number(stamp.slice(14, 16)) / 60;

/** Business hours from one `YYYY-MM-DD HH:MM:SS` stamp to a later one. */
export function hoursBehind(stamp: string, newest: string): number {
  const hours = businessDaysBehind(stamp.slice(0, 10), newest.slice(0, 10)) * 24 + hourOf(newest) - hourOf(stamp);
  return Math.max(0, hours);
}

/** Business hours between two stamps, in either order. */
export const hoursApart = (a: string, b: string): number => (a <= b ? hoursBehind(a, b) : hoursBehind(b, a));

/** 2^(−hours / half-life). */
export function recencyWeight(hours: number): number {
  return Math.pow(2, -hours / HALF_LIFE_HOURS);
}

/** Half a unit in the last published digit, relative to the figure: `0.391` is known to ±0.13%. */
export function roundingError(published: string): number {
  const point = published.indexOf('.');
  const places = point < 0 ? 0 : published.length - point - 1;
  return (0.5 * 10 ** -places) / Number(published);
}

/** Inverse-variance share of a figure whose rounding adds to the typical spread; 1 for fine figures.
 *  (A uniform rounding error of ±e has standard deviation e/√3.) */
export function precisionWeight(published: string): number {
  const rounding = roundingError(published) / Math.sqrt(3);
  return TYPICAL_SPREAD ** 2 / (TYPICAL_SPREAD ** 2 + rounding ** 2);
}

/** Whether the source is the currency's issuer: its base currency, or listed in ISSUER_OF. */
export const isIssuer = (c: Pick<Contribution, 'source' | 'currency'>, base: string | undefined): boolean =>
  ISSUER_OF[c.currency] === undefined ? base === c.currency : ISSUER_OF[c.currency] === c.source;

/** A figure's weight, `hours` being its distance from the reference moment less the nearest
 *  figure's: shares are unchanged by the common factor, and months-old data cannot underflow to 0. */
export function weightOf(c: Contribution, source: Pick<SourceInfo, 'currency' | 'grade'> | undefined, hours: number): number {
  const grade = source?.grade ? GRADE_WEIGHT[source.grade] : 1;
  const issuer = isIssuer(c, source?.currency) ? ISSUER_WEIGHT : 1;
  return recencyWeight(hours) * grade * issuer * precisionWeight(c.published);
}
