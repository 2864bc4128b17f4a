// One charged answer (issue 37 item 1): what an answer costs, the checks after the key, the charge,
// the headers a charged answer carries, and what is counted once it is sent (usage, stats), in this
// one module. Fastify's routes reach it through sendCharged/sendRange and the hooks app.ts installs
// (auth.ts for the checks, installPointsHeaders, settle); the fast lane (fast-lane.ts) is a URL
// matcher in front of `ChargedAnswers.serve` (charged-node.ts), which runs these steps on node:http.
// An endpoint's price is the app's `pointsCost` entry for its endpoint id (KURS_POINTS_COST; 1
// point each by default, config.ts), times the answer's units; the one rule for units is here: a
// range costs a unit per started RANGE_DAYS days of start..end (D16). A route names its endpoint id
// once, in its config, and never a price. The OpenAPI text, /llms.txt, MCP and the explorer read
// the rule from here.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Balances } from '../access/balances.js';
import type { Meter } from '../access/meter.js';
import { type LimitDecision, rateLimitHeaders } from '../access/rate-limit.js';
import type { UsageRecorder } from '../access/usage.js';
import type { EndpointId } from '../config.js';
import { entityTag, type Entity } from './bodies/entity.js';
import type { KeyLookup } from '../store/store.js';
import { daysSpanned } from '../time/days.js';
import { httpDate } from '../time/stamps.js';
import { unavailable } from './charge.js';
import { ApiError } from './errors.js';
import { JSON_TYPE, noneMatch } from './reply.js';
import type { RequestStats } from './request-stats.js';

/** GET answers may be stored by the client but must be revalidated (a 304 is free, D2). */
export const REVALIDATE = 'private, no-cache';
/** Any other 2xx or 3xx answer to a key: for that client only. */
export const PRIVATE = 'private';
/** Where a step writes a header: Fastify's `reply.header`, or the fast lane's flat list. */
export type PutHeader = (name: string, value: string) => void;
export type Prices = Record<EndpointId, number>;

/** D16: a range is priced per started block of this many days. */
export const RANGE_DAYS = 31;

/** D16: one unit per started RANGE_DAYS days of start..end, both days included. */
export function rangeUnits(start: string, end: string): number {
  return Math.ceil(daysSpanned(start, end) / RANGE_DAYS);
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
      if (reply.statusCode < 400 && !reply.hasHeader('cache-control')) reply.header('cache-control', PRIVATE);
    }
    done(null, payload);
  });
}

/** Unmatched URLs share one route label so that scanners cannot blow up the series count. */
export const UNMATCHED = 'unmatched';

/** Step 5, once an answer is sent, on either path: the key's usage, the request's stats, the points charged. */
export function settle(usage: UsageRecorder, stats: RequestStats, method: string, route: string | undefined, status: number, seconds: number, auth: KeyLookup | undefined, endpoint: string | undefined, cost: number, clock: () => Date): void {
  // The clock is read only for a keyed request: most of what Fastify answers without a key is not counted.
  if (auth) usage.record(auth.account.id, auth.keyId, clock(), cost);
  stats.record(method, route ?? UNMATCHED, status, seconds);
  if (cost) stats.charged(endpoint ?? route ?? UNMATCHED, cost);
}
