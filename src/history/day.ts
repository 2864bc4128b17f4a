// One day of history, pure (D14): the blend of every figure whose bank_update falls on or before the
// day, within the blend's lookback, kept only where fresh on that day (D10 measured from it). Both
// materialising and the parity test call this, so stored and fresh answers come from one code path.
import { blend } from '../blend/blend.js';
import { addDays } from '../time/days.js';
import type { SourceInfo } from '../blend/inputs.js';
import { HISTORIC_CURRENCIES, isActiveCurrency } from '../currencies/iso4217.js';
import type { ObservationRow } from '../store/store.js';

/** Days of figures before the day that the blend sees: the monthly freshness window and a margin,
 *  as for current rates (rates/market.ts). */
export const LOOKBACK_DAYS = 45;
/** Banks that publish the next day's rate stamp a figure dated D+1 on day D (publishedDayOffset −1). */
export const AHEAD_DAYS = 1;

/** A currency on one day: units per 1 USD as exact decimal text, and its newest bank_update (D7). */
export interface DayRate {
  perUsd: string;
  bankUpdate: string;
}

export type DayRates = Map<string, DayRate>;

const HISTORIC_UNTIL = new Map(HISTORIC_CURRENCIES.map((c) => [c.code, c.until]));

/** D14: a defunct currency is quoted on the days it was still legal tender. */
export const quotedOn = (day: string) => (code: string): boolean => isActiveCurrency(code) || (HISTORIC_UNTIL.get(code) ?? '') >= day;

/** The observation dates a day's blend may read. */
export const inputWindow = (day: string) => ({ from: addDays(day, -LOOKBACK_DAYS), to: addDays(day, AHEAD_DAYS) });

/** The days whose blend a change to figures dated `first..last` can alter. */
export const affectedDays = (first: string, last: string) => ({ from: addDays(first, -AHEAD_DAYS), to: addDays(last, LOOKBACK_DAYS) });

/**
 * The blend of `day` from `rows` (any rows; those outside the day's window are ignored). History
 * blends every source, discontinued ones too: Banco de Portugal's 1987–1998 figures are history.
 */
export function blendDay(sources: readonly SourceInfo[], rows: readonly ObservationRow[], day: string, graceDays: number): DayRates {
  const { from } = inputWindow(day);
  // A figure counts once its bank_update's day is on or before the day: per source, the newest
  // figure date that is so (the day shifted back by the source's day offset), compared as text.
  const until = new Map(sources.map((s) => [s.code, s.publishedDayOffset ? addDays(day, -s.publishedDayOffset) : day]));
  const used = rows.filter((r) => {
    if (r.date < from) return false;
    const last = until.get(r.source);
    return last !== undefined && r.date <= last;
  });
  const all = sources.map((s) => (s.discontinued ? { ...s, discontinued: undefined } : s));
  const out: DayRates = new Map();
  const blended = blend(all, used, { referenceDay: day, graceDays, quotes: quotedOn(day), contributions: false });
  for (const code of [...blended.keys()].sort()) {
    const b = blended.get(code)!;
    if (b.freshUntil >= day) out.set(code, { perUsd: b.perUsd.toString(), bankUpdate: b.bankUpdate });
  }
  return out;
}

/** The stored form of a day: `{"AED":["3.6725","2024-01-02 16:00:00"],…}`, codes in order. */
export function encodeDay(rates: DayRates): string {
  const parts: string[] = [];
  for (const [code, r] of rates) parts.push(`"${code}":["${r.perUsd}","${r.bankUpdate}"]`);
  return `{${parts.join(',')}}`;
}

export function decodeDay(text: string): DayRates {
  const parsed = JSON.parse(text) as Record<string, [string, string]>;
  return new Map(Object.entries(parsed).map(([code, [perUsd, bankUpdate]]) => [code, { perUsd, bankUpdate }]));
}
