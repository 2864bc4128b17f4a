// Shared test wiring: a real SQLite file in a temp folder, the bundled seed loaded through the
// ordinary ingest path, a fixed clock, and the app built exactly as the server builds it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { createKey, type CreateKeyOptions } from '../src/access/accounts.js';
import { BatchMeter, type Meter } from '../src/access/meter.js';
import { ENDPOINT_IDS, type EndpointId, type Limits } from '../src/config.js';
import { buildApp } from '../src/http/app.js';
import { History } from '../src/history/history.js';
import { type HistoryReadiness, loadSeedHistory } from '../src/ingest/seed-history.js';
import { readSeedHistory } from '../src/ingest/seed-history-file.js';
import type { KeyCacheOptions } from '../src/access/key-cache.js';
import type { CorsOrigins } from '../src/http/cors.js';
import { loadSeed, type Seed } from '../src/ingest/seed.js';
import { Market } from '../src/rates/market.js';
import { SEED_FILE } from '../src/server.js';
import { enabledSources } from '../src/sources/enabled.js';
import { SOURCES } from '../src/sources/index.js';
import { openSqlite } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { ResponseChecker } from './support/openapi-check.js';

/** The day after the newest ECB figure in the seed: ECB-backed currencies are fresh, the rest are not. */
export const SEED_TODAY = new Date('2026-04-14T12:00:00Z');

export const seed = (): Seed => JSON.parse(readFileSync(SEED_FILE, 'utf8')) as Seed;

export function tempDb(): { path: string; url: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'kurs-test-'));
  const path = join(dir, 'kurs.db');
  return { path, url: `sqlite:${path}`, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TestApp {
  app: FastifyInstance;
  /** The SQLite file, for a worker or a `kurs` command that opens the same database. */
  dbPath: string;
  store: Store;
  market: Market;
  /** The materialised history, when asked for with `history: true`. */
  history: History | undefined;
  logs: string[];
  /** Responses that did not match /openapi.json; close() fails the suite when there are any. */
  openApiProblems: string[];
  key(opts?: CreateKeyOptions): Promise<{ key: string; keyId: string; accountId: string }>;
  close(): Promise<void>;
}

export async function testApp(
  opts: { now?: Date; realClock?: boolean; seeded?: boolean; history?: boolean; seedHistory?: boolean; enable?: string[]; pointsCost?: Partial<Record<EndpointId, number>>; adminToken?: string; limits?: Limits; meter?: (store: Store) => Meter; keyCache?: KeyCacheOptions; corsOrigins?: CorsOrigins; historyLoaded?: HistoryReadiness; fastLane?: boolean; logSample?: number; onRoute?: (route: RouteOptions) => void } = {},
): Promise<TestApp> {
  const db = tempDb();
  const store = openSqlite(db.path);
  await store.migrate();
  // `realClock`: the machine's clock, as a newcomer's server has it (the seed months old, issue 34).
  const now = () => (opts.realClock ? new Date() : opts.now ?? SEED_TODAY);
  // The sources of a default start (D22), or with KURS_ENABLE_SOURCES's `enable`, as the server has them.
  const sources = enabledSources(SOURCES, opts.enable ?? []);
  const off = SOURCES.filter((s) => !sources.includes(s));
  if (opts.seeded !== false) await loadSeed(store, sources, seed(), now());
  const market = new Market(store, sources, 0);
  await market.rebuild(now());
  // Materialised history (issue 14); without it, ranges answer 503 and single days are computed.
  let history: History | undefined;
  // The bundled seed's older figures too, as a fresh start has them once its background load is done.
  if (opts.seedHistory) await loadSeedHistory(store, sources, await readSeedHistory(), now, { batchRows: 50_000, pause: async () => {} });
  if (opts.history || opts.seedHistory) {
    history = new History(store, sources, 0);
    await history.load();
    await history.materialise(now().toISOString().slice(0, 10));
  }
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const pointsCost = { ...Object.fromEntries(ENDPOINT_IDS.map((id) => [id, 1])), ...opts.pointsCost } as Record<EndpointId, number>;
  const meter = opts.meter ? opts.meter(store) : new BatchMeter(store);
  const app = buildApp({ store, meter, market, sources, off, pointsCost, now, logLevel: 'info', logStream, adminToken: opts.adminToken, ...(opts.limits ? { limits: opts.limits } : {}), ...(opts.keyCache ? { keyCache: opts.keyCache } : {}), ...(opts.corsOrigins ? { corsOrigins: opts.corsOrigins } : {}), ...(history ? { history } : {}), ...(opts.historyLoaded ? { historyLoaded: opts.historyLoaded } : {}), ...(opts.fastLane === undefined ? {} : { fastLane: opts.fastLane }), ...(opts.logSample ? { logSample: opts.logSample } : {}) });
  const openApiProblems = recordAgainstOpenApi(app);
  // Before ready(): the routes registered in plugins (all of /v1) reach a hook added now.
  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
  await app.ready();
  return {
    app,
    dbPath: db.path,
    store,
    market,
    history,
    logs,
    async key(keyOpts = { plan: 'business', points: 1000 }) {
      const created = await createKey(store, keyOpts, now());
      return { key: created.key, keyId: created.key_id, accountId: created.account_id };
    },
    openApiProblems,
    async close() {
      await app.close();
      await store.close();
      db.cleanup();
      if (openApiProblems.length > 0) throw new Error(`responses that do not match /openapi.json:\n${openApiProblems.join('\n')}`);
    },
  };
}

/** One checker per document: apps with the admin API on serve a larger one than apps without. */
const checkers = new Map<string, ResponseChecker>();

/** Checks every response the app sends (bar the /docs assets) against its own OpenAPI document. */
function recordAgainstOpenApi(app: FastifyInstance): string[] {
  const problems: string[] = [];
  let checker: ResponseChecker | undefined;
  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    if (route?.startsWith('/docs')) return;
    // A streamed range (D15) cannot be checked as one body; its short forms are strings and are.
    if (payload instanceof Readable) return;
    // Bytes are pre-serialized too (kept range bodies, the bulk conversion's answer).
    if (Buffer.isBuffer(payload)) payload = payload.toString('utf8');
    if (payload !== undefined && payload !== null && typeof payload !== 'string') {
      problems.push(`${request.method} ${route}: a ${typeof payload} payload, not a pre-serialized string`);
      return;
    }
    if (!checker) {
      const doc = JSON.stringify(app.swagger());
      checker = checkers.get(doc) ?? new ResponseChecker(JSON.parse(doc) as never);
      checkers.set(doc, checker);
    }
    const problem = checker.check({ method: request.method, route, status: reply.statusCode, contentType: reply.getHeader('content-type') as string | undefined, body: payload ?? '' });
    if (problem) problems.push(problem);
  });
  return problems;
}
