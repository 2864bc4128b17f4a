// Blended ranges (D15): `GET /v1/timeseries/{base}` and `GET /v1/fluctuation/{base}`, priced per
// started 31 days (D16), in JSON, CSV or NDJSON.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { utcDay } from '../../time/days.js';
import { fluctuationBody, rangeChunks } from '../bodies/range.js';
import type { Group } from '../../history/group.js';
import { series, type DayRow } from '../../history/series.js';
import { fluctuationRows } from '../../history/fluctuation.js';
import type { RouteDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { RANGE_DAYS, rangeUnits } from '../charged.js';
import { historyCurrency, rangeFormat, rangeParams, symbolsParam } from '../history-params.js';
import { collect, noFigures, nonEmpty, notReady, rangeBody, type RangeBody, sendRange, STREAM_AFTER_DAYS } from '../range-reply.js';

const RangeQuery = {
  start: Type.String(),
  end: Type.String(),
  symbols: Type.Optional(Type.String()),
  format: Type.Optional(Type.String()),
  api_key: Type.Optional(Type.String()),
};

interface RangeQueryString {
  start?: string;
  end?: string;
  symbols?: string;
  group?: string;
  format?: string;
}

export function groupParam(raw: string | undefined): Group | undefined {
  if (raw === undefined || raw === 'week' || raw === 'month') return raw;
  throw ApiError.invalid('invalid_parameter', [{ field: 'group', message: 'must be week or month' }]);
}

/** Range bodies kept, and the most symbols a kept one may have (at most ~1 MB each: 10 × 28 years). */
const KEPT_BODIES = 32;
const KEPT_SYMBOLS = 10;

export function timeseriesRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const params = Type.Object({ base_currency: Type.String() });
  // Kept as bytes: sending a 200 KB string encoded it and measured its length on every request.
  const bodies = new Map<string, RangeBody>();

  app.get<{ Params: { base_currency: string }; Querystring: RangeQueryString }>(
    '/v1/timeseries/:base_currency',
    { schema: { params, querystring: Type.Object({ ...RangeQuery, group: Type.Optional(Type.String()) }) }, config: { endpoint: 'timeseries' } },
    async (request, reply) => {
      const base = historyCurrency('base_currency', request.params.base_currency);
      const q = request.query;
      const { start, end } = rangeParams(q.start, q.end, utcDay(deps.now()));
      const symbols = symbolsParam(q.symbols);
      const group = groupParam(q.group);
      const format = rangeFormat(q.format, request.headers.accept);
      const cols = await deps.history.range(start, end);
      if (!cols) throw notReady();
      const units = rangeUnits(start, end);
      // A long range of a few currencies (a pair since 1999) is small and asked again and again: kept
      // whole until history changes. Ranges of every currency stream and are not kept.
      const keep = symbols !== undefined && symbols.length <= KEPT_SYMBOLS;
      const key = `${deps.history.version} ${base} ${symbols?.join(',')} ${start} ${end} ${group} ${format}`;
      const kept = keep ? bodies.get(key) : undefined;
      if (kept !== undefined) return sendRange(deps, request, reply, units, format, kept, false);
      const rows = await nonEmpty(series(cols, { base, symbols, start, end, group }));
      if (!rows) throw noFigures(symbols ? `${base} to ${symbols.join(',')}` : base, start, end);
      const chunks = rangeChunks(rows, format, base, `"base":"${base}","start":"${start}","end":"${end}"`, undefined, symbols);
      if (!keep) return sendRange(deps, request, reply, units, format, chunks, units * RANGE_DAYS > STREAM_AFTER_DAYS);
      const body = rangeBody(Buffer.from(await collect(chunks)));
      if (bodies.size >= KEPT_BODIES) bodies.delete(bodies.keys().next().value!);
      bodies.set(key, body);
      return sendRange(deps, request, reply, units, format, body, false);
    },
  );

  app.get<{ Params: { base_currency: string }; Querystring: RangeQueryString }>(
    '/v1/fluctuation/:base_currency',
    { schema: { params, querystring: Type.Object(RangeQuery) }, config: { endpoint: 'fluctuation' } },
    async (request, reply) => {
      const base = historyCurrency('base_currency', request.params.base_currency);
      const q = request.query;
      const { start, end } = rangeParams(q.start, q.end, utcDay(deps.now()));
      const symbols = symbolsParam(q.symbols);
      const format = rangeFormat(q.format, request.headers.accept);
      const [from, to] = [await deps.history.day(start), await deps.history.day(end)];
      const changes = fluctuationRows(from, to, base, symbols);
      // No currency with a rate on both days is as empty as no base: nothing to answer, nothing charged (D16).
      if (!changes || changes.length === 0) throw new ApiError('no_fresh_rate', `no rate available for ${base} on both ${start} and ${end}`);
      const units = rangeUnits(start, end);
      if (format === 'json') return sendRange(deps, request, reply, units, format, fluctuationBody(base, start, end, changes), false);
      const rows: DayRow[] = [[start, changes.map((c) => [c.code, c.startRate])], [end, changes.map((c) => [c.code, c.endRate])]];
      return sendRange(deps, request, reply, units, format, rangeChunks(rows, format, base, ''), false);
    },
  );
}
