// `/metrics` in Prometheus text format. Per request: plain counts (request-stats.ts), recorded once
// an answer is sent by charged.ts's settle step on either path, plus an error counter for error envelopes; everything about sources and the blend is read when
// Prometheus scrapes, not on the request path.
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { sourceStatuses } from '../ingest/health.js';
import type { Market } from '../rates/market.js';
import type { Source } from '../sources/types.js';
import type { Store } from '../store/store.js';
import { VERSION } from '../version.js';
import { RequestStats } from './request-stats.js';

export interface MetricsDeps {
  store: Store;
  market: Market;
  sources: readonly Source[];
  now: () => Date;
}

/** Latency buckets in seconds: a cached body is sub-millisecond, a charge on PostgreSQL a few ms. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const ERROR_CODE = /"error":"([a-z_]+)"/;

/** Store stamps are ISO 8601; response stamps are `YYYY-MM-DD HH:MM:SS` UTC (D7). */
const seconds = (stamp: string | null) => (stamp === null ? undefined : Date.parse(stamp.includes('T') ? stamp : `${stamp.replace(' ', 'T')}Z`) / 1000);

/** Returns the per-request counts, which settle (charged.ts) records into. */
export function installMetrics(app: FastifyInstance, deps: MetricsDeps): RequestStats {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const opts = { registers: [registry] };
  new Gauge({ name: 'kurs_info', help: 'Kurs version (always 1)', labelNames: ['version'], ...opts }).set({ version: VERSION }, 1);
  const stats = new RequestStats(LATENCY_BUCKETS);
  stats.register(registry);
  const errors = new Counter({ name: 'kurs_http_errors_total', help: 'Error responses by status and D1 error code (402, 403, 429 among them)', labelNames: ['status', 'error'], ...opts });

  const snapshotGauge = (name: string, help: string, read: () => number) =>
    new Gauge({ name, help, ...opts, collect() { this.set(read()); } });
  snapshotGauge('kurs_blend_age_seconds', 'Seconds since the in-memory rates table was last rebuilt', () => (deps.now().getTime() - deps.market.current.builtAt.getTime()) / 1000);
  snapshotGauge('kurs_rates_newest_publication_age_seconds', 'Seconds since the newest publication the blended rates rest on', () => {
    const newest = seconds(deps.market.current.rates.newestUpdate ?? null);
    return newest === undefined ? -1 : deps.now().getTime() / 1000 - newest;
  });
  snapshotGauge('kurs_currencies_quoted', 'Currencies with a blended rate', () => deps.market.current.rates.size);
  snapshotGauge('kurs_currencies_fresh', 'Currencies with a fresh blended rate (D10)', () => {
    const { rates } = deps.market.current;
    const today = deps.now().toISOString().slice(0, 10);
    return rates.codes.filter((c) => rates.isFresh(c, today)).length;
  });

  const lastSuccess = new Gauge({ name: 'kurs_source_last_success_timestamp_seconds', help: 'Unix time of the last successful fetch or import per source (absent: never)', labelNames: ['source'], ...opts });
  const failures = new Gauge({ name: 'kurs_source_consecutive_failures', help: 'Failed attempts since the last success per source', labelNames: ['source'], ...opts });
  const missed = new Gauge({ name: 'kurs_source_missed_publications', help: 'Publications missed by the source\'s own schedule', labelNames: ['source'], ...opts });
  const rejections = new Gauge({ name: 'kurs_source_rejections', help: 'Payloads refused by the ingest rules, ever, per source', labelNames: ['source'], ...opts });
  const sourceCount = new Gauge({ name: 'kurs_sources', help: 'Sources with an adapter', ...opts });
  // One health read per scrape fills the source gauges, before the registry serializes them.
  const readSources = async () => {
    const health = await deps.store.sourceHealth();
    const failuresBySource = new Map(health.map((h) => [h.source, h.failures]));
    for (const g of [lastSuccess, failures, missed, rejections]) g.reset();
    for (const s of sourceStatuses(deps.sources, health, deps.now())) {
      const at = seconds(s.last_success);
      if (at !== undefined) lastSuccess.set({ source: s.source }, at);
      failures.set({ source: s.source }, failuresBySource.get(s.source) ?? 0);
      if (s.missed_publications !== null) missed.set({ source: s.source }, s.missed_publications);
      rejections.set({ source: s.source }, s.rejections);
    }
    sourceCount.set(deps.sources.length);
  };

  // Callback-style hooks: they run on every response, and an async hook costs a promise each time.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.statusCode >= 400 && typeof payload === 'string') errors.inc({ status: reply.statusCode, error: ERROR_CODE.exec(payload)?.[1] ?? 'unknown' });
    done(null, payload);
  });

  app.register(async (scope) => {
    scope.get('/metrics', async (_request, reply) => {
      await readSources();
      return reply.type(registry.contentType).header('cache-control', 'no-store').send(await registry.metrics());
    });
  });
  return stats;
}
