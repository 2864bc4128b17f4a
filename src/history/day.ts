// One day of history, pure (D14): the blend of every figure whose bank_update falls on or before the
// day, within the blend's lookback, kept only where fresh on that day (D10 measured from it). Both
// materialising and the parity test call this, so stored and fresh answers come from one code path.
import type { BlendedRate } from '../blend/blend.js';
import { QUALITY_DAYS, qualityAnchor, qualityFor, type Quality } from '../blend/quality.js';
import { publishedBy, witnessedBlend, witnessRows } from '../blend/witness.js';
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

/** The observation dates a day's blend may read: its measured quality's window, then its own. */
export const inputWindow = (day: string) => ({ from: addDays(qualityAnchor(day), -QUALITY_DAYS), to: addDays(day, AHEAD_DAYS) });

/** The days whose blend a change to figures dated `first..last` can alter: those that blend them,
 *  the next (witnessed by them), and the months whose quality they measure. */
export const affectedDays = (first: string, last: string) => ({ from: addDays(first, -AHEAD_DAYS), to: addDays(qualityAnchor(addDays(last, QUALITY_DAYS + 31)), -1) });

/** Measured quality by month anchor: one materialising run measures each month once. */
export type QualityMemo = Map<string, Quality>;

/**
 * The blend of `day` from `rows` (any rows; those outside the day's window are ignored). History
 * blends every source, discontinued ones too: Banco de Portugal's 1987–1998 figures are history.
 */
export function blendDay(sources: readonly SourceInfo[], rows: readonly ObservationRow[], day: string, graceDays: number, memo?: QualityMemo): DayRates {
  const out: DayRates = new Map();
  for (const [code, b] of blendOfDay(sources, rows, day, graceDays, { memo, contributions: false })) out.set(code, { perUsd: b.perUsd.toString(), bankUpdate: b.bankUpdate });
  return out;
}

/** The blend of `day` as blendDay computes it, each currency with its contributions unless told
 *  otherwise (provenance of a past day), in code order; only the currencies fresh on the day. */
export function blendOfDay(sources: readonly SourceInfo[], rows: readonly ObservationRow[], day: string, graceDays: number, opts: { memo?: QualityMemo; contributions?: boolean } = {}): Map<string, BlendedRate> {
  const all = sources.map((s) => (s.discontinued ? { ...s, discontinued: undefined } : s));
  const quality = qualityFor(all, rows, day, opts.memo);
  const from = addDays(day, -LOOKBACK_DAYS);
  const blendOpts = { referenceDay: day, graceDays, quotes: quotedOn(day), contributions: opts.contributions !== false, quality };
  const blended = witnessedBlend(all, publishedBy(all, rows, day).filter((r) => r.date >= from), witnessRows(all, rows, day), blendOpts);
  const out = new Map<string, BlendedRate>();
  for (const code of [...blended.keys()].sort()) {
    const b = blended.get(code)!;
    if (b.freshUntil >= day) out.set(code, b);
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
