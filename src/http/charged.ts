// One charged answer (issue 37 item 1): what an answer costs, the checks after the key, the charge,
// the headers a charged answer carries, and what is counted once it is sent (usage, stats), in this
// one module. Fastify's routes reach it through sendCharged/sendRange and the hooks app.ts installs
// (auth.ts for the checks, installPointsHeaders, settle); the fast lane (fast-lane.ts) is a URL
// matcher in front of `ChargedAnswers.serve`, which runs the same steps on node:http directly.
// An endpoint's price is the app's `pointsCost` entry for its endpoint id (KURS_POINTS_COST; 1
// point each by default, config.ts), times the answer's units; the one rule for units is here: a
// range costs a unit per started RANGE_DAYS days of start..end (D16). A route names its endpoint id
// once, in its config, and never a price. The OpenAPI text, /llms.txt, MCP and the explorer read
// the rule from here.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Balances } from '../access/balances.js';
import type { KeyCache } from '../access/key-cache.js';
import type { Meter } from '../access/meter.js';
import { DECIDED, type Decided, type LimitDecision, rateLimitHeaders, type RequestLimiter } from '../access/rate-limit.js';
import type { UsageRecorder } from '../access/usage.js';
import type { EndpointId } from '../config.js';
import { entityTag, type Entity } from './bodies/entity.js';
import type { KeyLookup } from '../store/store.js';
import { DAY_MS } from '../time/days.js';
import { httpDate } from '../time/stamps.js';
import type { Answer } from './answers.js';
import { unavailable } from './charge.js';
import type { CorsOrigins } from './cors.js';
import { ApiError } from './errors.js';
import type { Admission } from './limits.js';
import { JSON_TYPE, noneMatch } from './reply.js';
import { requestLine, type RequestSampler } from './request-log.js';
import type { RequestStats } from './request-stats.js';

/** GET answers may be stored by the client but must be revalidated (a 304 is free, D2). */
export const REVALIDATE = 'private, no-cache';
/** Where a step writes a header: Fastify's `reply.header`, or the fast lane's flat list. */
export type PutHeader = (name: string, value: string) => void;
export type Prices = Record<EndpointId, number>;

/** D16: a range is priced per started block of this many days. */
export const RANGE_DAYS = 31;

/** D16: one unit per started RANGE_DAYS days of start..end, both days included. */
export function rangeUnits(start: string, end: string): number {
  const days = (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS + 1;
  return Math.ceil(days / RANGE_DAYS);
}

/** Step 1, the price: an answer of `endpoint` costs its price times its units (0 units: nothing was answered). */
export function priceOf(prices: Prices, endpoint: EndpointId, units = 1): number {
  return prices[endpoint] * units;
}

/** The endpoint id a route declared (`config.endpoint`); a charged route without one is a bug. */
export function endpointOf(config: { endpoint?: EndpointId }): EndpointId {
  if (config.endpoint === undefined) throw new Error('a charged route must declare config.endpoint');
  return config.endpoint;
}

/** Step 2, D2's checks after the key, before the limit: expiry, then the plan's endpoints. */
export function refusalOf(found: KeyLookup, endpoint: EndpointId | undefined, at: Date): ApiError | undefined {
  if (found.account.expiresAt !== null && found.account.expiresAt <= at.toISOString()) return new ApiError('plan_expired', `plan expired at ${found.account.expiresAt}`);
  if (endpoint && !found.plan.endpoints.includes(endpoint)) return new ApiError('plan_forbidden', `this endpoint is not included in the ${found.plan.id} plan`);
  return undefined;
}

/** Step 3, the charge (D2: after the body exists, before a byte leaves). `paid` with the balance
 *  after it; `short` when the balance cannot cover it (a 402); `failed` when the meter could not
 *  answer (a 503, never a free answer). */
export function chargeThen(meter: Meter, accountId: string, cost: number, paid: (remaining: number) => void, short: (refusal: ApiError, remaining: number) => void, failed: (err: unknown) => void): void {
  meter.chargeThen(
    accountId,
    cost,
    (result) => {
      if (result.ok) paid(result.remaining);
      else short(new ApiError('points_exhausted', `not enough API points: this request costs ${cost}, the balance is ${result.remaining}`), result.remaining);
    },
    failed,
  );
}

/** Step 3 for Fastify's path: sets `request.points` from the meter's answer; a cost of 0 leaves it
 *  unset (nothing charged, the balance shown is the newest known: balances.ts). */
export function charge(meter: Meter, request: FastifyRequest, cost: number): Promise<void> {
  if (cost === 0) return Promise.resolve();
  return new Promise((resolve, reject) =>
    chargeThen(
      meter,
      request.auth!.account.id,
      cost,
      (remaining) => {
        request.points = { cost, remaining };
        resolve();
      },
      (refusal, remaining) => {
        request.points = { cost: 0, remaining };
        reject(refusal);
      },
      (err) => reject(unavailable(request, err)),
    ),
  );
}

/** Step 4, headers: the request limit's fields (RateLimit, RateLimit-Policy) on every answer of a limited plan. */
export function putLimit(put: PutHeader, limit: LimitDecision): void {
  for (const [name, value] of Object.entries(rateLimitHeaders(limit))) put(name, value);
}

/** A 2xx or 304's validators: Last-Modified, and with an entity tag the revalidation rule. */
export function putValidators(put: PutHeader, etag: string | undefined, lastUpdate: string | undefined): void {
  if (lastUpdate) put('last-modified', httpDate(lastUpdate));
  if (etag) {
    put('etag', etag);
    put('cache-control', REVALIDATE);
  }
}

/** D11: every answer to a valid key reports its cost and the balance after it. */
export function putPoints(put: PutHeader, cost: number, remaining: number): void {
  put('x-points-cost', String(cost));
  put('x-points-remaining', String(remaining));
}

/** What charging needs of the app: the meter and the prices. */
export interface Charging {
  meter: Meter;
  pointsCost: Prices;
}

/** A charged JSON answer on Fastify's path: price, 304 or charge, validators, send. Resolves like the
 *  route's own `return reply`: once the response has been handed over (a reply is thenable, and an
 *  onSend hook may still be at work when send() returns). The price is the route's endpoint's (its
 *  config) times `units`. The limit's fields were put by the checks (auth.ts), the points by
 *  installPointsHeaders: an error answer carries them too. */
export function sendCharged(deps: Charging, request: FastifyRequest, reply: FastifyReply, body: string | Buffer | Entity, lastUpdate?: string, units = 1): Promise<unknown> {
  const cost = priceOf(deps.pointsCost, endpointOf(request.routeOptions.config), units);
  // A body written as bytes (the bulk conversion's) is sent as it is, without a UTF-8 encoding pass.
  const built = typeof body === 'string' || Buffer.isBuffer(body);
  const payload = built ? body : body.body;
  // Cached bodies carry their tag; a body built for this request is hashed now. POST answers get none.
  const etag = request.method === 'POST' ? undefined : built ? entityTag(body) : body.etag;
  const validators = () => (putValidators((name, value) => reply.header(name, value), etag, lastUpdate), reply);
  // Not a 2xx, so not charged (D2/D11); the points headers still go out with it.
  if (etag && noneMatch(request.headers['if-none-match'], etag)) return Promise.resolve(validators().code(304).send());
  // Validators go on the 2xx or 304 only: an error from the charge must not carry them.
  return charge(deps.meter, request, cost).then(() => validators().type(JSON_TYPE).send(payload));
}

/** Step 4 for every answer to a valid key on Fastify's path: its cost and the balance, the meter's
 *  answer when it was charged (remembered as the newest balance), else the newest balance known. */
export function installPointsHeaders(app: FastifyInstance, balances: Balances): void {
  // Callback style: it runs on every response, and an async hook costs a promise each time.
  app.addHook('onSend', (request, reply, payload, done) => {
    const auth = request.auth;
    if (auth) {
      const points = request.points;
      if (points && !points.known) balances.saw(auth.account.id, points.remaining);
      putPoints((name, value) => reply.header(name, value), points ? points.cost : 0, points ? points.remaining : balances.of(auth));
      if (reply.statusCode < 400 && !reply.hasHeader('cache-control')) reply.header('cache-control', 'private');
    }
    done(null, payload);
  });
}

/** Unmatched URLs share one route label so that scanners cannot blow up the series count. */
export const UNMATCHED = 'unmatched';

/** Step 5, once an answer is sent, on either path: the key's usage, the request's stats, the points charged. */
export function settle(usage: UsageRecorder, stats: RequestStats, method: string, route: string | undefined, status: number, seconds: number, auth: KeyLookup | undefined, endpoint: string | undefined, cost: number, at: Date): void {
  if (auth) usage.record(auth.account.id, auth.keyId, at, cost);
  stats.record(method, route ?? UNMATCHED, status, seconds);
  if (cost) stats.charged(endpoint ?? route ?? UNMATCHED, cost);
}

/** What a charged answer on node:http needs of the app (app.ts builds it once). */
export interface DirectParts extends Charging {
  keys: KeyCache;
  limiter: RequestLimiter;
  balances: Balances;
  usage: UsageRecorder;
  stats: RequestStats;
  admission: Admission;
  corsOrigins: CorsOrigins;
  /** Where request lines go (the app's log stream) when they are logged at all (`info` or below). */
  logLine: ((line: string) => void) | undefined;
  /** Which requests get a line (shared with Fastify's RequestLog). */
  sampler: RequestSampler;
  /** A failure after the charge (none is expected): logged, and the connection cut if nothing was sent. */
  onError: (err: unknown) => void;
}

/** A request the fast lane recognised by its URL: its route, endpoint and answer (which throws to hand over). */
export interface Matched {
  route: string;
  endpoint: EndpointId;
  answer: () => Answer | Promise<Answer>;
  /** Whether the answer's body is kept with its table (so worth keeping as bytes). */
  kept: boolean;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The bytes of bodies kept with a table (/latest's, a day's), made once each: a 2.3 KB string was
 *  measured and encoded on every request. Module-level because it belongs to the bodies it is keyed
 *  by (a WeakMap entry goes with its body), not to any one server. */
const bytes = new WeakMap<object, Buffer>();
function bytesOf(entity: Answer['body']): Buffer {
  let b = bytes.get(entity);
  if (!b) bytes.set(entity, (b = Buffer.from(entity.body)));
  return b;
}

/**
 * The same steps on node:http, for a request whose answer is plainly a 200: a key already verified
 * in the key cache, its checks passed, its limit counted in memory. Anything else (a key to look
 * up, a refusal, a short balance, a failed charge, an answer that throws) is handed to Fastify's
 * path, which answers it from the same steps.
 */
export class ChargedAnswers {
  constructor(private readonly parts: DirectParts) {}

  /** Serves `matched` and returns true, or returns false at once for Fastify to serve the request. */
  serve(req: IncomingMessage, res: ServerResponse, matched: Matched, at: Date, fastify: Handler): boolean {
    const url = req.url!;
    const key = req.headers.authorization;
    if (typeof key !== 'string') return false;
    // Step 1 of D2, the key, as Fastify's path takes it (auth.ts); one not in the cache is looked up
    // by Fastify's path (a concurrent lookup shares the query).
    const found = this.parts.keys.lookupKey(key, req.socket);
    if (found === undefined || found instanceof Promise) return false;
    const { account, plan } = found;
    // Step 2: any refusal (expired, not in the plan) is Fastify's to answer.
    if (refusalOf(found, matched.endpoint, at)) return false;
    const { limiter, admission } = this.parts;
    const cost = priceOf(this.parts.pointsCost, matched.endpoint);
    // A limit counted in the database (PostgreSQL) is Fastify's to ask; so is a zero-cost endpoint.
    if ((plan.requestsPerMinute !== null && !limiter.inMemory) || cost === 0) return false;
    if (!admission.enter()) return false;
    const started = performance.now();
    // The limit last of D2's checks: a request counts once, so Fastify's path is handed the decision.
    const limit = plan.requestsPerMinute === null ? undefined : (limiter.check(account.id, plan.requestsPerMinute, at.getTime()) as LimitDecision);
    const handOver = () => {
      admission.leave();
      if (limit) (req as Decided)[DECIDED] = limit;
      fastify(req, res);
    };
    // A failure once the meter has answered (none is expected): the connection is cut if nothing was
    // sent; handing the request over again could charge it twice.
    const broke = (err: unknown) => {
      if (!res.headersSent) res.destroy();
      this.parts.onError(err);
    };
    const fallback = () => {
      try {
        handOver();
      } catch (err) {
        broke(err);
      }
    };
    // Step 3; a short balance or a failed meter is Fastify's to answer (it charges again, and refuses).
    const charge = (answer: Answer) =>
      chargeThen(
        this.parts.meter,
        account.id,
        cost,
        (remaining) => {
          try {
            admission.leave();
            this.send(res, answer, matched.kept, cost, remaining, limit);
            this.parts.balances.saw(account.id, remaining);
            this.settled(found, matched, url, cost, started, at);
          } catch (err) {
            broke(err);
          }
        },
        fallback,
        fallback,
      );
    if (limit && !limit.ok) {
      handOver();
      return true;
    }
    let answer: Answer | Promise<Answer>;
    try {
      answer = matched.answer();
    } catch {
      handOver();
      return true;
    }
    if (answer instanceof Promise) answer.then(charge, handOver);
    else charge(answer);
    return true;
  }

  /** Step 4: the 200 with the same headers as Fastify's path writes. */
  private send(res: ServerResponse, answer: Answer, kept: boolean, cost: number, remaining: number, limit: LimitDecision | undefined): void {
    const { etag } = answer.body;
    const body = kept ? bytesOf(answer.body) : answer.body.body;
    const headers: string[] = [];
    const put = (name: string, value: string) => void headers.push(name, value);
    if (this.parts.corsOrigins !== '*') put('vary', 'Origin');
    if (limit) putLimit(put, limit);
    putValidators(put, etag, answer.lastUpdate);
    putPoints(put, cost, remaining);
    put('content-type', JSON_TYPE);
    if (this.parts.admission.closing) put('connection', 'close');
    headers.push('content-length', String(Buffer.byteLength(body)));
    res.writeHead(200, headers);
    res.end(body);
  }

  /** Step 5, and the request line Fastify's RequestLog would write. */
  private settled(found: KeyLookup, matched: Matched, url: string, cost: number, started: number, at: Date): void {
    const { usage, stats, logLine, sampler } = this.parts;
    const ms = performance.now() - started;
    // Counted on the day the request arrived (Fastify's path: the day it was answered, a few ms later).
    settle(usage, stats, 'GET', matched.route, 200, ms / 1000, found, matched.endpoint, cost, at);
    stats.servedByFastLane();
    // The lane takes no URL with a key in it, so none needs redacting.
    if (logLine) {
      const weight = sampler.weight(200, ms);
      if (weight > 0) logLine(requestLine(randomUUID(), 'GET', url, 200, Math.round(ms * 10) / 10, Date.now(), weight));
    }
  }
}
