// D10: how long a source's figure keeps a currency fresh, by the cadence of the table it came from;
// and (D21) how long a period source counts as current, from the end of its newest period.
import type { Cadence } from '../sources/types.js';
import { addDays } from '../time/days.js';

/** Calendar days after the publication date during which a figure is still fresh: one publication
 *  cycle and the delays a publisher of that cadence is seen to have (a long weekend, a late month). */
export const FRESH_DAYS: Record<Cadence, number> = { daily: 4, weekly: 10, monthly: 40, quarterly: 100 };

/** Days of figures before a day that its blend and bank tables read: the monthly freshness window
 *  and a margin. Current rates count them back from each source's newest date (rates/market.ts), a
 *  past day from itself (history/day.ts). */
export const LOOKBACK_DAYS = 45;

/** The last day (inclusive, YYYY-MM-DD) on which a figure published on `date` is fresh. */
export function freshUntil(date: string, cadence: Cadence, graceDays: number): string {
  return addDays(date, FRESH_DAYS[cadence] + graceDays);
}

/** What a source's currency is judged by: its newest figure's date, and a period source's last day
 *  covered by a stored period (SourceHealth). */
export interface Newest {
  newestDate: string | null;
  newestValidTo?: string | null;
}

/**
 * The last day a source counts as current; undefined when it holds nothing. A period source is
 * judged by the end of its newest period, not its start: the BIS publishes a month's end-of-period
 * figure weeks after the month, HMRC its customs rates weeks before, so a monthly source is current
 * until one freshness window after its newest period ended (never stale on the 20th of a month).
 */
export function sourceFreshUntil(source: { cadence: Cadence; periodRates?: true }, held: Newest | undefined, graceDays: number): string | undefined {
  const date = source.periodRates ? held?.newestValidTo : held?.newestDate;
  return date ? freshUntil(date, source.cadence, graceDays) : undefined;
}
