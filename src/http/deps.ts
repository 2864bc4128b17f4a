// What the app factory is given (STYLE "Wiring"): built once by the caller, passed to every route.
// Its own module, so that the route files and app.ts do not import each other.
import type { Meter } from '../access/meter.js';
import type { Limits } from '../config.js';
import type { Prices } from './charged.js';
import type { History } from '../history/history.js';
import type { Market } from '../rates/market.js';
import type { Source } from '../sources/types.js';
import type { Store } from '../store/store.js';
import type { KeyCacheOptions } from '../access/key-cache.js';
import type { HistoryReadiness } from '../ingest/seed-history.js';
import type { CorsOrigins } from './cors.js';

export interface AppDeps {
  store: Store;
  /** Points meter (src/access/meter.ts): what every charged response goes through. */
  meter: Meter;
  market: Market;
  /** The sources this server uses (D22): listed, served, blended. */
  sources: readonly Source[];
  /** Registered sources that are off here (terms that forbid commercial use, not named in
   *  KURS_ENABLE_SOURCES): `/v1/bank/{code}` says so, and how to turn one on. None when omitted. */
  off?: readonly Source[];
  pointsCost: Prices;
  now: () => Date;
  /** pino level for request logs; tests pass 'silent'. */
  logLevel: string;
  /** Where logs go (default stdout, in batches: request-log.ts); tests capture them to check redaction. */
  logStream?: NodeJS.WritableStream;
  /** KURS_LOG_SAMPLE: successful requests get a request line 1 in this many (request-log.ts); 1,
   *  every request, when omitted (the server passes the configured value). */
  logSample?: number;
  /** KURS_ADMIN_TOKEN; the admin API (/admin/v1) exists only when it is set. */
  adminToken?: string;
  /** Timeouts and the concurrency cap; DEFAULT_LIMITS when omitted. */
  limits?: Limits;
  /** How long a verified key is trusted without asking the database (KURS_KEY_CACHE_MS); 0 (the
   *  default here, so tests see every change at once) asks on every request. */
  keyCache?: KeyCacheOptions;
  /** KURS_CORS_ORIGINS: origins whose browser scripts may call /v1 and the public pages; `*` when omitted. */
  corsOrigins?: CorsOrigins;
  /** Whether the seed's history has finished loading (src/ingest/seed-history.ts); absent: it has. */
  historyLoaded?: HistoryReadiness;
  /** The fast lane for plainly valid charged GETs of /latest and /rate (fast-lane.ts); on unless
   *  false (KURS_FAST_LANE=off). Its answers are Fastify's, byte for byte. */
  fastLane?: boolean;
  /** KURS_INGEST: whether this instance fetches sources; /status says why nothing is fresh when it
   *  does not. On unless false. */
  ingest?: boolean;
  /** Materialised history (src/history/); without it, past days are computed on the spot. */
  history?: History;
}

/** What the routes get: the deps with the history always present (app.ts builds one if absent). */
export type RouteDeps = AppDeps & { history: History };
