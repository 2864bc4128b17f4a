// Materialising: compute the blend of each touched day with the pure day blend (day.ts) and store
// it. Observations are read forward a month at a time, each row once, and dropped once no later
// day's window needs them, so memory stays flat however long the history is: a year of rows held
// at once (and the garbage of reading it) raised the server's peak RSS by ~100 MB.
import { addDays } from '../time/days.js';
import { type Figure, SharedTexts, type SourceInfo } from '../blend/inputs.js';
import type { HistoryDay, HistoryMark, Store } from '../store/store.js';
import { inputWindow } from '../blend/window.js';
import { blendDay, DayMemo, dayQualitySteps, encodeDay, type DayRates } from './day.js';
import type { QualityCache } from '../blend/quality-cache.js';
import { firstHistoryDay, touchedDays, type DayRange } from './touched.js';
import { inTurns, Slices } from '../time/turns.js';

/** Days computed per write (one transaction each). */
const CHUNK_DAYS = 92;
/** Days computed between two turns of the event loop at most. A day's blend took ~2 ms on a slow VM, so a
 *  request that came in while a whole chunk was computed waited ~175 ms (the first request after a
 *  first start did); with a turn every 8 days it waits ~15 ms there, ~5 ms on a fast one. Days
 *  that blend many sources take longer: the loop also turns once a slice has run SLICE_MS (a start
 *  against answering feeds saw slices of 90–220 ms with the day count alone; D30). */
export const YIELD_DAYS = 8;
/** Days of observations read per query: a fortnight of a rich month reads in ~15 ms. */
const READ_DAYS = 16;

/** The observations of a sliding window of dates, read forward in blocks; sorted by date. */
class RowWindow {
  private rows: Figure[] = [];
  private lo = 0;
  /** Rows outlive many collections of the young heap: held with their texts shared, the old heap
   *  fills with less garbage. */
  private readonly texts = new SharedTexts();
  /** The last date read. */
  private readTo: string;

  /** `slices`: the run's clock, which the reads share with the days' blends. */
  constructor(private readonly store: Store, first: string, private readonly slices: Slices) {
    this.readTo = addDays(first, -1);
  }

  /** Rows sorted by date holding every row dated `from..to` (and perhaps some either side, which the
   *  day blend never reads: it finds its dates by binary search); `from` never decreases between
   *  calls. Not a copy: a day's window overlaps the last day's nearly whole. */
  async between(from: string, to: string): Promise<readonly Figure[]> {
    while (this.readTo < to) {
      const start = this.readTo < from ? from : addDays(this.readTo, 1);
      const end = addDays(start, READ_DAYS - 1);
      const more = await this.store.observationsBetween(start, end);
      if (this.lo > 0) [this.rows, this.lo] = [this.rows.slice(this.lo), 0];
      for (const r of more) this.rows.push(this.texts.figure(r));
      this.readTo = end;
      // A day's first window is ~80 days: read whole at once, a month rich in figures held the loop
      // 60–90 ms (D32). A block at a time, with a turn between once the slice has run its time.
      await this.slices.next();
    }
    while (this.lo < this.rows.length && this.rows[this.lo]!.date < from) this.lo++;
    return this.rows;
  }
}

/** A run given up at a chunk boundary because the server is closing; the next start redoes it. */
export class Stopped extends Error {}

/** Computes and stores `range`, handing each computed day to `onDay` (the in-memory columns). */
export async function materialiseRange(store: Store, sources: readonly SourceInfo[], graceDays: number, range: DayRange, onDay: (day: string, rates: DayRates) => void, stopped: () => boolean = () => false, months?: QualityCache): Promise<number> {
  let count = 0;
  const slices = new Slices();
  const rows = new RowWindow(store, inputWindow(range.from).from, slices);
  const memo = new DayMemo(sources, months);
  for (let from = range.from; from <= range.to; from = addDays(from, CHUNK_DAYS)) {
    if (stopped()) throw new Stopped('history materialisation stopped');
    const to = addDays(from, CHUNK_DAYS - 1) < range.to ? addDays(from, CHUNK_DAYS - 1) : range.to;
    const days: HistoryDay[] = [];
    for (let day = from; day <= to; day = addDays(day, 1)) {
      const w = inputWindow(day);
      const window = await rows.between(w.from, w.to);
      // A new month's measured quality, in turns: measured whole, it held the loop 0.3–0.5 s (D32).
      await inTurns(dayQualitySteps(memo, window, day), slices);
      const rates = blendDay(sources, window, day, graceDays, memo);
      days.push({ day, rates: encodeDay(rates) });
      onDay(day, rates);
      // SQLite answers synchronously: without a turn of the event loop a long run would hold it.
      await slices.next(++count % YIELD_DAYS === 0);
    }
    await store.saveHistoryDays(days);
    await slices.next();
  }
  return count;
}
export interface CatchUp {
  ranges: DayRange[];
  days: number;
  mark: HistoryMark;
}

/** Where computed days go (the in-memory columns): told each range first, so it can make room once. */
export interface DaySink {
  reserve(from: string, to: string): void;
  set(day: string, rates: DayRates): void;
}

/** Brings the stored history up to the data and `today`: only the touched days are rebuilt. */
export async function catchUp(store: Store, sources: readonly SourceInfo[], graceDays: number, today: string, sink: DaySink, stopped?: () => boolean, months?: QualityCache): Promise<CatchUp> {
  const mark = await store.historyMark();
  // Read before the observations: a snapshot stored meanwhile has a later id and is caught next time.
  const span = await store.snapshotsAfter(mark.snapshotId);
  const data = await store.observationSpan();
  if (!data) return { ranges: [], days: 0, mark };
  const first = firstHistoryDay(data.first);
  const ranges = touchedDays(mark, span, first, today);
  if (ranges.length === 0 && !span) return { ranges, days: 0, mark };
  let days = 0;
  for (const range of ranges) {
    sink.reserve(range.from, range.to);
    days += await materialiseRange(store, sources, graceDays, range, (day, rates) => sink.set(day, rates), stopped, months);
  }
  const lastDay = mark.lastDay !== null && mark.lastDay > today ? mark.lastDay : today;
  const next = { snapshotId: span?.lastId ?? mark.snapshotId, firstDay: first, lastDay };
  await store.saveHistoryDays([], next);
  return { ranges, days, mark: next };
}
