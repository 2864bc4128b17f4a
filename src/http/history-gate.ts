// D14–D16 during a first start: the bundled seed's older figures load after the server listens
// (src/ingest/seed-history.ts), then history catches up. Until the rows are in, a dated or range
// request would find no figures for its days and answer a wrong 404 or a partial range; until the
// catch-up has ended, a day that is not materialised yet cannot be computed on the spot (its blend
// builds on the day before's). Such requests are 503 `unavailable` with `Retry-After` instead: a
// bank's own figures once the rows are in, a blended day or range once History has every day it
// asks. Undated requests are served as usual, and nothing is charged for the 503 (D2).
import type { FastifyInstance, FastifyRequest, preHandlerHookHandler, RouteOptions } from 'fastify';
import type { History } from '../history/history.js';
import type { HistoryReadiness } from '../ingest/seed-history.js';
import { addDays } from '../time/days.js';
import { ApiError } from './errors.js';
import { dayParam } from './history-params.js';
import { schemaProperties } from './known-params.js';

const RANGE_ENDPOINTS = new Set(['history', 'timeseries', 'fluctuation']);
/** Loading and materialising take about a minute on a small machine when a first start does them
 *  itself (docs/history.md, "The history seed"). */
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

/** What a request asks about: a bank's own figures, or the blended days `from..to`. */
type Asked = { bank: true } | { bank: false; from: string; to: string };

/** The days a dated request asks about (a history endpoint, or `date` given), when its dates are of
 *  the right shape; undefined for an undated one, or one the route will refuse. */
function askedOf(request: FastifyRequest): Asked | undefined {
  const endpoint = request.routeOptions.config.endpoint;
  const query = request.query as Dates;
  const body = request.body as Dates;
  const path = (request.params as { date?: unknown } | undefined)?.date;
  const ranged = typeof endpoint === 'string' && RANGE_ENDPOINTS.has(endpoint);
  const day = path ?? query?.date ?? body?.date;
  if (!ranged && day === undefined) return undefined;
  if (![path, query?.date, query?.start, query?.end, body?.date].every(wellFormed)) return undefined;
  if (request.routeOptions.url?.startsWith('/v1/bank/')) return { bank: true };
  if (typeof day === 'string') return { bank: false, from: day, to: day };
  return typeof query?.start === 'string' && typeof query.end === 'string' ? { bank: false, from: query.start, to: query.end } : undefined;
}

/** Whether History holds every day of `from..to` (days before its first one are empty: nothing to
 *  wait for). Asked only between the load's end and the first catch-up's. */
function daysReady(history: History, from: string, to: string): boolean {
  const { firstDay } = history.materialised;
  if (firstDay === null) return false;
  for (let day = from < firstDay ? firstDay : from; day <= to; day = addDays(day, 1)) if (!history.isReady(day)) return false;
  return true;
}

/** Adds the gate to every route of `scope` that can be dated (a history endpoint, or `date` among
 *  its query or body fields), registered from now on; undated routes never run it. */
export function installHistoryGate(scope: FastifyInstance, readiness: HistoryReadiness | undefined, history: History): void {
  if (!readiness) return;
  // preHandler: after the key, plan, limit and validation checks, so their answers come first (D2).
  const gate: preHandlerHookHandler = (request, _reply, done) => {
    if (readiness.settled) return done();
    const asked = askedOf(request);
    if (!asked || (readiness.loaded && (asked.bank || daysReady(history, asked.from, asked.to)))) return done();
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
