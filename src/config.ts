// The only reader of process.env. Configuration is read once at boot; every problem is collected
// so that a bad deployment stops with the full list instead of one error per restart.
import { fileURLToPath } from 'node:url';

/** Where `npm install` builds the first start's database (git-ignored; `npm ci` clears it). A build
 *  for a freshness grace (the offline demo's `KURS_FRESHNESS_GRACE_DAYS=365 npm run build:first-start`)
 *  gets a file of its own, so it never replaces the default one that `npm start` and the tests use. */
export const firstStartDb = (graceDays: number): string =>
  fileURLToPath(new URL(`../node_modules/.cache/kurs/first-start${graceDays === 0 ? '' : `-grace-${graceDays}`}.db`, import.meta.url));

/** The file a `sqlite:` database URL names, or undefined for another database. */
export const sqlitePathOf = (url: string): string | undefined => (url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : undefined);

export interface Config {
  databaseUrl: string;
  host: string;
  port: number;
  ingest: boolean;
  seed: boolean;
  /** KURS_FIRST_START_DB: the install-time build a first start on a new SQLite file copies
   *  (src/ingest/first-start.ts); undefined (`off`): always load the seed's history instead. */
  firstStartDb: string | undefined;
  bootstrapKey: boolean;
  logLevel: string;
  /** `pretty`: short readable lines (stdout is a terminal); `json`: one JSON record a line (KURS_LOG_FORMAT). */
  logFormat: 'json' | 'pretty';
  /** KURS_LOG_SAMPLE: successful requests get a request line 1 in this many (errors and slow ones
   *  always do; src/http/request-log.ts). Default 10 for JSON logs, 1 (every request) at a terminal. */
  logSample: number;
  adminToken: string | undefined;
  freshnessGraceDays: number;
  /** Points per 2xx response, by endpoint id (D11). */
  pointsCost: Record<EndpointId, number>;
  /** KURS_ENABLE_SOURCES: sources whose terms forbid commercial use (D22), turned on by code by an
   *  operator who may use them; checked against the registry at boot (src/sources/enabled.ts). */
  enableSources: string[];
  /** KURS_SOURCE_<CODE>_URL / _KEY overrides. */
  sourceUrls: Record<string, string>;
  sourceKeys: Record<string, string>;
  /** KURS_FEED_MAX_BYTES: the largest feed answer accepted, over every source's own limit. */
  feedMaxBytes?: number;
  /** KURS_USER_AGENT: the User-Agent feeds are fetched with, in place of Kurs's own (a source that
   *  declares its own still sends that: src/sources/http.ts). */
  userAgent?: string;
  limits: Limits;
  /** Points meter: `batch` (group commit, default) or `direct` (one UPDATE per request). */
  meter: 'batch' | 'direct';
  /** How long a verified API key is trusted without asking the database (KURS_KEY_CACHE_MS; 0: never). */
  keyCacheMs: number;
  /** SQLite `synchronous`: `normal` (default; durable across process crashes) or `full` (every
   *  committed charge also survives a power loss, at a cost in req/s: docs/configuration.md). KURS_SQLITE_SYNC. */
  sqliteSync: SqliteSync;
  /** Days of usage counts kept (KURS_USAGE_RETENTION_DAYS, default 400); older days are pruned. */
  usageRetentionDays: number;
  /** PostgreSQL only: connections per instance, and how long to wait for a connection or a query. */
  db: { poolSize: number; connectTimeoutMs: number; queryTimeoutMs: number };
  /** KURS_CORS_ORIGINS: `*` (default) or the origins whose browser scripts may call Kurs. */
  corsOrigins: '*' | string[];
  /** KURS_FAST_LANE (default on): plainly valid charged GETs of /latest and /rate skip Fastify's
   *  lifecycle, with the same answers (src/http/fast-lane.ts); `off` sends every request through it. */
  fastLane: boolean;
}

/** Resource limits against slow or greedy clients (docs/reliability.md). */
export interface Limits {
  /** Requests handled at once; beyond it 503 `unavailable` (KURS_MAX_CONCURRENT). */
  maxConcurrent: number;
  /** Time to receive a request's headers, the slowloris guard (KURS_HEADERS_TIMEOUT_MS). */
  headersTimeoutMs: number;
  /** Time to receive a whole request, and the longest a connection may stall (KURS_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** How long SIGTERM waits for in-flight requests before exiting anyway (KURS_SHUTDOWN_TIMEOUT_MS). */
  shutdownTimeoutMs: number;
}

export const DEFAULT_LIMITS: Limits = { maxConcurrent: 256, headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, shutdownTimeoutMs: 10_000 };

/** A revoked key or a plan change reaches every instance within this bound (docs/performance.md). */
export const DEFAULT_KEY_CACHE_MS = 5_000;

export type SqliteSync = 'normal' | 'full';

/** A year and a month or so: last year's same month stays comparable. */
export const DEFAULT_USAGE_RETENTION_DAYS = 400;

export const ENDPOINT_IDS = ['latest', 'rate', 'convert', 'bank', 'banks', 'currencies', 'history', 'timeseries', 'fluctuation'] as const;
export type EndpointId = (typeof ENDPOINT_IDS)[number];

/** KURS_LOG_SAMPLE's default for JSON logs: 1 in 10 successful requests gets a request line. */
export const DEFAULT_LOG_SAMPLE = 10;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, stdoutIsTerminal = process.stdout.isTTY === true): Config {
  const problems: string[] = [];
  const onOff = (name: string, fallback: boolean): boolean => {
    const v = env[name];
    if (v === undefined || v === '') return fallback;
    if (v === 'on') return true;
    if (v === 'off') return false;
    problems.push(`${name} must be "on" or "off", got ${JSON.stringify(v)}`);
    return fallback;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const v = env[name];
    if (v === undefined || v === '') return fallback;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(v)}`);
      return fallback;
    }
    return Number(v);
  };

  const databaseUrl = env.KURS_DATABASE_URL || 'sqlite:./data/kurs.db';
  if (!/^(sqlite:.+|postgres(ql)?:\/\/.+)$/.test(databaseUrl)) {
    problems.push(`KURS_DATABASE_URL must be sqlite:<path> or postgres://…, got ${JSON.stringify(databaseUrl)}`);
  }
  const logLevel = env.KURS_LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`KURS_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  // A person at a terminal reads lines; a log collector reads JSON.
  const logFormat = env.KURS_LOG_FORMAT || (stdoutIsTerminal ? 'pretty' : 'json');
  if (logFormat !== 'json' && logFormat !== 'pretty') problems.push(`KURS_LOG_FORMAT must be "json" or "pretty", got ${JSON.stringify(logFormat)}`);
  const adminToken = env.KURS_ADMIN_TOKEN || undefined;
  if (adminToken !== undefined && adminToken.length < 16) problems.push('KURS_ADMIN_TOKEN must be at least 16 characters');

  const pointsCost = Object.fromEntries(ENDPOINT_IDS.map((id) => [id, 1])) as Record<EndpointId, number>;
  for (const part of (env.KURS_POINTS_COST ?? '').split(',').filter((s) => s.trim())) {
    const m = /^\s*([a-z]+)\s*=\s*(\d{1,6})\s*$/.exec(part);
    if (!m || !(ENDPOINT_IDS as readonly string[]).includes(m[1]!)) {
      problems.push(`KURS_POINTS_COST entries look like "bank=2" with an endpoint among ${ENDPOINT_IDS.join(', ')}; got ${JSON.stringify(part)}`);
      continue;
    }
    pointsCost[m[1] as EndpointId] = Number(m[2]);
  }

  const sourceUrls: Record<string, string> = {};
  const sourceKeys: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const m = /^KURS_SOURCE_([A-Z0-9]{4})_(URL|KEY)$/.exec(name);
    if (!m || !value) continue;
    if (m[2] === 'URL') {
      if (!/^https?:\/\//.test(value)) problems.push(`${name} must be an http(s) URL`);
      sourceUrls[m[1]!] = value;
    } else {
      sourceKeys[m[1]!] = value;
    }
  }

  const enableSources = (env.KURS_ENABLE_SOURCES ?? '').split(',').map((c) => c.trim().toUpperCase()).filter(Boolean);
  for (const code of enableSources) if (!/^[A-Z0-9]{4}$/.test(code)) problems.push(`KURS_ENABLE_SOURCES lists source codes like CBBS,CBTT; got ${JSON.stringify(code)}`);

  const limits: Limits = {
    maxConcurrent: integer('KURS_MAX_CONCURRENT', DEFAULT_LIMITS.maxConcurrent, 1, 1_000_000),
    headersTimeoutMs: integer('KURS_HEADERS_TIMEOUT_MS', DEFAULT_LIMITS.headersTimeoutMs, 100, 600_000),
    requestTimeoutMs: integer('KURS_REQUEST_TIMEOUT_MS', DEFAULT_LIMITS.requestTimeoutMs, 100, 3_600_000),
    shutdownTimeoutMs: integer('KURS_SHUTDOWN_TIMEOUT_MS', DEFAULT_LIMITS.shutdownTimeoutMs, 0, 3_600_000),
  };
  // Node requires the headers deadline to fall within the whole-request deadline.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) problems.push('KURS_HEADERS_TIMEOUT_MS must not exceed KURS_REQUEST_TIMEOUT_MS');
  const meter = env.KURS_METER || 'batch';
  if (meter !== 'batch' && meter !== 'direct') problems.push(`KURS_METER must be "batch" or "direct", got ${JSON.stringify(meter)}`);

  const corsRaw = (env.KURS_CORS_ORIGINS ?? '').trim();
  const userAgent = env.KURS_USER_AGENT?.trim();
  // A header value: printable ASCII, so that no line break can smuggle in a header of its own.
  if (userAgent !== undefined && userAgent !== '' && !/^[\x20-\x7e]{1,512}$/.test(userAgent)) problems.push('KURS_USER_AGENT must be printable ASCII, at most 512 characters');
  const corsOrigins = corsRaw === '' || corsRaw === '*' ? '*' : corsRaw.split(',').map((o) => o.trim()).filter(Boolean);
  for (const origin of corsOrigins === '*' ? [] : corsOrigins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) problems.push(`KURS_CORS_ORIGINS holds origins like https://app.example.com (scheme, host, optional port; no path), got ${JSON.stringify(origin)}`);
  }
  const sqliteSync = env.KURS_SQLITE_SYNC || 'normal';
  if (sqliteSync !== 'normal' && sqliteSync !== 'full') problems.push(`KURS_SQLITE_SYNC must be "normal" or "full", got ${JSON.stringify(sqliteSync)}`);

  const freshnessGraceDays = integer('KURS_FRESHNESS_GRACE_DAYS', 0, 0, 36500);
  const config: Config = {
    databaseUrl,
    host: env.KURS_HOST || '127.0.0.1',
    port: integer('KURS_PORT', 8080, 0, 65535),
    ingest: onOff('KURS_INGEST', true),
    seed: onOff('KURS_SEED', true),
    firstStartDb: env.KURS_FIRST_START_DB === 'off' ? undefined : env.KURS_FIRST_START_DB || firstStartDb(freshnessGraceDays),
    bootstrapKey: onOff('KURS_BOOTSTRAP_KEY', true),
    logLevel,
    logFormat: logFormat === 'pretty' ? 'pretty' : 'json',
    // A person at a terminal sees each of their requests; a collector under load gets a tenth of the
    // successful ones, which cost ~3% of a charged GET's throughput (docs/performance.md).
    logSample: integer('KURS_LOG_SAMPLE', logFormat === 'pretty' ? 1 : DEFAULT_LOG_SAMPLE, 1, 1_000_000),
    adminToken,
    freshnessGraceDays,
    pointsCost,
    enableSources: [...new Set(enableSources)],
    sourceUrls,
    sourceKeys,
    ...(env.KURS_FEED_MAX_BYTES ? { feedMaxBytes: integer('KURS_FEED_MAX_BYTES', 0, 1024, 2 ** 31) } : {}),
    ...(userAgent ? { userAgent } : {}),
    limits,
    meter: meter === 'direct' ? 'direct' : 'batch',
    keyCacheMs: integer('KURS_KEY_CACHE_MS', DEFAULT_KEY_CACHE_MS, 0, 600_000),
    sqliteSync: sqliteSync === 'full' ? 'full' : 'normal',
    usageRetentionDays: integer('KURS_USAGE_RETENTION_DAYS', DEFAULT_USAGE_RETENTION_DAYS, 1, 36_500),
    db: {
      poolSize: integer('KURS_DB_POOL_SIZE', 10, 1, 1000),
      connectTimeoutMs: integer('KURS_DB_CONNECT_TIMEOUT_MS', 5_000, 100, 600_000),
      queryTimeoutMs: integer('KURS_DB_QUERY_TIMEOUT_MS', 15_000, 100, 3_600_000),
    },
    corsOrigins,
    fastLane: onOff('KURS_FAST_LANE', true),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** `kurs mcp`: which Kurs server its tools call (KURS_URL) and with which key (KURS_API_KEY). */
export function loadMcpConfig(env: NodeJS.ProcessEnv = process.env): { url: string; apiKey: string | undefined } {
  const url = env.KURS_URL || `http://${env.KURS_HOST || '127.0.0.1'}:${env.KURS_PORT || '8080'}`;
  if (!/^https?:\/\/\S+$/.test(url)) throw new ConfigError([`KURS_URL must be an http(s) URL, got ${JSON.stringify(url)}`]);
  return { url, apiKey: env.KURS_API_KEY || undefined };
}
