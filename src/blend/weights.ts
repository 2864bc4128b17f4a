// Step 4: how much each figure counts. Banks publish at different hours (MAS at noon Singapore, the
// ECB at 14:15 CET, the Bank of Canada at 16:30 ET), and on a volatile day a currency moves more
// between those hours than banks disagree, so a figure's weight halves for every HALF_LIFE_HOURS it
// is older than the currency's newest figure. Age counts business hours (weekends skipped), from the
// newest figure rather than the clock, so "latest available" stays meaningful for old data and
// Friday's figures stay whole on a Monday before Monday's arrive. Frankfurter instead gives full
// weight for three calendar days, which lets three days of drift into the rate.
import { Decimal } from '../money/decimal.js';
import type { Contribution, SourceInfo } from './rebase.js';

export const HALF_LIFE_HOURS = 4;
/** Hand-assembled (C) or library-fixture (F) provenance counts half until live fetching confirms it. */
export const GRADE_WEIGHT: Record<NonNullable<SourceInfo['grade']>, Decimal> = {
  A: new Decimal(1),
  B: new Decimal(1),
  C: new Decimal('0.5'),
  F: new Decimal('0.5'),
};

const DAY_MS = 86_400_000;

/** Monday-to-Friday days after `date`, up to and including `newest`. */
export function businessDaysBehind(date: string, newest: string): number {
  let count = 0;
  for (let t = Date.parse(`${date}T00:00:00Z`) + DAY_MS; t <= Date.parse(`${newest}T00:00:00Z`); t += DAY_MS) {
    const weekday = new Date(t).getUTCDay();
    if (weekday !== 0 && weekday !== 6) count++;
  }
  return count;
}

const hourOf = (stamp: string) => Number(stamp.slice(11, 13)) + Number(stamp.slice(14, 16)) / 60;

/** Business hours from one `YYYY-MM-DD HH:MM:SS` bank update to a later one. */
export function hoursBehind(stamp: string, newest: string): number {
  const hours = businessDaysBehind(stamp.slice(0, 10), newest.slice(0, 10)) * 24 + hourOf(newest) - hourOf(stamp);
  return Math.max(0, hours);
}

/** 2^(−hours / half-life). Computed in binary floating point and carried as a 15-digit Decimal: a
 *  weight only scales figures whose mean is rounded to 8 digits, and Decimal's exp is slow. */
export function recencyWeight(hours: number): Decimal {
  return new Decimal(Math.pow(2, -hours / HALF_LIFE_HOURS).toPrecision(15));
}

export function weightOf(c: Contribution, grade: SourceInfo['grade'], newestUpdate: string): Decimal {
  return recencyWeight(hoursBehind(c.bankUpdate, newestUpdate)).times(grade ? GRADE_WEIGHT[grade] : 1);
}

/** Σ wᵢxᵢ / Σ wᵢ. */
export function weightedMean(values: Decimal[], weights: Decimal[]): Decimal {
  let sum = new Decimal(0);
  let total = new Decimal(0);
  values.forEach((v, i) => {
    sum = sum.plus(v.times(weights[i]!));
    total = total.plus(weights[i]!);
  });
  return sum.div(total);
}
