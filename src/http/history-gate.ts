// D14–D16 during a first start: the bundled seed's older figures load after the server listens
// (src/ingest/seed-history.ts). Until they have, a dated or range request would find no figures for
// its days and answer a wrong 404 or a partial range, so it is 503 `unavailable` with `Retry-After`
// instead. Undated requests are served as usual, and nothing is charged for the 503 (D2).
import type { FastifyInstance, preHandlerHookHandler, RouteOptions } from 'fastify';
import type { HistoryReadiness } from '../ingest/seed-history.js';
import { ApiError } from './errors.js';
import { dayParam } from './history-params.js';
import { schemaProperties } from './known-params.js';

const RANGE_ENDPOINTS = new Set(['history', 'timeseries', 'fluctuation']);
/** The load takes tens of seconds on a small machine (docs/history.md, "The history seed"). */
export const HISTORY_RETRY_SECONDS = 10;

type Dates = { date?: unknown; start?: unknown; end?: unknown } | null | undefined;

/** A date the route will accept in shape; a bad one is left to the route, whose 422 comes first. */
const wellFormed = (v: unknown) => {
  if (v === undefined) return true;
  try {
    return typeof v === 'string' && dayParam('date', v, '9999-12-31') === v;
  } catch {
    return false;
  }
};

/** Whether the request asks about a past day or a range (a history endpoint, or `date` given) with
 *  dates of the right shape. */
function isDated(endpoint: unknown, query: Dates, body: Dates): boolean {
  const asks = (typeof endpoint === 'string' && RANGE_ENDPOINTS.has(endpoint)) || query?.date !== undefined || body?.date !== undefined;
  return asks && [query?.date, query?.start, query?.end, body?.date].every(wellFormed);
}

/** Adds the gate to every route of `scope` that can be dated (a history endpoint, or `date` among
 *  its query or body fields), registered from now on; undated routes never run it. */
export function installHistoryGate(scope: FastifyInstance, readiness: HistoryReadiness | undefined): void {
  if (!readiness) return;
  // preHandler: after the key, plan, limit and validation checks, so their answers come first (D2).
  const gate: preHandlerHookHandler = (request, _reply, done) => {
    if (readiness.loaded || !isDated(request.routeOptions.config.endpoint, request.query as Dates, request.body as Dates)) return done();
    done(new ApiError('unavailable', 'history is still loading after the first start; retry shortly', undefined, { 'retry-after': String(HISTORY_RETRY_SECONDS) }));
  };
  scope.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as { querystring?: unknown; body?: unknown } | undefined;
    const endpoint = (route.config as { endpoint?: string } | undefined)?.endpoint;
    const datable = (endpoint !== undefined && RANGE_ENDPOINTS.has(endpoint)) || [...schemaProperties(schema?.querystring), ...schemaProperties(schema?.body)].includes('date');
    if (!datable) return;
    const existing = route.preHandler;
    route.preHandler = existing === undefined ? gate : [gate, ...(Array.isArray(existing) ? existing : [existing])];
  });
}
