// The app factory: everything a request needs is built here once and passed in (STYLE "Wiring").
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { MinuteLimiter } from '../access/rate-limit.js';
import type { EndpointId } from '../config.js';
import type { Market } from '../rates/market.js';
import type { Source } from '../sources/types.js';
import type { Store } from '../store/store.js';
import { authenticate } from './auth.js';
import { ApiError, installErrorHandling } from './errors.js';
import { installMetrics } from './metrics.js';
import { installOpenApi } from './openapi.js';
import { installPointsHeaders, JSON_TYPE } from './reply.js';
import { bankRoutes } from './routes/banks.js';
import { provenanceRoutes } from './routes/provenance.js';
import { rateRoutes } from './routes/rates.js';
import { statusRoutes } from './routes/status.js';

export interface AppDeps {
  store: Store;
  market: Market;
  sources: readonly Source[];
  pointsCost: Record<EndpointId, number>;
  now: () => Date;
  /** pino level for request logs; tests pass 'silent'. */
  logLevel: string;
  /** Where logs go (default stdout); tests capture them to check redaction. */
  logStream?: NodeJS.WritableStream;
}

/** Bodies are small JSON objects; 500 targets fit in a few KB. */
export const BODY_LIMIT = 64 * 1024;

const ROUTES: { pattern: RegExp; methods: string[] }[] = [
  { pattern: /^\/$/, methods: ['GET'] },
  { pattern: /^\/v1\/rates\/convert\/?$/, methods: ['POST'] },
  { pattern: /^\/v1\/rate\/[^/]+\/[^/]+(\/sources)?\/?$/, methods: ['GET'] },
  { pattern: /^\/v1\/bank\/[^/]+\/?$/, methods: ['GET'] },
  { pattern: /^\/v1\/(banks|currencies)\/?$/, methods: ['GET'] },
  { pattern: /^\/v1\/[^/]+\/latest\/?$/, methods: ['GET'] },
  { pattern: /^\/(metrics|status|openapi\.json)\/?$/, methods: ['GET'] },
];

const allowedMethods = (path: string) => ROUTES.find((r) => r.pattern.test(path))?.methods ?? [];

/** Request logs never show keys: `api_key` in the query is redacted and headers are not logged (D3). */
export const redactedUrl = (url: string) => url.replace(/([?&]api_key=)[^&]*/gi, '$1[redacted]');

export function buildApp(deps: AppDeps): FastifyInstance {
  const app = Fastify({
    logger: {
      level: deps.logLevel,
      ...(deps.logStream ? { stream: deps.logStream } : {}),
      redact: { paths: ['req.headers.authorization', 'req.query.api_key', 'headers.authorization'], censor: '[redacted]' },
      serializers: {
        req: (req: { method: string; url: string; ip?: string; id: string }) => ({ id: req.id, method: req.method, url: redactedUrl(req.url), ip: req.ip }),
      },
    },
    genReqId: () => randomUUID(),
    bodyLimit: BODY_LIMIT,
    exposeHeadRoutes: false,
    routerOptions: { ignoreTrailingSlash: true },
    // Every byte of an error body goes through our envelope, including malformed-HTTP answers.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
      const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
      const apiError = tooLarge ? new ApiError('header_too_large', 'request headers are too large') : new ApiError('bad_request', 'malformed HTTP request');
      const body = JSON.stringify({ code: apiError.status, message: apiError.message, error: apiError.code });
      if (socket.writable) {
        socket.end(`HTTP/1.1 ${apiError.status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nContent-Type: ${JSON_TYPE}\r\nCache-Control: no-store\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      } else {
        socket.destroy();
      }
    },
    ajv: { customOptions: { coerceTypes: false, allErrors: true, removeAdditional: false } },
  });
  // D1: a body is JSON or absent; Fastify's built-in text/plain parser would let others through.
  app.removeContentTypeParser('text/plain');
  installErrorHandling(app, allowedMethods);
  installPointsHeaders(app);
  installOpenApi(app);
  installMetrics(app, deps);

  // Routes go in registered scopes: @fastify/swagger only sees routes added after it has loaded.
  app.register(async (root) => {
    statusRoutes(root, deps);
    root.get('/', async (_request, reply) =>
      reply.type(JSON_TYPE).send(JSON.stringify({ code: 200, message: 'Welcome to Kurs: official central-bank exchange rates. Send your API key in the Authorization header to use /v1.' })),
    );
  });

  const limiter = new MinuteLimiter();
  app.register(async (v1) => {
    v1.addHook('onRequest', authenticate(deps.store, limiter, deps.now));
    rateRoutes(v1, deps);
    bankRoutes(v1, deps);
    provenanceRoutes(v1, deps);
  });
  return app;
}

