// History of one day (D14): `GET /v1/{base}/{date}`, the blended rates as they stood at its end.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { utcDay } from '../../time/days.js';
import { dayBody } from '../../history/bodies.js';
import type { RouteDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { dayParam, historyCurrency } from '../history-params.js';
import { amountOf } from '../params.js';
import { sendCharged } from '../reply.js';

export const HISTORY_DAY_ROUTE = '/v1/:base_currency/:date(^.*\\d.*$)';

export function historyRoutes(app: FastifyInstance, deps: RouteDeps): void {
  app.get<{ Params: { base_currency: string; date: string }; Querystring: { amount?: string } }>(
    // A date holds a digit: `/v1/rates/convert` and other words stay unknown routes (404/405).
    HISTORY_DAY_ROUTE,
    {
      schema: {
        params: Type.Object({ base_currency: Type.String(), date: Type.String() }),
        querystring: Type.Object({ amount: Type.Optional(Type.String()), api_key: Type.Optional(Type.String()) }),
      },
      config: { endpoint: 'history' },
    },
    async (request, reply) => {
      const base = historyCurrency('base_currency', request.params.base_currency);
      const day = dayParam('date', request.params.date, utcDay(deps.now()));
      const amount = amountOf(request.query.amount, 'invalid_parameter');
      const table = await deps.history.day(day);
      const body = dayBody(table, base, day, amount);
      if (!body) throw new ApiError('no_fresh_rate', `no rate available for ${base} on ${day}`);
      return sendCharged(deps.meter, request, reply, deps.pointsCost.history, body, table.newestUpdate);
    },
  );
}
