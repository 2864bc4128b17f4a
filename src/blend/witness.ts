// One method for today and the past: a day's figures are witnessed by what the market showed on the
// trading days before it: per currency, the median of every source's figures of those days. A median
// of several sources over several days is not steered by one publisher's error, even one repeated for
// a few days (Fiji's CHF in April 2012, Iraq's DKK in June 2013), where a single previous blend was.
// Its variance is the figures' own spread there plus the market's move since the newest of them
// (model.ts); how fast the market moved over those days (each source against its own previous
// figure) is the recent volatility, which a crisis raises before the trailing measure sees it.
import { addDays } from '../time/days.js';
import { blend, type BlendedRate, type BlendOptions } from './blend.js';
import type { Figure, SourceInfo } from './inputs.js';
import { marketVariance, volatilityOf, type Witness } from './model.js';
import { dailyContributions, measureVolatility, median } from './quality.js';
import type { Contribution } from './rebase.js';

/** The moment a past day's blend stands for: its end (D14: "as they stood at the end of that day"),
 *  written as the next day's first instant so that a Saturday's end is exactly as many trading hours
 *  from Friday's figures as Friday's end is. */
export const endOf = (day: string) => `${addDays(day, 1)} 00:00:00`;
/** Calendar days before the day whose figures witness it: five trading days. */
export const WITNESS_DAYS = 7;
/** Median |x| of a normal variable is 0.6745 σ. */
const MAD_TO_SD = 1.4826;

/** Per currency, the witness of a blend at `moment` from figures published before its day. */
export function witnesses(sources: readonly SourceInfo[], before: readonly Figure[], moment: string, opts: Pick<BlendOptions, 'quality'>): Map<string, Witness> {
  const byCurrency = new Map<string, Contribution[]>();
  for (const c of dailyContributions(sources, before)) {
    const list = byCurrency.get(c.currency);
    if (list) list.push(c);
    else byCurrency.set(c.currency, [c]);
  }
  const out = new Map<string, Witness>();
  for (const [currency, list] of byCurrency) {
    const logs = list.map((c) => Math.log(c.perUsd));
    const center = median(logs);
    const spread = MAD_TO_SD * median(logs.map((l) => Math.abs(l - center)));
    const newest = list.reduce((m, c) => (c.moment > m ? c.moment : m), list[0]!.moment);
    out.set(currency, { log: center, volatility: measureVolatility(list), variance: spread ** 2 + marketVariance(volatilityOf(opts.quality, currency), newest, moment) });
  }
  return out;
}

/**
 * The blend of `opts.referenceDay` from `rows`, witnessed by `before` (the figures of the trading days
 * before it, as published by then). Without `referenceMoment` the blend stands for the end of its day.
 */
export function witnessedBlend(sources: SourceInfo[], rows: Figure[], before: Figure[], opts: BlendOptions): Map<string, BlendedRate> {
  const moment = opts.referenceMoment ?? endOf(opts.referenceDay);
  return blend(sources, rows, { ...opts, referenceMoment: moment, witness: witnesses(sources, before, moment, opts) });
}

/** The figures published (bank_update) by the end of `day`: per source, those dated up to the day
 *  shifted back by its day offset (compared as text). */
export function publishedBy<R extends Figure>(sources: readonly SourceInfo[], rows: readonly R[], day: string): R[] {
  const until = new Map(sources.map((s) => [s.code, s.publishedDayOffset ? addDays(day, -s.publishedDayOffset) : day]));
  return rows.filter((r) => {
    const last = until.get(r.source);
    return last !== undefined && r.date <= last;
  });
}

/** The figures that witness a blend of `day`: those of the WITNESS_DAYS before its trading day (a
 *  weekend day's is the Friday before, so a weekend without publications answers Friday's blend,
 *  D14), as published by the end of the day before that. */
export function witnessRows<R extends Figure>(sources: readonly SourceInfo[], rows: readonly R[], day: string): R[] {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  const trading = weekday === 6 ? addDays(day, -1) : weekday === 0 ? addDays(day, -2) : day;
  const from = addDays(trading, -WITNESS_DAYS);
  return publishedBy(sources, rows.filter((r) => r.date >= from), addDays(trading, -1));
}
