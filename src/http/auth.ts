// Authentication and plan checks (D2, D3), in the order D2 fixes: key → expiry → plan endpoint →
// request limit. Runs before the body is even parsed, so nobody without a key costs us a parse.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashKey, KEY_PREFIX } from '../access/keys.js';
import type { Meter } from '../access/meter.js';
import { rateLimitHeaders, type RequestLimiter } from '../access/rate-limit.js';
import type { EndpointId } from '../config.js';
import type { KeyLookup } from '../store/store.js';
import { ApiError } from './errors.js';
import type { KeyCache } from './key-cache.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: KeyLookup;
    /** What this request cost (0 unless charged) and the balance after it. */
    points?: { cost: number; remaining: number };
  }
  interface FastifyContextConfig {
    endpoint?: EndpointId;
  }
}

const KEY_SHAPE = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{32}$`);

/** D3: the header wins whenever it is present and not blank, even when it is wrong. */
export function presentedKey(request: FastifyRequest): string | undefined {
  // Node keeps one Authorization header, but a proxy or inject() can hand over several: never a match.
  const raw = request.headers.authorization as string | string[] | undefined;
  const header = Array.isArray(raw) ? raw.join(', ') : raw;
  if (header !== undefined && header.trim() !== '') return header;
  const query = (request.query as Record<string, unknown> | undefined)?.api_key;
  return typeof query === 'string' && query !== '' ? query : undefined;
}

type Done = (err?: Error) => void;

/**
 * Callback style, because it runs on every request: a key found in the cache with no request limit
 * is admitted without a promise; the database lookup and the limiter take the asynchronous path.
 */
export function authenticate(keys: KeyCache, limiter: RequestLimiter, now: () => Date) {
  return (request: FastifyRequest, reply: FastifyReply, done: Done): void => {
    const key = presentedKey(request);
    if (key === undefined) return done(new ApiError('invalid_key', 'API key missing: send it as the Authorization header (the bare key, no prefix)'));
    // The shape check spares the database obviously wrong keys; the lookup is by hash, so its
    // timing does not depend on how much of a key matched.
    // A key in the cache needs no database: it still authenticates while the database is down, and
    // its charge then answers 503 (the meter needs the database); anything else fails closed.
    const looked = KEY_SHAPE.test(key) ? keys.lookup(hashKey(key)) : undefined;
    if (looked instanceof Promise) {
      failClosed(request, looked).then((found) => admit(request, reply, found, limiter, now, done), done);
    } else {
      admit(request, reply, looked, limiter, now, done);
    }
  };
}

/** D2's checks after the key: expiry → plan endpoint → request limit. */
function admit(request: FastifyRequest, reply: FastifyReply, found: KeyLookup | undefined, limiter: RequestLimiter, now: () => Date, done: Done): void {
  if (!found) return done(new ApiError('invalid_key', 'API key invalid or revoked'));
  request.auth = found;
  const at = now();
  if (found.account.expiresAt !== null && found.account.expiresAt <= at.toISOString()) {
    return done(new ApiError('plan_expired', `plan expired at ${found.account.expiresAt}`));
  }
  const endpoint = request.routeOptions.config.endpoint;
  if (endpoint && !found.plan.endpoints.includes(endpoint)) {
    return done(new ApiError('plan_forbidden', `this endpoint is not included in the ${found.plan.id} plan`));
  }
  const perMinute = found.plan.requestsPerMinute;
  if (perMinute === null) return done();
  failClosed(request, limiter.check(found.account.id, perMinute, at.getTime())).then((limit) => {
    const headers = rateLimitHeaders(limit);
    reply.headers(headers);
    if (!limit.ok) {
      return done(new ApiError('rate_limited', `request limit of ${perMinute} per minute reached`, undefined, { ...headers, 'retry-after': String(limit.resetSeconds) }));
    }
    done();
  }, done);
}

/** An unreachable database is a 503, never a free answer and never a 500 (docs/scaling.md). */
function failClosed<T>(request: FastifyRequest, work: Promise<T>): Promise<T> {
  return work.catch((err: unknown) => {
    request.log.warn({ err: (err as Error).message }, 'database unreachable: answering 503');
    throw new ApiError('unavailable', 'the service cannot reach its database; try again shortly', undefined, { 'retry-after': '1' });
  });
}

/** D2: charge after the response is built, before it is sent; a short balance turns it into a 402.
 *  Plain promise chains rather than `async`: this is on every charged request. */
export function charge(meter: Meter, request: FastifyRequest, cost: number): Promise<void> {
  const auth = request.auth!;
  if (cost === 0) {
    request.points = { cost: 0, remaining: auth.account.points };
    return Promise.resolve();
  }
  return failClosed(request, meter.charge(auth.account.id, cost)).then((result) => {
    request.points = { cost: result.ok ? cost : 0, remaining: result.remaining };
    if (!result.ok) throw new ApiError('points_exhausted', `not enough API points: this request costs ${cost}, the balance is ${result.remaining}`);
  });
}
