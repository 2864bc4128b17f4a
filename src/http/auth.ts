// Authentication and plan checks (D2, D3), in the order D2 fixes: key → expiry → plan endpoint →
// request limit. Runs before the body is even parsed, so nobody without a key costs us a parse.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { failClosed } from './charge.js';
import { DECIDED, type Decided, rateLimitHeaders, type LimitDecision, type RequestLimiter } from '../access/rate-limit.js';
import type { EndpointId } from '../config.js';
import type { KeyLookup } from '../store/store.js';
import { putLimit, refusalOf } from './charged.js';
import { ApiError } from './errors.js';
import type { KeyCache } from '../access/key-cache.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: KeyLookup;
    /** What the meter answered for this request: its cost (0 unless charged) and the balance after it;
     *  `known` when the balance was read from the instance's own newest figure (nothing new to note). */
    points?: { cost: number; remaining: number; known?: true };
  }
  interface FastifyContextConfig {
    endpoint?: EndpointId;
  }
}

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

/** A scheme word before a key (`Bearer kurs_…`, `Token kurs_…`): refused like any other wrong key
 *  (D3, D24), but told what is wrong. Said from the shape alone, so it reveals nothing of the key. */
const SCHEMED = /^[A-Za-z]+[ \t]+kurs_/;
const PREFIXED = 'API key invalid: send the bare key, without a prefix such as "Bearer " (Authorization: kurs_…)';

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
    const looked = keys.lookupKey(key, request.raw.socket);
    if (looked === undefined && SCHEMED.test(key)) return done(new ApiError('invalid_key', PREFIXED));
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
  const refused = refusalOf(found, request.routeOptions.config.endpoint, at);
  if (refused) return done(refused);
  const perMinute = found.plan.requestsPerMinute;
  if (perMinute === null) return done();
  // One instance counts in memory and decides at once; the shared limiter asks the database.
  const decided = (request.raw as Decided)[DECIDED] ?? limiter.check(found.account.id, perMinute, at.getTime());
  if (decided instanceof Promise) failClosed(request, decided).then((limit) => limited(reply, limit, done), done);
  else limited(reply, decided, done);
}

function limited(reply: FastifyReply, limit: LimitDecision, done: Done): void {
  putLimit((name, value) => reply.header(name, value), limit);
  if (!limit.ok) {
    return done(new ApiError('rate_limited', `request limit of ${limit.limit} per minute reached`, undefined, { ...rateLimitHeaders(limit), 'retry-after': String(limit.resetSeconds) }));
  }
  done();
}
