// Which figures a day's blend reads, and which days a change to figures can alter. Below both the
// current rates (a bank's table today) and history (any day), which ask the same question.
import { tradingDay } from './hours.js';
import { QUALITY_DAYS, qualityAnchor } from './quality.js';
import { addDays } from '../time/days.js';

/** Banks that publish the next day's rate stamp a figure dated D+1 on day D (publishedDayOffset −1). */
export const AHEAD_DAYS = 1;

/** The observation dates a day's blend may read: its measured quality's window, then its own. */
export function inputWindow(day: string): { from: string; to: string } {
  // A day the market is shut is its trading day's blend, which that day's quality and figures make.
  const asOf = tradingDay(day);
  return { from: addDays(qualityAnchor(asOf), -QUALITY_DAYS), to: addDays(asOf, AHEAD_DAYS) };
}

/** The days whose blend a change to figures dated `first..last` can alter: those that blend them
 *  (a figure is read for LOOKBACK_DAYS after its date), and the months whose quality they measure. */
export const affectedDays = (first: string, last: string) => ({ from: addDays(first, -AHEAD_DAYS), to: addDays(qualityAnchor(addDays(last, QUALITY_DAYS + 31)), -1) });
