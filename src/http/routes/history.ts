// History of one day (D14): `GET /v1/{base}/{date}`, the blended rates as they stood at its end.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { utcDay } from '../../time/days.js';
import { dayAnswer, HISTORY_DAY_ROUTE } from '../answers.js';
import type { RouteDeps } from '../deps.js';
import { sendCharged } from '../charged.js';

export function historyRoutes(app: FastifyInstance, deps: RouteDeps): void {
  app.get<{ Params: { base_currency: string; date: string }; Querystring: { amount?: string } }>(
    HISTORY_DAY_ROUTE,
    {
      schema: {
        params: Type.Object({ base_currency: Type.String(), date: Type.String() }),
        querystring: Type.Object({ amount: Type.Optional(Type.String()), api_key: Type.Optional(Type.String()) }),
      },
      config: { endpoint: 'history' },
    },
    async (request, reply) => {
      const { params, query } = request;
      const { body, lastUpdate } = await dayAnswer(deps.history, utcDay(deps.now()), params.base_currency, params.date, query.amount);
      return sendCharged(deps, request, reply, body, lastUpdate);
    },
  );
}
