// Market time: the hours between two moments during which the currency market trades, taken as
// every hour from Monday 00:00 to Friday 24:00 UTC. Prices barely move over a weekend, so a figure
// fixed on Friday afternoon says as much about Sunday as about Friday evening, and a weekend
// publisher's figure is not newer information than Friday's close.
import { addDays, isWeekend } from '../time/days.js';

const HOUR_MS = 3_600_000;
/** 1970-01-01 was a Thursday: day 0 is weekday 3 counting Monday as 0. */
const EPOCH_WEEKDAY = 3;

/** Trading hours from the epoch to `ms`: five days of 24 hours a week. */
function tradingHoursUntil(ms: number): number {
  const hours = ms / HOUR_MS + EPOCH_WEEKDAY * 24;
  const weeks = Math.floor(hours / 168);
  const inWeek = hours - weeks * 168;
  return weeks * 120 + Math.min(inWeek, 120) - EPOCH_WEEKDAY * 24;
}

/** Stamps recur thousands of times (a few fixing hours a day): parsed once each. Module-level because
 *  it is a memo of a pure function, bounded: every blend may share it and none can see it. */
const parsed = new Map<string, number>();
const PARSED_MAX = 100_000;

/** Trading hours from the epoch to a `YYYY-MM-DD HH:MM:SS` stamp. */
export function tradingHoursAt(stamp: string): number {
  let h = parsed.get(stamp);
  if (h === undefined) {
    if (parsed.size >= PARSED_MAX) parsed.clear();
    h = tradingHoursUntil(Date.parse(`${stamp.slice(0, 10)}T${stamp.slice(11, 19) || '00:00:00'}Z`));
    parsed.set(stamp, h);
  }
  return h;
}

/** Trading hours between two `YYYY-MM-DD HH:MM:SS` stamps, in either order. */
export function tradingHoursApart(a: string, b: string): number {
  return Math.abs(tradingHoursAt(b) - tradingHoursAt(a));
}

/** Days the currency market is shut: weekends, and Christmas Day and New Year's Day, when no
 *  settlement system runs and only a few publishers (Taiwan's, Iraq's) still post figures. */
export function isMarketClosed(day: string): boolean {
  return isWeekend(Date.parse(`${day}T00:00:00Z`)) || day.endsWith('-12-25') || day.endsWith('-01-01');
}

/** The day a day's market stands at: itself, or for a day the market is shut the last before it. */
export function tradingDay(day: string): string {
  let d = day;
  while (isMarketClosed(d)) d = addDays(d, -1);
  return d;
}
