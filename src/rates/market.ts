// Holds the current rates and bank tables and rebuilds them from the store when data lands.
// Readers take `market.current` once per request; a rebuild swaps in a complete new pair.
import { blend } from '../blend/blend.js';
import { addDays } from '../time/days.js';
import { utcStamp } from '../time/stamps.js';
import { MAX_DAYS_AHEAD } from '../ingest/validate.js';
import type { Source } from '../sources/types.js';
import type { Store } from '../store/store.js';
import { BankTable, currentRows } from './bank-table.js';
import { RatesTable } from './table.js';

/** How far back from each source's newest date the blend and bank tables look (a monthly window). */
const LOOKBACK_DAYS = 45;

export interface MarketSnapshot {
  rates: RatesTable;
  banks: ReadonlyMap<string, BankTable>;
  builtAt: Date;
}

export class Market {
  current: MarketSnapshot = { rates: RatesTable.empty(), banks: new Map(), builtAt: new Date(0) };
  /** The data version the current tables were built from, when the caller said (RebuildQueue does). */
  private version = -Infinity;

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
    const rows = (await this.store.recentObservations(LOOKBACK_DAYS)).filter((r) => r.date <= latest);
    // Weighted from `now`: a figure dated ahead (banks publish up to MAX_DAYS_AHEAD early) or stamped
    // later than its bank fixed it counts less, not more, than what the market showed by now.
    const opts = { referenceDay: now.toISOString().slice(0, 10), referenceMoment: utcStamp(now), graceDays: this.graceDays };
    const rates = new RatesTable(blend([...this.sources], rows, opts));
    const banks = new Map<string, BankTable>();
    for (const source of this.sources) {
      const own = rows.filter((r) => r.source === source.code);
      banks.set(source.code, new BankTable(source, currentRows(source, own)));
    }
    if (version !== undefined && (version < this.version || (version === this.version && now < this.current.builtAt))) return this.current;
    if (version !== undefined) this.version = version;
    this.current = { rates, banks, builtAt: now };
    return this.current;
  }
}
