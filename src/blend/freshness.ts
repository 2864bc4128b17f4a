// D10: how long a source's figure keeps a currency fresh, by the cadence of the table it came from.
import type { Cadence } from '../sources/types.js';

/** Calendar days after the publication date during which a figure is still fresh. */
export const FRESH_DAYS: Record<Cadence, number> = { daily: 4, weekly: 10, monthly: 40 };

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The last day (inclusive, YYYY-MM-DD) on which a figure published on `date` is fresh. */
export function freshUntil(date: string, cadence: Cadence, graceDays: number): string {
  return addDays(date, FRESH_DAYS[cadence] + graceDays);
}

/** `YYYY-MM-DD HH:MM:SS` in UTC (D7). */
export function utcStamp(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

const DAY_MS = 86_400_000;
let dayStart = 0;
let dayEnd = -1;
let dayText = '';

/** The UTC day of `d` (YYYY-MM-DD). Requests ask this on every call and the answer changes once a day,
 *  so the last day's bounds and text are kept. */
export function utcDay(d: Date): string {
  const t = d.getTime();
  // Written so that an invalid date (NaN) recomputes, and throws in toISOString as it always did.
  if (!(t >= dayStart && t < dayEnd)) {
    dayStart = Math.floor(t / DAY_MS) * DAY_MS;
    dayEnd = dayStart + DAY_MS;
    dayText = d.toISOString().slice(0, 10);
  }
  return dayText;
}
