// Holds the current rates and bank tables and rebuilds them from the store when data lands.
// Readers take `market.current` once per request; a rebuild swaps in a complete new pair.
import { QUALITY_DAYS, type Quality } from '../blend/quality.js';
import { blend } from '../blend/blend.js';
import { QualityCache } from '../blend/quality-cache.js';
import { addDays } from '../time/days.js';
import { utcStamp } from '../time/stamps.js';
import { turn } from '../time/turns.js';
import { MAX_DAYS_AHEAD } from '../blend/fixing.js';
import { LOOKBACK_DAYS } from '../blend/freshness.js';
import { bankTableOn } from './bank-day.js';
import type { Source } from '../sources/types.js';
import type { Store } from '../store/store.js';
import { BankTable, currentRows } from './bank-table.js';
import { RatesTable } from './table.js';

/** And the measured quality's window before the first of the month (blend/quality.ts). */
const QUALITY_READ_DAYS = QUALITY_DAYS + 31;

export interface MarketSnapshot {
  rates: RatesTable;
  banks: ReadonlyMap<string, BankTable>;
  builtAt: Date;
  /** The measured quality the rates were blended with (blend/quality.ts); absent before a build. */
  quality?: Quality;
}

export class Market {
  current: MarketSnapshot = { rates: RatesTable.empty(), banks: new Map(), builtAt: new Date(0) };
  /** The data version the current tables were built from, when the caller said (RebuildQueue does). */
  private version = -Infinity;
  private readonly quality = new QualityCache();

  constructor(
    private readonly store: Store,
    private readonly sources: readonly Source[],
    readonly graceDays: number,
  ) {}

  /** Builds the tables as of `now` from the store. Given the store's `version` read before the build,
   *  a build from older data, or from the same data for an earlier moment, never replaces a newer one. */
  async rebuild(now: Date, version?: number): Promise<MarketSnapshot> {
    // Rates as of `now`: a figure dated beyond what a bank may publish ahead is not used yet.
    const latest = addDays(now.toISOString().slice(0, 10), MAX_DAYS_AHEAD);
    // SQLite answers synchronously, so no `await` below lets a request in: turns of the event loop
    // between the steps keep each task to tens of milliseconds, not the whole ~0.5 s (issue 34, D30).
    const read = (await this.store.recentObservations(LOOKBACK_DAYS + QUALITY_READ_DAYS)).filter((r) => r.date <= latest);
    const today = now.toISOString().slice(0, 10);
    await turn();
    const quality = this.quality.of(this.sources, read, today);
    await turn();
    // Weighted from `now`: a figure dated ahead (banks publish up to MAX_DAYS_AHEAD early) or stamped
    // later than its bank fixed it counts less, not more, than what the market showed by now.
    const opts = { referenceDay: today, referenceMoment: utcStamp(now), graceDays: this.graceDays, quality };
    // The blend's own rows: as many days back from each source's newest as before (the quality's
    // window reaches further back only to measure).
    const newest = new Map<string, string>();
    for (const r of read) if (r.date > (newest.get(r.source) ?? '')) newest.set(r.source, r.date);
    const from = new Map([...newest].map(([source, date]) => [source, addDays(date, -LOOKBACK_DAYS)]));
    const rows = read.filter((r) => r.date >= from.get(r.source)!);
    const rates = new RatesTable(blend(this.sources, rows, opts));
    await turn();
    const banks = new Map<string, BankTable>();
    for (const source of this.sources) {
      // A period source's figures are not among the blend's rows (D21): the ones in force today.
      if (source.periodRates) {
        banks.set(source.code, await bankTableOn(this.store, source, today));
        continue;
      }
      const own = rows.filter((r) => r.source === source.code);
      banks.set(source.code, new BankTable(source, currentRows(source, own)));
      if (banks.size % 16 === 0) await turn();
    }
    if (version !== undefined && (version < this.version || (version === this.version && now < this.current.builtAt))) return this.current;
    if (version !== undefined) this.version = version;
    this.current = { rates, banks, builtAt: now, quality };
    return this.current;
  }
}
