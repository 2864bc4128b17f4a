// The app factory: everything a request needs is built here once and passed in (STYLE "Wiring").
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { Balances } from '../access/balances.js';
import { limiterFor } from '../access/rate-limit.js';
import { UsageRecorder } from '../access/usage.js';
import { DEFAULT_LIMITS } from '../config.js';
import { authenticate } from './auth.js';
import { installCors, } from './cors.js';
import { ApiError, envelope, installErrorHandling, sendError, toApiError } from './errors.js';
import { KeyCache } from '../access/key-cache.js';
import { installKnownParams } from './known-params.js';
import { installHistoryGate } from './history-gate.js';
import { Admission, BODY_LIMIT, installLimits, serverLimits } from './limits.js';
import { FastLane, laneServer } from './fast-lane.js';
import { installMetrics } from './metrics.js';
import { installOpenApi } from './openapi.js';
import { installPointsHeaders, settle } from './charged.js';
import { ChargedAnswers } from './charged-node.js';
import { JSON_TYPE } from './reply.js';
import { okWith } from './bodies/entity.js';
import { BatchedLines, redactedUrl, RequestLog, RequestSampler } from './request-log.js';
import { RouteTable } from './route-table.js';
import { adminRoutes } from './routes/admin.js';
import { bankRoutes } from './routes/banks.js';
import { exploreRoutes } from './routes/explore.js';
import { healthRoutes } from './routes/health.js';
import type { OpenApiDoc } from './llms.js';
import { llmsRoutes } from './routes/llms.js';
import { historyRoutes } from './routes/history.js';
import { timeseriesRoutes } from './routes/timeseries.js';
import { bankTimeseriesRoutes } from './routes/bank-timeseries.js';
import { History } from '../history/history.js';
import { provenanceRoutes } from './routes/provenance.js';
import { rateRoutes } from './routes/rates.js';
import { usageRoutes } from './routes/usage.js';
import { statusRoutes } from './routes/status.js';
import type { AppDeps, RouteDeps } from './deps.js';

export type { AppDeps, RouteDeps };


/** Node's own client errors (bad framing, oversized headers, timeouts) as D1 envelopes. */
const CLIENT_ERRORS: Record<string, [ApiError, string]> = {
  HPE_HEADER_OVERFLOW: [new ApiError('header_too_large', 'request headers are too large'), 'Request Header Fields Too Large'],
  ERR_HTTP_REQUEST_TIMEOUT: [new ApiError('request_timeout', 'the request was not received in time'), 'Request Timeout'],
};
const BAD_FRAMING: [ApiError, string] = [new ApiError('bad_request', 'malformed HTTP request'), 'Bad Request'];

export function buildApp(deps: AppDeps): FastifyInstance {
  const limits = deps.limits ?? DEFAULT_LIMITS;
  const logStream = deps.logStream ?? new BatchedLines();
  const logRequests = ['info', 'debug', 'trace'].includes(deps.logLevel);
  // One sampler for both paths: which of them answers a request does not change whether it is logged.
  const sampler = new RequestSampler(deps.logSample ?? 1);
  // The fast lane (fast-lane.ts) needs the app's parts, made below; the server exists before them.
  let lane: FastLane | undefined;
  const app = Fastify({
    ...serverLimits(limits),
    logger: {
      level: deps.logLevel,
      stream: logStream,
      redact: { paths: ['req.headers.authorization', 'req.query.api_key', 'headers.authorization'], censor: '[redacted]' },
      serializers: {
        req: (req: { method: string; url: string; ip?: string; id: string }) => ({ id: req.id, method: req.method, url: redactedUrl(req.url), ip: req.ip }),
      },
    },
    genReqId: () => randomUUID(),
    logController: new RequestLog(logRequests, sampler),
    serverFactory: (handler, options) => laneServer(options as Parameters<typeof laneServer>[0], () => lane, handler),
    bodyLimit: BODY_LIMIT,
    // HEAD wherever GET is: the same handler, charged like the GET, with the body left out.
    exposeHeadRoutes: true,
    routerOptions: { ignoreTrailingSlash: true },
    // Every byte of an error body goes through our envelope, including malformed-HTTP answers.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
      const [apiError, reason] = (err.code && CLIENT_ERRORS[err.code]) || BAD_FRAMING;
      const body = envelope(apiError);
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
  // The 405 answers and preflights read the routes as registered: each route is declared once.
  const routes = new RouteTable();
  routes.install(app);
  installCors(app, deps.corsOrigins ?? '*', routes.allowed);
  installErrorHandling(app, routes.allowed);
  const admission = new Admission(limits.maxConcurrent);
  installLimits(app, admission);
  const balances = new Balances();
  installPointsHeaders(app, balances);
  installOpenApi(app, { admin: Boolean(deps.adminToken) });
  const stats = installMetrics(app, deps);
  // Usage (counted in memory, flushed every second and when the app closes: src/access/usage.ts).
  const usage = new UsageRecorder(deps.store, (err) => app.log.error({ err }, 'could not write usage counts'));
  usage.start();
  app.addHook('onClose', () => usage.stop());
  // Step 5 of every answer Fastify gives (the fast lane's own call is in charged.ts). Callback style:
  // it runs on every response, and an async hook costs a promise each time.
  app.addHook('onResponse', (request, reply, done) => {
    const { url, config } = request.routeOptions;
    settle(usage, stats, request.method, url, reply.statusCode, reply.elapsedTime / 1000, request.auth, config.endpoint, request.points?.cost ?? 0, deps.now);
    done();
  });

  // Routes go in registered scopes: @fastify/swagger only sees routes added after it has loaded.
  app.register(async (root) => {
    statusRoutes(root, deps);
    healthRoutes(root, deps);
    llmsRoutes(root, () => app.swagger() as unknown as OpenApiDoc, deps.pointsCost);
    exploreRoutes(root, deps);
    root.get('/', async (_request, reply) =>
      reply.type(JSON_TYPE).send(JSON.stringify(okWith('Welcome to Kurs: official central-bank exchange rates. Send your API key in the Authorization header to use /v1.'))),
    );
  });

  const limiter = limiterFor(deps.store);
  // A lookup's balance is as new as its query's start: it competes with charges' figures (balances.ts).
  const findKey = (hash: string) => {
    const at = balances.now();
    return deps.store.findKey(hash).then((found) => (found && balances.saw(found.account.id, found.account.points, at), found));
  };
  const keys = new KeyCache(findKey, deps.keyCache ?? { ttlMs: 0 });
  const routeDeps: RouteDeps = { ...deps, history: deps.history ?? new History(deps.store, deps.sources, deps.market.graceDays) };
  if (deps.fastLane !== false) {
    const { meter, market, pointsCost, now, history, historyLoaded } = routeDeps;
    const logLine = logRequests ? (line: string) => void logStream.write(line) : undefined;
    const onError = (err: unknown) => app.log.error({ err }, 'fast lane failed');
    const charged = new ChargedAnswers({ keys, limiter, meter, pointsCost, balances, usage, stats, admission, logLine, sampler, onError, corsOrigins: deps.corsOrigins ?? '*' });
    lane = new FastLane({ market, history, historyLoaded, now, charged, admission, onError });
  }
  app.register(async (v1) => {
    v1.addHook('onRequest', authenticate(keys, limiter, deps.now));
    installKnownParams(v1);
    installHistoryGate(v1, deps.historyLoaded, routeDeps.history);
    usageRoutes(v1, deps, usage, balances);
    rateRoutes(v1, routeDeps);
    bankRoutes(v1, routeDeps);
    provenanceRoutes(v1, routeDeps);
    historyRoutes(v1, routeDeps);
    timeseriesRoutes(v1, routeDeps);
    bankTimeseriesRoutes(v1, routeDeps);
  });
  const adminToken = deps.adminToken;
  if (adminToken) app.register(async (admin) => adminRoutes(admin, { ...deps, adminToken }, usage, keys));
  return app;
}

