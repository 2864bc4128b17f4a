// Calendar days in UTC (YYYY-MM-DD) and the weekday arithmetic that cadences, freshness and weights
// count with. The store, ingest, the blend and the HTTP edge all use these; none imports another for them.

export const DAY_MS = 86_400_000;

/** Whole days from `from` to `to` (YYYY-MM-DD): 0 for the same day, negative when `to` is earlier. */
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** Days of `from..to`, both included: 1 for a single day, 0 or less when `to` is earlier. */
export const daysSpanned = (from: string, to: string): number => daysBetween(from, to) + 1;

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

let dayStart = 0;
let dayEnd = -1;
let dayText = '';

/** The UTC day of `d` (YYYY-MM-DD). Requests ask this on every call and the answer changes once a day,
 *  so the last day's bounds and text are kept: module-level, as a memo of a pure function that any
 *  caller may share (a different day only recomputes). */
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

/** Saturday or Sunday, for a moment in epoch milliseconds (UTC). */
export function isWeekend(ms: number): boolean {
  const weekday = new Date(ms).getUTCDay();
  return weekday === 0 || weekday === 6;
}

/** Weekdays among epoch days [0, n): day 0 (1970-01-01) was a Thursday, so a week from it runs
 *  Thu Fri Sat Sun Mon Tue Wed. Arithmetic, because the blend asks this thousands of times. */
const WEEKDAYS_BEFORE = [0, 1, 2, 2, 2, 3, 4];
const weekdaysBefore = (n: number) => Math.floor(n / 7) * 5 + WEEKDAYS_BEFORE[n % 7]!;
const epochDay = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

/** Monday-to-Friday days after `date`, up to and including `newest`. */
export function businessDaysBehind(date: string, newest: string): number {
  const from = epochDay(date);
  const to = epochDay(newest);
  return to <= from ? 0 : weekdaysBefore(to + 1) - weekdaysBefore(from + 1);
}
