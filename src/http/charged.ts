// What an answer costs and what a charged answer carries, in one place (issue 37 item 1): the
// checks after the key, the price, and the headers of a charged answer. Fastify's path (auth.ts,
// reply.ts) and the fast lane (fast-lane.ts) both call these steps; neither writes its own. An
// endpoint's price is the app's `pointsCost` entry for its endpoint id (KURS_POINTS_COST; 1 point
// each by default, config.ts), times the answer's units; the one rule for units is here: a range costs a unit per started
// RANGE_DAYS days of start..end (D16). A route names its endpoint id once, in its config, and never
// a price: sendCharged and sendRange read it from there; the fast lane, the OpenAPI text, /llms.txt,
// MCP's tool text and the explorer read the rule from here.
import { type LimitDecision, rateLimitHeaders } from '../access/rate-limit.js';
import type { EndpointId } from '../config.js';
import type { KeyLookup } from '../store/store.js';
import { DAY_MS } from '../time/days.js';
import { httpDate } from '../time/stamps.js';
import { ApiError } from './errors.js';

/** GET answers may be stored by the client but must be revalidated (a 304 is free, D2). */
export const REVALIDATE = 'private, no-cache';
/** Where a step writes a header: Fastify's `reply.header`, or the fast lane's flat list. */
export type PutHeader = (name: string, value: string) => void;

/** D2's checks after the key, before the limit: expiry, then the plan's endpoints. */
export function refusalOf(found: KeyLookup, endpoint: EndpointId | undefined, at: Date): ApiError | undefined {
  if (found.account.expiresAt !== null && found.account.expiresAt <= at.toISOString()) return new ApiError('plan_expired', `plan expired at ${found.account.expiresAt}`);
  if (endpoint && !found.plan.endpoints.includes(endpoint)) return new ApiError('plan_forbidden', `this endpoint is not included in the ${found.plan.id} plan`);
  return undefined;
}

/** The request limit's fields (RateLimit, RateLimit-Policy) on every answer of a limited plan. */
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

export type Prices = Record<EndpointId, number>;

/** D16: a range is priced per started block of this many days. */
export const RANGE_DAYS = 31;

/** D16: one unit per started RANGE_DAYS days of start..end, both days included. */
export function rangeUnits(start: string, end: string): number {
  const days = (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS + 1;
  return Math.ceil(days / RANGE_DAYS);
}

/** What an answer of `endpoint` costs: its price times its units (0 units: nothing was answered). */
export function priceOf(prices: Prices, endpoint: EndpointId, units = 1): number {
  return prices[endpoint] * units;
}

/** The endpoint id a route declared (`config.endpoint`); a charged route without one is a bug. */
export function endpointOf(config: { endpoint?: EndpointId }): EndpointId {
  if (config.endpoint === undefined) throw new Error('a charged route must declare config.endpoint');
  return config.endpoint;
}
