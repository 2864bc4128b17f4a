// The blended-rate endpoints: latest, pair conversion and bulk conversion (spec 4.2–4.4).
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { utcDay } from '../../blend/freshness.js';
import { isActiveCurrency } from '../../currencies/iso4217.js';
import { convert, Decimal } from '../../money/decimal.js';
import { Num, stringify } from '../../money/json.js';
import type { RatesTable } from '../../rates/table.js';
import type { AppDeps } from '../app.js';
import { ApiError } from '../errors.js';
import { amountOf, currencyProblem, knownCurrency } from '../params.js';
import { sendCharged } from '../reply.js';

/** D13: at most this many targets in one bulk conversion. */
export const MAX_TARGETS = 500;

const ONE = new Decimal(1);

const AmountQuery = Type.Object({ amount: Type.Optional(Type.String()), api_key: Type.Optional(Type.String()) });
const ConvertBody = Type.Object({
  base: Type.String({ maxLength: 16 }),
  amount: Type.Optional(Type.Union([Type.Number(), Type.String({ maxLength: 64 })])),
  targets: Type.Array(Type.String({ maxLength: 16 }), { minItems: 1, maxItems: MAX_TARGETS }),
});

function noRate(base: string, target?: string): ApiError {
  return new ApiError('no_fresh_rate', target ? `no fresh rate for ${base}/${target}` : `no rate available for ${base}`);
}

export function rateRoutes(app: FastifyInstance, deps: AppDeps): void {
  const today = () => utcDay(deps.now());

  app.get<{ Params: { base_currency: string }; Querystring: { amount?: string } }>(
    '/v1/:base_currency/latest',
    { schema: { params: Type.Object({ base_currency: Type.String() }), querystring: AmountQuery }, config: { endpoint: 'latest' } },
    async (request, reply) => {
      const base = knownCurrency('base_currency', request.params.base_currency);
      const amount = amountOf(request.query.amount, 'invalid_parameter');
      const rates = deps.market.current.rates;
      const plain = rates.latestBody(base);
      if (plain === undefined) throw noRate(base);
      const body = amount === undefined ? plain : latestWithAmount(rates, base, amount);
      return sendCharged(deps.meter, request, reply, deps.pointsCost.latest, body, rates.newestUpdate);
    },
  );

  app.get<{ Params: { base_currency: string; target_currency: string }; Querystring: { amount?: string } }>(
    '/v1/rate/:base_currency/:target_currency',
    {
      schema: { params: Type.Object({ base_currency: Type.String(), target_currency: Type.String() }), querystring: AmountQuery },
      config: { endpoint: 'rate' },
    },
    async (request, reply) => {
      const base = knownCurrency('base_currency', request.params.base_currency);
      const target = knownCurrency('target_currency', request.params.target_currency);
      const amount = amountOf(request.query.amount, 'invalid_parameter');
      const rates = deps.market.current.rates;
      const day = today();
      const pair = rates.isFresh(base, day) && rates.isFresh(target, day) ? rates.pair(base, target) : undefined;
      if (!pair) throw noRate(base, target);
      const amountText = amount ? amount.toString() : '1';
      const body = stringify({
        code: 200, message: 'success', base, target, rate: new Num(pair.text), amount: new Num(amountText),
        converted: new Num(amount ? convert(amount, pair.text) : pair.text), last_update: pair.lastUpdate,
      });
      return sendCharged(deps.meter, request, reply, deps.pointsCost.rate, body, pair.lastUpdate);
    },
  );

  app.post<{ Body: { base: string; amount?: number | string; targets: string[] } }>(
    '/v1/rates/convert',
    { schema: { body: ConvertBody }, config: { endpoint: 'convert' } },
    async (request, reply) => {
      const { body } = request;
      const baseProblem = currencyProblem('base', body.base);
      const targetProblems = body.targets.flatMap((t, i) => currencyProblem(`targets[${i}]`, t) ?? []);
      if (baseProblem || targetProblems.length > 0) throw ApiError.invalid('invalid_body', [...(baseProblem ? [baseProblem] : []), ...targetProblems]);
      const base = body.base.toUpperCase();
      if (!isActiveCurrency(base)) throw ApiError.invalid('invalid_body', [{ field: 'base', message: `${base} is not a currency Kurs quotes` }]);
      const amount = amountOf(body.amount, 'invalid_body');
      const rates = deps.market.current.rates;
      const day = today();
      const out: Record<string, { rate: Num; converted: Num; last_update: string }> = {};
      const missing: string[] = [];
      let newest: string | undefined;
      for (const raw of body.targets) {
        const target = raw.toUpperCase();
        if (out[target] || missing.includes(target)) continue;
        const pair = isActiveCurrency(target) && rates.isFresh(base, day) && rates.isFresh(target, day) ? rates.pair(base, target) : undefined;
        if (!pair) {
          missing.push(target);
          continue;
        }
        out[target] = { rate: new Num(pair.text), converted: new Num(convert(amount ?? ONE, pair.text)), last_update: pair.lastUpdate };
        if (newest === undefined || pair.lastUpdate > newest) newest = pair.lastUpdate;
      }
      const json = stringify({ code: 200, message: 'success', base, amount: new Num(amount ? amount.toString() : '1'), rates: out, missing });
      return sendCharged(deps.meter, request, reply, deps.pointsCost.convert, json, newest);
    },
  );
}


function latestWithAmount(rates: RatesTable, base: string, amount: Decimal): string {
  const out: Record<string, { rate: Num; converted: Num }> = {};
  for (const code of rates.codes) {
    const text = rates.pair(base, code)!.text;
    out[code] = { rate: new Num(text), converted: new Num(convert(amount, text)) };
  }
  return stringify({ code: 200, message: 'success', rates: out });
}
