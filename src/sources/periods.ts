// What the period-rate adapters share (D21): a calendar month as a period, and the months a fetch
// window asks for, the months its figures may start in.
import type { FetchWindow } from './types.js';

const pad = (n: number) => String(n).padStart(2, '0');

/** Month `month` (1–12) of `year` as a period: its first and last day, YYYY-MM-DD. */
export function monthPeriod(year: number, month: number): { from: string; to: string } {
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return { from: `${year}-${pad(month)}-01`, to: `${year}-${pad(month)}-${pad(last)}` };
}

/** The months ([year, month]) from the month of the window's first day to `ahead` months after the
 *  month of its last: a publisher of period rates sets the coming month's ahead of it. A window
 *  whose first day is after its last (a period source's newest period starts after today) counts
 *  from its last day. */
export function windowMonths(window: FetchWindow, ahead = 0): [year: number, month: number][] {
  const first = window.from < window.to ? window.from : window.to;
  const out: [number, number][] = [];
  let y = Number(first.slice(0, 4));
  let m = Number(first.slice(5, 7));
  const endY = Number(window.to.slice(0, 4));
  const endIndex = endY * 12 + Number(window.to.slice(5, 7)) - 1 + ahead;
  while (y * 12 + m - 1 <= endIndex) {
    out.push([y, m]);
    m = m === 12 ? 1 : m + 1;
    if (m === 1) y++;
  }
  return out;
}
