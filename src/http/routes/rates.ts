// The blended-rate endpoints: latest, pair conversion and bulk conversion (docs/api.md).
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { utcDay } from '../../time/days.js';
import type { RouteDeps } from '../deps.js';
import { dayParam, historyCurrency } from '../history-params.js';
import { installFlatJsonParser } from '../flat-json.js';
import { amountOf } from '../params.js';
import { AMOUNT_CHARS, type Answer, CONVERT_ROUTE, MAX_TARGETS, convertAnswer, FIELD_CHARS, type ConvertInput, LATEST_ROUTE, latestAnswer, pairAnswer, RATE_ROUTE, rateAnswer } from '../answers.js';
import { replayBody } from '../replay.js';
import { sendCharged } from '../charged.js';

const AmountQuery = Type.Object({ amount: Type.Optional(Type.String()), api_key: Type.Optional(Type.String()) });
/** D14: `date` asks for the rates of that day (4 pm in London, from the figures published by its end). */
const RateQuery = Type.Object({ amount: Type.Optional(Type.String()), date: Type.Optional(Type.String()), api_key: Type.Optional(Type.String()) });
const ConvertBody = Type.Object({
  base: Type.String({ maxLength: FIELD_CHARS }),
  amount: Type.Optional(Type.Union([Type.Number(), Type.String({ maxLength: AMOUNT_CHARS })])),
  targets: Type.Array(Type.String({ maxLength: FIELD_CHARS }), { minItems: 1, maxItems: MAX_TARGETS }),
  date: Type.Optional(Type.String({ maxLength: FIELD_CHARS })),
  // D17's rule for the body: an unknown (misspelt) field is a 422, never silently ignored.
}, { additionalProperties: false });

/** D14: the pair as it stood at the end of `day`; codes as history knows them (defunct ones too). */
async function datedRate(deps: RouteDeps, day: string, rawBase: string, rawTarget: string, rawAmount: string | undefined): Promise<Answer> {
  const base = historyCurrency('base_currency', rawBase);
  const target = historyCurrency('target_currency', rawTarget);
  const amount = amountOf(rawAmount, 'invalid_parameter');
  return pairAnswer(await deps.history.day(day), day, base, target, amount);
}

export function rateRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const today = () => utcDay(deps.now());

  app.get<{ Params: { base_currency: string }; Querystring: { amount?: string } }>(
    LATEST_ROUTE,
    { schema: { params: Type.Object({ base_currency: Type.String() }), querystring: AmountQuery }, config: { endpoint: 'latest' } },
    async (request, reply) => {
      const { body, lastUpdate } = latestAnswer(deps.market.current.rates, today(), request.params.base_currency, request.query.amount);
      return sendCharged(deps, request, reply, body, lastUpdate);
    },
  );

  app.get<{ Params: { base_currency: string; target_currency: string }; Querystring: { amount?: string; date?: string } }>(
    RATE_ROUTE,
    {
      schema: { params: Type.Object({ base_currency: Type.String(), target_currency: Type.String() }), querystring: RateQuery },
      config: { endpoint: 'rate' },
    },
    async (request, reply) => {
      const { params, query } = request;
      const dated = query.date === undefined ? undefined : dayParam('date', query.date, today());
      const { body, lastUpdate } = dated
        ? await datedRate(deps, dated, params.base_currency, params.target_currency, query.amount)
        : rateAnswer(deps.market.current.rates, today(), params.base_currency, params.target_currency, query.amount);
      return sendCharged(deps, request, reply, body, lastUpdate);
    },
  );

  // The bulk conversion's body, read from its bytes (flat-json.ts). This sets the JSON parser of the
  // scope the routes are registered in; it gives JSON.parse's value or defers to Fastify's parser.
  installFlatJsonParser(app);
  app.post<{ Body: ConvertInput }>(
    CONVERT_ROUTE,
    // The fast lane may have read the body already (fast-lane.ts): it is read again from its bytes.
    { schema: { body: ConvertBody }, config: { endpoint: 'convert' }, preParsing: replayBody },
    async (request, reply) => {
      const { body, lastUpdate, units } = await convertAnswer(deps.market.current.rates, deps.history, today(), request.body);
      return sendCharged(deps, request, reply, body.body, lastUpdate, units);
    },
  );
}
