// Opening what the server and the commands share: the sources this instance uses (D22), the store
// (migrated) and the market built on them.
import type { Config } from './config.js';
import { Market } from './rates/market.js';
import { enabledSources } from './sources/enabled.js';
import { SOURCES } from './sources/index.js';
import type { Source } from './sources/types.js';
import { openStore } from './store/open.js';
import type { Store } from './store/store.js';

export interface Runtime {
  config: Config;
  /** The registry's sources this instance uses: KURS_ENABLE_SOURCES checked (an unknown code stops here). */
  sources: readonly Source[];
  /** The registry's sources that are off here (D22). */
  off: readonly Source[];
  store: Store;
  market: Market;
}

export async function openRuntime(config: Config): Promise<Runtime> {
  const sources = enabledSources(SOURCES, config.enableSources);
  const store = await openStore(config.databaseUrl, config.db, config.sqliteSync);
  await store.migrate();
  const off = SOURCES.filter((s) => !sources.includes(s));
  return { config, sources, off, store, market: new Market(store, sources, config.freshnessGraceDays) };
}
