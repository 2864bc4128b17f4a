// History as the server holds it: the materialised days in the database and, once a range first
// asks, in memory (columns.ts, ~16 MB), kept in step. A server that is never asked for a range
// never holds them: a single day is one stored row. The ingesting instance materialises; the others
// reload what it wrote. A day that is not materialised, or that an unmaterialised snapshot touches,
// is computed on the spot from the stored figures with the same pure code, so an answer is never
// stale or partial.
import type { BlendedRate } from '../blend/blend.js';
import { addDays } from '../time/days.js';
import type { Figure, SourceInfo } from '../blend/inputs.js';
import { Decimal } from '../money/decimal.js';
import { RatesTable } from '../rates/table.js';
import type { HistoryMark, Store } from '../store/store.js';
import { HistoryColumns } from './columns.js';
import { affectedDays, inputWindow } from '../blend/window.js';
import { blendDay, blendOfDay, DayMemo, dayQualitySteps, decodeDay, type DayRates } from './day.js';
import { QualityCache } from '../blend/quality-cache.js';
import { catchUp, type CatchUp, type DaySink } from './materialise.js';
import { touchedDays, type DayRange } from './touched.js';
import { inTurns } from '../time/turns.js';

/** Days past the materialised ones a range may compute on the spot (a day boundary, a slow ingester). */
const MAX_NEW_DAYS = 7;

/** Day tables kept for repeated questions (each is a few KB plus its cached bodies). */
const KEPT_TABLES = 64;
/** Months of measured quality kept between materialising runs (blend/quality-cache.ts). */
const KEPT_MONTHS = 12;
/** Days read from the database at a time when loading. A month: loading the whole history
 *  (1987–2026, the bundled seed with the ECB's file) a year at a time grew the heap to ~98 MB for
 *  ~28 MB live and RSS by 80 MB in 1.0 s; a month at a time, ~70 MB, 50 MB and 0.74 s (7 to 62 days
 *  alike). Fewer rows and decoded days alive at once: less of the load's garbage outlives a scavenge. */
const LOAD_CHUNK_DAYS = 31;
/** Where materialised days go while the columns are not loaded: the database alone. */
const NO_COLUMNS: DaySink = { reserve() {}, set() {} };

export class History {
  private readonly columns = new HistoryColumns();
  /** Whether `columns` holds every materialised day (after the first range asked for them). */
  private loaded = false;
  private mark: HistoryMark = { snapshotId: 0, firstDay: null, lastDay: null };
  /** Days touched by snapshots that are not materialised yet. */
  private pending: DayRange[] = [];
  private readonly tables = new Map<string, RatesTable>();
  /** The newest months' measured quality, kept for the next materialising run: a daily ingest
   *  touches the newest; the whole history's would hold ~100 MB. */
  private readonly months = new QualityCache(KEPT_MONTHS);
  private running: Promise<unknown> = Promise.resolve();
  private stopped = false;
  /** Grows whenever a stored day changes: range answers cached elsewhere are keyed by it. */
  version = 0;

  constructor(
    private readonly store: Store,
    private readonly sources: readonly SourceInfo[],
    private readonly graceDays: number,
  ) {}

  get materialised(): HistoryMark {
    return this.mark;
  }

  /** Reads what is materialised (at boot); what later snapshots touched stays pending. */
  load(): Promise<void> {
    return this.serial(async () => {
      this.mark = await this.store.historyMark();
      await this.findPending();
    });
  }

  /** Reads every materialised day into the columns, once (ranges need them all). */
  private loadColumns(): Promise<void> {
    return this.serial(async () => {
      const { firstDay, lastDay } = this.mark;
      if (this.loaded) return;
      if (firstDay !== null && lastDay !== null) await this.reload({ from: firstDay, to: lastDay });
      this.loaded = true;
    });
  }

  /** The ingester's part: materialises the days the new data and the calendar touch. */
  materialise(today: string): Promise<CatchUp> {
    return this.serial(async () => {
      const done = await catchUp(this.store, this.sources, this.graceDays, today, this.loaded ? this.columns : NO_COLUMNS, () => this.stopped, this.months);
      this.mark = done.mark;
      this.changed();
      await this.findPending();
      return done;
    });
  }

  /** Another instance's part: reloads the days the ingester rewrote since this one last looked. */
  sync(): Promise<void> {
    return this.serial(async () => {
      const next = await this.store.historyMark();
      if (next.snapshotId !== this.mark.snapshotId || next.lastDay !== this.mark.lastDay) {
        const span = await this.store.snapshotsAfter(this.mark.snapshotId);
        if (this.loaded && next.firstDay !== null && next.lastDay !== null) {
          for (const range of touchedDays(this.mark, span, next.firstDay, next.lastDay)) await this.reload(range);
        }
        this.mark = next;
        this.changed();
      }
      await this.findPending();
    });
  }

  /** Stops a materialisation in progress at its next chunk (the server is closing). */
  stop(): void {
    this.stopped = true;
  }

  /** The blended table of `day` (fresh rates only, D14), from the columns or computed on the spot. */
  async day(day: string): Promise<RatesTable> {
    const kept = this.tables.get(day);
    if (kept) return kept;
    const version = this.version;
    let rates: ReadonlyMap<string, { perUsd: string | Decimal; bankUpdate: string }> | undefined;
    if (this.isReady(day)) rates = this.loaded ? this.columns.get(day) : await this.stored(day);
    if (!rates) {
      const computed = await this.compute(day);
      // A day past the materialised ones that no pending snapshot touches is as materialising would
      // write it: keep it for range answers until the ingester writes it.
      if (version === this.version && this.loaded && this.isNewDay(day)) this.columns.set(day, computed);
      rates = computed;
    }
    const table = tableOf(day, rates);
    if (version === this.version) {
      if (this.tables.size >= KEPT_TABLES) this.tables.delete(this.tables.keys().next().value!);
      this.tables.set(day, table);
    }
    return table;
  }

  /** True when `day` is materialised and no stored snapshot since has touched it. */
  isReady(day: string): boolean {
    if (this.pending.some((r) => day >= r.from && day <= r.to)) return false;
    const { firstDay, lastDay } = this.mark;
    return (firstDay !== null && lastDay !== null && day >= firstDay && day <= lastDay) || this.columns.has(day);
  }

  /**
   * The columns, once every day of `from..to` is ready; undefined while some day waits for the
   * ingester (the caller answers 503). Days past the materialised ones are computed on the spot.
   */
  async range(from: string, to: string): Promise<HistoryColumns | undefined> {
    const { firstDay, lastDay } = this.mark;
    if (firstDay === null || lastDay === null) return undefined;
    if (this.pending.some((r) => r.from <= to && r.to >= from)) return undefined;
    if (!this.loaded) {
      await this.loadColumns();
      return this.range(from, to);
    }
    // Before the first figure there is nothing to wait for: those days are empty.
    const lo = from < firstDay ? firstDay : from;
    const hi = to < lastDay ? to : lastDay;
    if (lo <= hi && !this.columns.allPresent(lo, hi)) return undefined;
    for (let day = addDays(lastDay, 1); day <= to; day = addDays(day, 1)) {
      if (this.isReady(day)) continue;
      if (day > addDays(lastDay, MAX_NEW_DAYS)) return undefined;
      await this.day(day);
      if (!this.isReady(day)) return undefined;
    }
    return this.columns;
  }

  private isNewDay(day: string): boolean {
    return this.mark.lastDay !== null && day > this.mark.lastDay && !this.pending.some((r) => day >= r.from && day <= r.to);
  }

  /** A materialised day as stored (the columns not being loaded). */
  private async stored(day: string): Promise<DayRates | undefined> {
    const [row] = await this.store.historyDays(day, day);
    return row ? decodeDay(row.rates) : undefined;
  }

  /** The blend of `day` with every contribution, weight, measured error and exclusion (provenance of
   *  a past day): computed on the spot with the code that materialises it, so it explains the figure
   *  served. Fresh rates only (D14). */
  async explain(day: string): Promise<RatesTable> {
    const { rows, memo } = await this.inputsOf(day);
    return new RatesTable(blendOfDay(this.sources, rows, day, this.graceDays, { memo }));
  }

  private async compute(day: string): Promise<DayRates> {
    const { rows, memo } = await this.inputsOf(day);
    return blendDay(this.sources, rows, day, this.graceDays, memo);
  }

  /** A day's figures, and the memo its blend takes (the one it would make itself) holding the day's
   *  measured quality, measured in turns of the event loop (D32): whole, a month's held it 0.1–0.5 s. */
  private async inputsOf(day: string): Promise<{ rows: Figure[]; memo: DayMemo }> {
    const w = inputWindow(day);
    const rows = await this.store.observationsBetween(w.from, w.to);
    const memo = new DayMemo(this.sources);
    await inTurns(dayQualitySteps(memo, rows, day));
    return { rows, memo };
  }

  private async reload(range: DayRange): Promise<void> {
    this.columns.reserve(range.from, range.to);
    for (let from = range.from; from <= range.to; from = addDays(from, LOAD_CHUNK_DAYS)) {
      const to = addDays(from, LOAD_CHUNK_DAYS - 1);
      for (const d of await this.store.historyDays(from, to < range.to ? to : range.to)) this.columns.set(d.day, decodeDay(d.rates));
    }
  }

  private async findPending(): Promise<void> {
    const span = await this.store.snapshotsAfter(this.mark.snapshotId);
    this.pending = span ? [affectedDays(span.firstDate, span.lastDate)] : [];
  }

  private changed(): void {
    this.tables.clear();
    this.version++;
  }

  /** One load, materialisation or sync at a time, in order; a failure does not block the next. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.running.then(work, work);
    this.running = next.catch(() => undefined);
    return next;
  }
}

/** A day's rates as a rates table: every pair, conversion and body of the current rates works on it. */
export function tableOf(day: string, rates: ReadonlyMap<string, { perUsd: string | Decimal; bankUpdate: string }>): RatesTable {
  const blended = new Map<string, BlendedRate>();
  for (const [currency, r] of rates) {
    const perUsd = typeof r.perUsd === 'string' ? new Decimal(r.perUsd) : r.perUsd;
    blended.set(currency, { currency, perUsd, bankUpdate: r.bankUpdate, freshUntil: day, contributions: [] });
  }
  return new RatesTable(blended);
}
