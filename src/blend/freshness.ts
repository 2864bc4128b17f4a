// D10: how long a source's figure keeps a currency fresh, by the cadence of the table it came from.
import type { Cadence } from '../sources/types.js';
import { addDays } from '../time/days.js';

/** Calendar days after the publication date during which a figure is still fresh. */
export const FRESH_DAYS: Record<Cadence, number> = { daily: 4, weekly: 10, monthly: 40 };


/** The last day (inclusive, YYYY-MM-DD) on which a figure published on `date` is fresh. */
export function freshUntil(date: string, cadence: Cadence, graceDays: number): string {
  return addDays(date, FRESH_DAYS[cadence] + graceDays);
}
