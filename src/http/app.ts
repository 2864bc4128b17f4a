// The app factory: everything a request needs is built here once and passed in (STYLE "Wiring").
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Meter } from '../access/meter.js';
import { limiterFor } from '../access/rate-limit.js';
import { UsageRecorder } from '../access/usage.js';
import { DEFAULT_LIMITS, type EndpointId, type Limits } from '../config.js';
import type { Market } from '../rates/market.js';
import type { Source } from '../sources/types.js';
import type { Store } from '../store/store.js';
import { authenticate } from './auth.js';
import { ApiError, installErrorHandling, sendError, toApiError } from './errors.js';
import { KeyCache, type KeyCacheOptions } from './key-cache.js';
import { installLimits, serverLimits } from './limits.js';
import { installMetrics } from './metrics.js';
import { installOpenApi } from './openapi.js';
import { installPointsHeaders, JSON_TYPE } from './reply.js';
import { ADMIN_ROUTES, adminRoutes } from './routes/admin.js';
import { bankRoutes } from './routes/banks.js';
import { healthRoutes } from './routes/health.js';
import { historyRoutes } from './routes/history.js';
import { timeseriesRoutes } from './routes/timeseries.js';
import { bankTimeseriesRoutes } from './routes/bank-timeseries.js';
import { History } from '../history/history.js';
import { provenanceRoutes } from './routes/provenance.js';
import { rateRoutes } from './routes/rates.js';
import { usageRoutes } from './routes/usage.js';
import { statusRoutes } from './routes/status.js';

export interface AppDeps {
  store: Store;
  /** Points meter (src/access/meter.ts): what every charged response goes through. */
  meter: Meter;
  market: Market;
  sources: readonly Source[];
  pointsCost: Record<EndpointId, number>;
  now: () => Date;
  /** pino level for request logs; tests pass 'silent'. */
  logLevel: string;
  /** Where logs go (default stdout); tests capture them to check redaction. */
  logStream?: NodeJS.WritableStream;
  /** KURS_ADMIN_TOKEN; the admin API (/admin/v1) exists only when it is set. */
  adminToken?: string;
  /** Timeouts and the concurrency cap; DEFAULT_LIMITS when omitted. */
  limits?: Limits;
  /** How long a verified key is trusted without asking the database (KURS_KEY_CACHE_MS); 0 (the
   *  default here, so tests see every change at once) asks on every request. */
  keyCache?: KeyCacheOptions;
  /** Materialised history (src/history/); without it, past days are computed on the spot. */
  history?: History;
}

/** What routes see: the deps with history always present (built here when the caller gave none). */
export type RouteDeps = AppDeps & { history: History };

/** Bodies are small JSON objects; 500 targets fit in a few KB. */
export const BODY_LIMIT = 64 * 1024;

const ROUTES: { pattern: RegExp; methods: string[] }[] = [
  { pattern: /^\/$/, methods: ['GET'] },
  { pattern: /^\/(healthz|readyz)\/?$/, methods: ['GET'] },
  { pattern: /^\/v1\/rates\/convert\/?$/, methods: ['POST'] },
  { pattern: /^\/v1\/rate\/[^/]+\/[^/]+(\/sources)?\/?$/, methods: ['GET'] },
  { pattern: /^\/v1\/bank\/[^/]+\/?$/, methods: ['GET'] },
  { pattern: /^\/v1\/(banks|currencies|usage)\/?$/, methods: ['GET'] },
  { pattern: /^\/v1\/[^/]+\/latest\/?$/, methods: ['GET'] },
  { pattern: /^\/v1\/([^/]+\/\d{4}-\d{2}-\d{2}|(timeseries|fluctuation)\/[^/]+|bank\/[^/]+\/timeseries)\/?$/, methods: ['GET'] },
  { pattern: /^\/(metrics|status|openapi\.json)\/?$/, methods: ['GET'] },
];

const allowedMethods = (routes: typeof ROUTES) => (path: string) => routes.find((r) => r.pattern.test(path))?.methods ?? [];

/** Request logs never show keys: `api_key` in the query is redacted and headers are not logged (D3). */
export const redactedUrl = (url: string) => url.replace(/([?&]api_key=)[^&]*/gi, '$1[redacted]');

/** Node's own client errors (bad framing, oversized headers, timeouts) as D1 envelopes. */
const CLIENT_ERRORS: Record<string, [ApiError, string]> = {
  HPE_HEADER_OVERFLOW: [new ApiError('header_too_large', 'request headers are too large'), 'Request Header Fields Too Large'],
  ERR_HTTP_REQUEST_TIMEOUT: [new ApiError('request_timeout', 'the request was not received in time'), 'Request Timeout'],
};
const BAD_FRAMING: [ApiError, string] = [new ApiError('bad_request', 'malformed HTTP request'), 'Bad Request'];

/**
 * One `info` line per request, when it is answered (Fastify writes two: received and completed):
 * its id, method, redacted URL, status and time. Fastify's error lines stay as they are.
 */
class RequestLog extends LogController {
  /** The level is fixed at boot: above `info` a successful request costs no log work at all. */
  constructor(private readonly infoEnabled: boolean) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!error && !this.infoEnabled) return;
    const line = { method: request.method, url: redactedUrl(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}

export function buildApp(deps: AppDeps): FastifyInstance {
  const limits = deps.limits ?? DEFAULT_LIMITS;
  const app = Fastify({
    ...serverLimits(limits),
    logger: {
      level: deps.logLevel,
      ...(deps.logStream ? { stream: deps.logStream } : {}),
      redact: { paths: ['req.headers.authorization', 'req.query.api_key', 'headers.authorization'], censor: '[redacted]' },
      serializers: {
        req: (req: { method: string; url: string; ip?: string; id: string }) => ({ id: req.id, method: req.method, url: redactedUrl(req.url), ip: req.ip }),
      },
    },
    genReqId: () => randomUUID(),
    logController: new RequestLog(['info', 'debug', 'trace'].includes(deps.logLevel)),
    bodyLimit: BODY_LIMIT,
    exposeHeadRoutes: false,
    routerOptions: { ignoreTrailingSlash: true },
    // Every byte of an error body goes through our envelope, including malformed-HTTP answers.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
      const [apiError, reason] = (err.code && CLIENT_ERRORS[err.code]) || BAD_FRAMING;
      const body = JSON.stringify({ code: apiError.status, message: apiError.message, error: apiError.code });
      if (socket.writable) {
        socket.end(`HTTP/1.1 ${apiError.status} ${reason}\r\nContent-Type: ${JSON_TYPE}\r\nCache-Control: no-store\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      } else {
        socket.destroy();
      }
    },
    // Router errors (bad percent-encoding, overlong segments) bypass the error handler; same envelope.
    frameworkErrors: (err, _request, reply) => sendError(reply, toApiError(err) ?? new ApiError('bad_request', 'malformed request')),
    ajv: { customOptions: { coerceTypes: false, allErrors: true, removeAdditional: false } },
  });
  // D1: a body is JSON or absent; Fastify's built-in text/plain parser would let others through.
  app.removeContentTypeParser('text/plain');
  installErrorHandling(app, allowedMethods(deps.adminToken ? [...ROUTES, ...ADMIN_ROUTES] : ROUTES));
  installLimits(app, limits);
  installPointsHeaders(app);
  installOpenApi(app, { admin: Boolean(deps.adminToken) });
  installMetrics(app, deps);

  // Routes go in registered scopes: @fastify/swagger only sees routes added after it has loaded.
  app.register(async (root) => {
    statusRoutes(root, deps);
    healthRoutes(root, deps);
    root.get('/', async (_request, reply) =>
      reply.type(JSON_TYPE).send(JSON.stringify({ code: 200, message: 'Welcome to Kurs: official central-bank exchange rates. Send your API key in the Authorization header to use /v1.' })),
    );
  });

  const limiter = limiterFor(deps.store);
  const keys = new KeyCache((hash) => deps.store.findKey(hash), deps.keyCache ?? { ttlMs: 0 });
  // Usage: counted in memory, flushed every second and when the app closes (src/access/usage.ts).
  const usage = new UsageRecorder(deps.store, (err) => app.log.error({ err }, 'could not write usage counts'));
  usage.start();
  app.addHook('onClose', () => usage.stop());
  const routeDeps: RouteDeps = { ...deps, history: deps.history ?? new History(deps.store, deps.sources, deps.market.graceDays) };
  app.register(async (v1) => {
    v1.addHook('onRequest', authenticate(keys, limiter, deps.now));
    v1.addHook('onResponse', (request, _reply, done) => {
      if (request.auth) usage.record(request.auth.account.id, deps.now(), request.points?.cost ?? 0);
      done();
    });
    usageRoutes(v1, deps, usage);
    rateRoutes(v1, routeDeps);
    bankRoutes(v1, routeDeps);
    provenanceRoutes(v1, deps);
    historyRoutes(v1, routeDeps);
    timeseriesRoutes(v1, routeDeps);
    bankTimeseriesRoutes(v1, routeDeps);
  });
  const adminToken = deps.adminToken;
  if (adminToken) app.register(async (admin) => adminRoutes(admin, { ...deps, adminToken }, usage, keys));
  return app;
}

