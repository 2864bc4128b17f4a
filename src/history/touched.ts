// Which days an ingest touches (issue 14): the days whose blend can read the figures the new
// snapshots carry, plus days that have passed since the last materialisation. Pure.
import { addDays } from '../time/days.js';
import type { HistoryMark, SnapshotSpan } from '../store/store.js';
import { affectedDays, AHEAD_DAYS } from '../blend/window.js';

export interface DayRange {
  from: string;
  to: string;
}

/** Overlapping or adjacent ranges joined, in order. */
export function mergeRanges(ranges: DayRange[]): DayRange[] {
  const sorted = ranges.filter((r) => r.from <= r.to).sort((a, b) => (a.from < b.from ? -1 : 1));
  const out: DayRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.from <= addDays(last.to, 1)) {
      if (r.to > last.to) last.to = r.to;
    } else out.push({ ...r });
  }
  return out;
}

/** The first day that can have a blend: a figure dated `firstDate` is stamped up to a day earlier. */
export const firstHistoryDay = (firstDate: string) => addDays(firstDate, -AHEAD_DAYS);

/**
 * The days to (re)build, clipped to `first..today`: everything when nothing is materialised yet;
 * otherwise the days the snapshots after the mark affect, and the days since the mark's last day.
 */
export function touchedDays(mark: HistoryMark, span: SnapshotSpan | undefined, first: string, today: string): DayRange[] {
  if (mark.firstDay === null || mark.lastDay === null) return [{ from: first, to: today }];
  const ranges: DayRange[] = [];
  if (span) ranges.push(affectedDays(span.firstDate, span.lastDate));
  if (mark.lastDay < today) ranges.push({ from: addDays(mark.lastDay, 1), to: today });
  if (first < mark.firstDay) ranges.push({ from: first, to: addDays(mark.firstDay, -1) });
  return mergeRanges(ranges.map((r) => ({ from: r.from < first ? first : r.from, to: r.to > today ? today : r.to })));
}
