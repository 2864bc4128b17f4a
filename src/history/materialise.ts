// Materialising: compute the blend of each touched day with the pure day blend (day.ts) and store
// it. Observations are read a year at a time, so memory stays flat however long the history is.
import { addDays } from '../time/days.js';
import type { SourceInfo } from '../blend/inputs.js';
import type { HistoryDay, HistoryMark, ObservationRow, Store } from '../store/store.js';
import { blendDay, encodeDay, inputWindow, type DayRates } from './day.js';
import { firstHistoryDay, touchedDays, type DayRange } from './touched.js';

/** Days computed per read and per write. */
const CHUNK_DAYS = 366;

/** Rows sorted by date; the days of `from..to`, each with the rows of its window. */
function* daysOf(rows: readonly ObservationRow[], from: string, to: string): Generator<[string, readonly ObservationRow[]]> {
  let lo = 0;
  let hi = 0;
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const w = inputWindow(day);
    while (lo < rows.length && rows[lo]!.date < w.from) lo++;
    if (hi < lo) hi = lo;
    while (hi < rows.length && rows[hi]!.date <= w.to) hi++;
    yield [day, rows.slice(lo, hi)];
  }
}

/** A run given up at a chunk boundary because the server is closing; the next start redoes it. */
export class Stopped extends Error {}

/** Computes and stores `range`, handing each computed day to `onDay` (the in-memory columns). */
export async function materialiseRange(store: Store, sources: readonly SourceInfo[], graceDays: number, range: DayRange, onDay: (day: string, rates: DayRates) => void, stopped: () => boolean = () => false): Promise<number> {
  let count = 0;
  for (let from = range.from; from <= range.to; from = addDays(from, CHUNK_DAYS)) {
    if (stopped()) throw new Stopped('history materialisation stopped');
    const to = addDays(from, CHUNK_DAYS - 1) < range.to ? addDays(from, CHUNK_DAYS - 1) : range.to;
    const rows = await store.observationsBetween(inputWindow(from).from, inputWindow(to).to);
    const days: HistoryDay[] = [];
    for (const [day, window] of daysOf(rows, from, to)) {
      const rates = blendDay(sources, window, day, graceDays);
      days.push({ day, rates: encodeDay(rates) });
      onDay(day, rates);
    }
    await store.saveHistoryDays(days);
    count += days.length;
  }
  return count;
}

export interface CatchUp {
  ranges: DayRange[];
  days: number;
  mark: HistoryMark;
}

/** Brings the stored history up to the data and `today`: only the touched days are rebuilt. */
export async function catchUp(store: Store, sources: readonly SourceInfo[], graceDays: number, today: string, onDay: (day: string, rates: DayRates) => void, stopped?: () => boolean): Promise<CatchUp> {
  const mark = await store.historyMark();
  // Read before the observations: a snapshot stored meanwhile has a later id and is caught next time.
  const span = await store.snapshotsAfter(mark.snapshotId);
  const data = await store.observationSpan();
  if (!data) return { ranges: [], days: 0, mark };
  const first = firstHistoryDay(data.first);
  const ranges = touchedDays(mark, span, first, today);
  if (ranges.length === 0 && !span) return { ranges, days: 0, mark };
  let days = 0;
  for (const range of ranges) days += await materialiseRange(store, sources, graceDays, range, onDay, stopped);
  const lastDay = mark.lastDay !== null && mark.lastDay > today ? mark.lastDay : today;
  const next = { snapshotId: span?.lastId ?? mark.snapshotId, firstDay: first, lastDay };
  await store.saveHistoryDays([], next);
  return { ranges, days, mark: next };
}
