// Opening what the server and the commands share: the store (migrated) and the market built on it.
import type { Config } from './config.js';
import { Market } from './rates/market.js';
import { SOURCES } from './sources/index.js';
import { openStore } from './store/open.js';
import type { Store } from './store/store.js';

export interface Runtime {
  config: Config;
  store: Store;
  market: Market;
}

export async function openRuntime(config: Config): Promise<Runtime> {
  const store = await openStore(config.databaseUrl, config.db, config.sqliteSync);
  await store.migrate();
  return { config, store, market: new Market(store, SOURCES, config.freshnessGraceDays) };
}
