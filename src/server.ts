// `kurs serve`: migrate, seed and bootstrap an empty database, build the rates, listen, and pick up
// data that other processes (`kurs ingest`, other instances) store while we run. On PostgreSQL only
// the instance holding the ingester lock runs the scheduler (docs/scaling.md).
import { readFile } from 'node:fs/promises';
import { createKey } from './access/accounts.js';
import { msToNextMonth, refillAccounts } from './access/refill.js';
import { createMeter } from './access/meter.js';
import type { Config } from './config.js';
import { buildApp } from './http/app.js';
import { followHistory } from './history/follow.js';
import { History } from './history/history.js';
import { utcDay } from './blend/freshness.js';
import { Scheduler } from './ingest/scheduler.js';
import { loadSeed, type Seed } from './ingest/seed.js';
import { ConditionalCache } from './sources/fetch.js';
import { createHttpClient } from './sources/http.js';
import { openRuntime } from './runtime.js';
import { SOURCES } from './sources/index.js';
import { PgCoordination, PollingCoordination, type Coordination } from './store/coordination.js';

export const SEED_FILE = new URL('../seed/seed.json', import.meta.url);
/** SQLite: how often a server looks for snapshots stored by another process. */
const DATA_POLL_MS = 2_000;
/** PostgreSQL: how often a follower tries for the ingester lock (takeover well within a minute). */
const LEADER_TICK_MS = 5_000;
const DAY_MS = 86_400_000;
/** The month-boundary timer re-arms at least this often (setTimeout cannot wait a whole month). */
const REFILL_RECHECK_MS = 6 * 3_600_000;
export const BOOTSTRAP_POINTS = 1_000;

export async function serve(config: Config, out: (line: string) => void): Promise<() => Promise<void>> {
  const { store, market } = await openRuntime(config);
  const now = () => new Date();

  if (config.seed && !(await store.hasSnapshots())) {
    const seed = JSON.parse(await readFile(SEED_FILE, 'utf8')) as Seed;
    const failed = (await loadSeed(store, SOURCES, seed, now())).filter((o) => o.status === 'failed');
    for (const f of failed) out(`seed: ${f.source} not loaded: ${'reason' in f ? f.reason : ''}`);
  }
  const meter = createMeter(config.meter, store);
  // History (issue 14): served from what is stored; loaded and caught up in the background.
  const history = new History(store, SOURCES, config.freshnessGraceDays);
  const app = buildApp({ store, meter, market, sources: SOURCES, pointsCost: config.pointsCost, now, logLevel: config.logLevel, adminToken: config.adminToken, limits: config.limits, keyCache: { ttlMs: config.keyCacheMs }, history });
  const historyFollower = followHistory(history, () => utcDay(now()), app.log);
  void history.load().catch((err) => app.log.error({ err }, 'could not load history'));
  let version = await store.dataVersion();
  await market.rebuild(now());

  let bootstrapKey: string | undefined;
  if (config.bootstrapKey && !(await store.hasAccounts())) {
    bootstrapKey = (await createKey(store, { plan: 'professional', points: BOOTSTRAP_POINTS }, now())).key;
  }

  // D12: the monthly refill at boot and at each month boundary; idempotent, so every instance may run it.
  const refill = () =>
    refillAccounts(store, now()).then(
      (r) => app.log.info(r, 'monthly refill'),
      (err) => app.log.error({ err }, 'monthly refill failed'),
    );
  await refill();

  const address = await app.listen({ host: config.host, port: config.port });
  const url = new URL(address);
  if (bootstrapKey) {
    const host = ['0.0.0.0', '::'].includes(config.host) ? '127.0.0.1' : url.hostname;
    out(`First start: created a professional account with ${BOOTSTRAP_POINTS} points. Its API key, shown only this once:`);
    out(`  ${bootstrapKey}`);
    out(`Try it:  curl -H 'Authorization: ${bootstrapKey}' http://${host}:${url.port}/v1/EUR/latest`);
  }
  out(`listening on ${url.origin}`);

  // Notifications come in bursts (one per stored payload): at most one rebuild runs, and one more
  // follows if data landed meanwhile.
  let rebuilding: Promise<void> | undefined;
  let again = false;
  const rebuildIfNew = async () => {
    const v = await store.dataVersion();
    if (v === version) return;
    version = v;
    await market.rebuild(now());
    app.log.info({ dataVersion: v }, 'rates rebuilt');
  };
  const refresh = (): Promise<void> => {
    if (rebuilding) {
      again = true;
      return rebuilding;
    }
    rebuilding = rebuildIfNew().finally(() => {
      rebuilding = undefined;
      if (again) {
        again = false;
        void refresh().catch((err) => app.log.error({ err }, 'could not check for new data'));
      }
    });
    return rebuilding;
  };
  // At each UTC day boundary the blend is rebuilt for the new reference day, even without new data.
  let midnight: NodeJS.Timeout;
  const atMidnight = () => {
    const now = Date.now();
    midnight = setTimeout(() => {
      market.rebuild(new Date()).catch((err) => app.log.error({ err }, 'day-boundary rebuild failed'));
      atMidnight();
    }, DAY_MS - (now % DAY_MS) + 1_000);
    midnight.unref();
  };
  atMidnight();

  let monthly: NodeJS.Timeout;
  const atMonthStart = () => {
    monthly = setTimeout(() => void refill().then(atMonthStart), Math.min(msToNextMonth(now()) + 1_000, REFILL_RECHECK_MS));
    monthly.unref();
  };
  atMonthStart();

  let scheduler: Scheduler | undefined;
  const coordination: Coordination =
    store.dialect === 'postgres' ? new PgCoordination(config.databaseUrl, LEADER_TICK_MS, config.db.connectTimeoutMs, config.ingest) : new PollingCoordination(DATA_POLL_MS);
  coordination.start({
    onData: () => {
      void refresh().catch((err) => app.log.error({ err }, 'could not check for new data'));
      historyFollower.onData();
    },
    onLeader: (leader) => {
      historyFollower.setLeader(leader);
      if (!config.ingest) return;
      if (leader && !scheduler) {
        scheduler = new Scheduler({ store, sources: SOURCES, http: createHttpClient(), cache: new ConditionalCache(), config, now, onData: refresh, log: app.log });
        scheduler.start();
        app.log.info('this instance is the ingester');
      } else if (!leader && scheduler) {
        void scheduler.stop();
        scheduler = undefined;
        app.log.warn('lost the ingester lock: scheduler stopped');
      }
    },
    onError: (err) => app.log.warn({ err: err.message }, 'coordination connection lost; retrying'),
  });

  return async () => {
    clearTimeout(midnight);
    clearTimeout(monthly);
    await historyFollower.stop();
    await app.close();
    const running = scheduler;
    scheduler = undefined;
    await running?.stop();
    // Ends the coordination session, which releases the ingester lock for another instance.
    await coordination.stop();
    await store.close();
  };
}
