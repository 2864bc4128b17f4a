// A bank's own figures over a range (D15): `GET /v1/bank/{code}/timeseries`, in the directions of D8
// (the published one in the bank's digits), priced per started 31 days (D16), in JSON, CSV or NDJSON.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { utcDay } from '../../time/days.js';
import { bankSeries } from '../../history/bank-series.js';
import { rangeChunks } from '../bodies/range.js';
import { groupMeansAsync } from '../../history/group.js';
import { bankSource } from '../bank-source.js';
import type { RouteDeps } from '../deps.js';
import { RANGE_DAYS, rangeUnits } from '../charged.js';
import { rangeFormat, rangeParams, symbolsParam } from '../history-params.js';
import { bankCode, booleanFlag } from '../params.js';
import { noFigures, nonEmpty, sendRange, STREAM_AFTER_DAYS } from '../range-reply.js';
import { groupParam } from './timeseries.js';

const Query = Type.Object({
  start: Type.String(),
  end: Type.String(),
  symbols: Type.Optional(Type.String()),
  group: Type.Optional(Type.String()),
  format: Type.Optional(Type.String()),
  reciprocal: Type.Optional(Type.String()),
  api_key: Type.Optional(Type.String()),
});

export function bankTimeseriesRoutes(app: FastifyInstance, deps: RouteDeps): void {
  app.get<{ Params: { bank_code: string }; Querystring: { start?: string; end?: string; symbols?: string; group?: string; format?: string; reciprocal?: string } }>(
    '/v1/bank/:bank_code/timeseries',
    { schema: { params: Type.Object({ bank_code: Type.String() }), querystring: Query }, config: { endpoint: 'timeseries' } },
    async (request, reply) => {
      const code = bankCode(request.params.bank_code);
      const q = request.query;
      const { start, end } = rangeParams(q.start, q.end, utcDay(deps.now()));
      const symbols = symbolsParam(q.symbols, true);
      const group = groupParam(q.group);
      const reciprocal = booleanFlag('reciprocal', q.reciprocal);
      const format = rangeFormat(q.format, request.headers.accept);
      const source = bankSource(deps.sources, deps.off ?? [], code);
      const days = bankSeries(deps.store, source, { start, end, symbols, reciprocal });
      const rows = await nonEmpty(group ? groupMeansAsync(days, group) : days);
      if (!rows) throw noFigures(source.code, start, end);
      const units = rangeUnits(start, end);
      // D8's default is units of the base per 1 unit of each currency, the other way round from
      // /v1/timeseries: every format says which way it reads.
      const base = source.currency;
      const unit = reciprocal ? (c: string) => `${c} per ${base}` : (c: string) => `${base} per ${c}`;
      const head = `"bank_code":"${source.code}","base":"${base}","unit":"${unit('currency')}","start":"${start}","end":"${end}"`;
      const chunks = rangeChunks(rows, format, base, head, unit);
      return sendRange(deps, request, reply, units, format, chunks, units * RANGE_DAYS > STREAM_AFTER_DAYS);
    },
  );
}
