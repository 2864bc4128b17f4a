// Holds the current rates and bank tables and rebuilds them from the store when data lands.
// Readers take `market.current` once per request; a rebuild swaps in a complete new pair.
import type { Quality } from '../blend/quality.js';
import { QualityCache } from '../blend/quality-cache.js';
import { turn } from '../time/turns.js';
import { bankTableOn } from './bank-day.js';
import type { Source } from '../sources/types.js';
import type { Store } from '../store/store.js';
import { BankTable } from './bank-table.js';
import { buildRates, type Built } from './build.js';
import { RatesThread, type WorkerData } from './rates-thread.js';
import { RatesTable } from './table.js';

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
  /** Where builds after the first run, once `buildOffThread` is called (the server does). */
  private thread: RatesThread | undefined;
  private built = false;

  constructor(
    private readonly store: Store,
    private readonly sources: readonly Source[],
    readonly graceDays: number,
  ) {}

  /** Builds after the first in a worker thread that opens `database` itself (rates-thread.ts):
   *  the quality and the blend are pure CPU that no turn of the loop splits (issue 34, D31). A store
   *  in memory, which no other connection sees, keeps building in this thread. */
  buildOffThread(database: WorkerData): void {
    if (database.databaseUrl === 'sqlite::memory:') return;
    this.thread = new RatesThread(database);
  }

  /** Ends the worker, if one runs; a build after this runs in this thread. */
  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    await thread?.close();
  }

  /** Builds the tables as of `now` from the store. Given the store's `version` read before the build,
   *  a build from older data, or from the same data for an earlier moment, never replaces a newer one. */
  async rebuild(now: Date, version?: number): Promise<MarketSnapshot> {
    // The first build (at boot, before listening) here: nothing waits on the loop yet, and the
    // worker's start would only add to it.
    const built: Built = this.thread && this.built ? await this.thread.build(this.sources, now, this.graceDays) : await buildRates(this.store, this.sources, now, this.graceDays, this.quality);
    this.built = true;
    const today = now.toISOString().slice(0, 10);
    const rates = new RatesTable(built.rates);
    await turn();
    const banks = new Map<string, BankTable>();
    for (const source of this.sources) {
      // A period source's figures are not among the blend's rows (D21): the ones in force today.
      if (source.periodRates) {
        banks.set(source.code, await bankTableOn(this.store, source, today));
        continue;
      }
      banks.set(source.code, new BankTable(source, built.banks.get(source.code)!));
    }
    if (version !== undefined && (version < this.version || (version === this.version && now < this.current.builtAt))) return this.current;
    if (version !== undefined) this.version = version;
    this.current = { rates, banks, builtAt: now, quality: built.quality };
    return this.current;
  }
}
