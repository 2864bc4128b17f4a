// `kurs serve`: migrate, seed and bootstrap an empty database, build the rates, listen, and pick up
// data that other processes (`kurs ingest`, other instances) store while we run. On PostgreSQL only
// the instance holding the ingester lock runs the scheduler (docs/scaling.md).
import { readFile } from 'node:fs/promises';
import { createKey } from './access/accounts.js';
import { msToNextMonth, refillAccounts } from './access/refill.js';
import { pruneOld } from './access/retention.js';
import { createMeter } from './access/meter.js';
import { type Config, sqlitePathOf } from './config.js';
import { buildApp } from './http/app.js';
import { prettyLogStream } from './http/log-format.js';
import { followHistory } from './history/follow.js';
import { History } from './history/history.js';
import { Stopped } from './history/materialise.js';
import { utcDay } from './time/days.js';
import { loadFetch, Scheduler } from './ingest/scheduler.js';
import { loadSeed, type Seed } from './ingest/seed.js';
import { SEED_FILE } from './ingest/seed-history-file.js';
import { HistoryReadiness, startSeedHistory } from './ingest/seed-history.js';
import { type Adopted, firstStartFor } from './ingest/first-start-adopt.js';
import { ConditionalCache } from './sources/fetch.js';
import { operatorHttpClient } from './sources/http.js';
import { RebuildQueue } from './rates/rebuild-queue.js';
import { openRuntime } from './runtime.js';
import { PgCoordination, PollingCoordination, type Coordination } from './store/coordination.js';

export { SEED_FILE };
/** SQLite: how often a server looks for snapshots stored by another process. */
const DATA_POLL_MS = 2_000;
/** PostgreSQL: how often a follower tries for the ingester lock (takeover well within a minute). */
const LEADER_TICK_MS = 5_000;
/** The month-boundary timer re-arms at least this often (setTimeout cannot wait a whole month). */
const REFILL_RECHECK_MS = 6 * 3_600_000;
export const BOOTSTRAP_POINTS = 1_000;

/** `firstStartCopy`: the first start's copy, when the caller started it already (`kurs serve` does,
 *  before it loads this module: D35). */
export async function serve(config: Config, out: (line: string) => void, firstStartCopy: Promise<Adopted | { skipped: string }> | undefined = firstStartFor(config)): Promise<() => Promise<void>> {
  // A first start on a new SQLite file begins from the install-time build, when it fits (issue 26).
  const sqlitePath = sqlitePathOf(config.databaseUrl);
  const firstStart = await firstStartCopy;
  // The sources this instance uses (D22): off ones are neither loaded from the seed nor fetched, listed or blended.
  const { store, market, sources, off } = await openRuntime(config);
  // Rebuilds after the first blend in a worker thread: they would hold the loop 0.1–0.8 s (D31).
  market.buildOffThread({ databaseUrl: config.databaseUrl, pg: config.db });
  const now = () => new Date();

  // Instances started together on an empty database take turns here: the first loads the seed, the
  // others then find it done (an advisory lock on PostgreSQL). The first-start account waits for the
  // port (below).
  await store.exclusive('kurs-seed', async () => {
    if (config.seed && !(await store.hasSnapshots())) {
      const seed = JSON.parse(await readFile(SEED_FILE, 'utf8')) as Seed;
      const failed = (await loadSeed(store, sources, seed, now())).filter((o) => o.status === 'failed');
      for (const f of failed) out(`seed: ${f.source} not loaded: ${'reason' in f ? f.reason : ''}`);
    }
  });
  // The older figures load after listening (src/ingest/seed-history.ts); dated routes consult this.
  const historyLoaded = new HistoryReadiness();
  const meter = createMeter(config.meter, store);
  // History (issue 14): served from what is stored; loaded and caught up in the background.
  const history = new History(store, sources, config.freshnessGraceDays);
  const app = buildApp({ store, meter, market, sources, off, pointsCost: config.pointsCost, now, logLevel: config.logLevel, logSample: config.logSample, ...(config.logFormat === 'pretty' ? { logStream: prettyLogStream() } : {}), adminToken: config.adminToken, limits: config.limits, keyCache: { ttlMs: config.keyCacheMs }, corsOrigins: config.corsOrigins, fastLane: config.fastLane, ingest: config.ingest, historyLoaded, history });
  // Every rebuild (new data, the day boundary, retries) goes through this one queue; steps that
  // must follow new data (history, say) join `rebuilds.onData`.
  const rebuilds = new RebuildQueue({ market, dataVersion: () => store.dataVersion(), now, log: app.log });
  await rebuilds.boot();
  if (firstStart && 'adopted' in firstStart) app.log.info({ builtAt: firstStart.adopted.builtAt, lastDay: firstStart.adopted.lastDay }, 'first start from the install-time history build');
  else if (firstStart && firstStart.skipped !== 'the database exists') app.log.info({ reason: firstStart.skipped }, 'first start loads the history itself');
  const historyFollower = followHistory(history, () => utcDay(now()), app.log);
  // Local ingests and the seed history's end reach history through the queue, after the rates.
  // Until history has settled after the seed's history (below), the follower waits: materialising
  // before every row is in would write days from part of the figures.
  rebuilds.onData.push(() => {
    if (historyLoaded.settled) historyFollower.onData();
  });
  let leader = false;
  void history.load().catch((err) => app.log.error({ err }, 'could not load history'));

  // D12: the monthly refill at boot and at each month boundary; idempotent, so every instance may run it.
  const refill = () =>
    refillAccounts(store, now()).then(
      (r) => app.log.info(r, 'monthly refill'),
      (err) => app.log.error({ err }, 'monthly refill failed'),
    );
  await refill();
  // Retention (issue 17): at boot and at every UTC midnight; idempotent, so every instance may run it.
  const prune = () =>
    pruneOld(store, now(), config.usageRetentionDays).then(
      (r) => app.log.info(r, 'pruned old usage and request windows'),
      (err) => app.log.error({ err }, 'pruning failed'),
    );
  await prune();

  // Node's fetch loads at its first call otherwise: in the first minute, with polling on (D31).
  if (config.ingest) loadFetch(sources);
  // The first start's copy is on disk before anyone is served from it (D35); synced while we started.
  if (firstStart && 'adopted' in firstStart) await firstStart.durable;
  const address = await app.listen({ host: config.host, port: config.port }).catch(async (err: NodeJS.ErrnoException) => {
    rebuilds.stop();
    await historyFollower.stop();
    await app.close();
    await store.close();
    throw err.code === 'EADDRINUSE' ? new Error(`cannot listen on ${config.host}:${config.port}: another process uses that port (a Kurs started before?); stop it, or set KURS_PORT (0 picks a free one)`) : err;
  });
  const url = new URL(address);
  // The first-start account only once the port is ours: a start that cannot listen must not leave an
  // account whose key nobody saw (issue 34). Instances take turns, as for the seed.
  const bootstrapKey = config.bootstrapKey ? await store.exclusive('kurs-seed', async () => ((await store.hasAccounts()) ? undefined : (await createKey(store, { plan: 'professional', points: BOOTSTRAP_POINTS, actor: 'server' }, now())).key)) : undefined;
  if (bootstrapKey) {
    const host = ['0.0.0.0', '::'].includes(config.host) ? '127.0.0.1' : url.hostname;
    out(`First start: created a professional account with ${BOOTSTRAP_POINTS} points. Its API key, shown only this once:`);
    out(`  ${bootstrapKey}`);
    out(`Try it:  curl -H 'Authorization: ${bootstrapKey}' http://${host}:${url.port}/v1/EUR/latest`);
    out(`Or see:  http://${host}:${url.port}/explore#key=${bootstrapKey}`);
  }
  out(`listening on ${url.origin}`);
  // Said once at boot, so that whoever reads the log knows why not every request is in it.
  if (config.logSample > 1) {
    app.log.info(`request lines: every error and slow request, 1 in ${config.logSample} of the others (KURS_LOG_SAMPLE=1 logs every request)`);
  }

  // A new UTC day is a day for history too, data or not (ranges past the materialised days wait for it).
  rebuilds.onDay.push(() => void prune(), () => historyFollower.onData());

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
    // While the seed history loads its batches would set off a rebuild every poll: the loader
    // signals once at the end, and at once for data another process stores meanwhile.
    onData: () => {
      if (!historyLoaded.loaded) return;
      void rebuilds.refresh();
      // On SQLite this is a poll every 2 s, and new data reaches history through the rebuild's
      // onData step; kicking history on every poll cost a catch-up (~80 ms here) every 2 s, idle or
      // not. A PostgreSQL notice may also mean another instance materialised: no new data version.
      if (store.dialect === 'postgres' && historyLoaded.settled) historyFollower.onData();
    },
    onLeader: (isLeader) => {
      leader = isLeader;
      if (historyLoaded.settled) historyFollower.setLeader(leader);
      if (!config.ingest) return;
      if (leader && !scheduler) {
        scheduler = new Scheduler({ store, sources, http: operatorHttpClient(config), cache: new ConditionalCache(), config, now, onData: () => rebuilds.refresh(), log: app.log });
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

  // The install-time build holds the seed's history: nothing to load (its batches are all stored).
  const built = firstStart !== undefined && 'adopted' in firstStart;
  if (built) app.log.info({ from: 'the install-time build' }, 'seed history already loaded');
  const seedHistory = config.seed && !built ? startSeedHistory({ store, sources, readiness: historyLoaded, now, onData: () => rebuilds.refresh(), log: app.log, ...(sqlitePath && sqlitePath !== ':memory:' ? { worker: { path: sqlitePath, sync: config.sqliteSync, graceDays: config.freshnessGraceDays, enable: config.enableSources, today: () => utcDay(now()) } } : {}) }) : undefined;
  if (!seedHistory) historyLoaded.markLoaded();
  // Once the rows are in: one catch-up (the ingester materialises, another instance reads what it
  // wrote), then every day is known and the gate opens; then the follower takes over.
  let closing = false;
  let settling: Promise<void> | undefined;
  void historyLoaded.ready.then(() => {
    if (closing) return;
    const started = performance.now();
    settling = (leader ? history.materialise(utcDay(now())) : history.sync())
      .then(
        (done) => {
          if (done && done.days > 0) app.log.info({ days: done.days, ranges: done.ranges, ms: Math.round(performance.now() - started) }, 'history materialised');
        },
        (err: Error) => (err instanceof Stopped ? undefined : app.log.error({ err }, 'history could not catch up')),
      )
      .finally(() => {
        historyLoaded.markSettled();
        app.log.info('history ready');
        historyFollower.setLeader(leader);
      });
  });

  return async () => {
    // First, so that feed fetches still retrying (a start with no network) stop at once (issue 34).
    const running = scheduler;
    scheduler = undefined;
    const schedulerStopped = running?.stop();
    rebuilds.stop();
    await market.close();
    closing = true;
    await seedHistory?.stop();
    clearTimeout(monthly);
    await historyFollower.stop();
    await settling;
    await app.close();
    await schedulerStopped;
    // Ends the coordination session, which releases the ingester lock for another instance.
    await coordination.stop();
    await store.close();
  };
}
