// Provenance, an opt-in extension (never a change to the spec's shapes): for a blended pair, each
// leg's contributing banks with their published figure, date, weight and exclusion.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { toDecimal, type BlendedRate } from '../../blend/blend.js';
import { utcDay } from '../../time/days.js';
import { toRateText } from '../../money/decimal.js';
import { Num, stringify } from '../../money/json.js';
import type { AppDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { knownCurrency } from '../params.js';
import { sendCharged } from '../reply.js';

/** Weights are shares of the blend; six places say enough about them. */
const WEIGHT_PLACES = 6;

function leg(rate: BlendedRate) {
  const method = rate.peg ? 'peg' : rate.currency === 'USD' ? 'pivot' : 'blend';
  return {
    currency: rate.currency,
    method,
    per_usd: new Num(toRateText(rate.perUsd)),
    ...(rate.peg ? { peg: { anchor: rate.peg.anchor, rate: new Num(toRateText(rate.peg.rate)), authority: rate.peg.authority } } : {}),
    sources: rate.contributions.map((c) => ({
      bank_code: c.source,
      published: new Num(c.published),
      direction: c.direction,
      date: c.date,
      bank_update: c.bankUpdate,
      per_usd: new Num(toRateText(toDecimal(c.perUsd))),
      weight: new Num(toDecimal(c.weight).toDecimalPlaces(WEIGHT_PLACES).toString()),
      excluded: c.excluded || null,
      bridge: c.bridge ?? null,
    })),
  };
}

export function provenanceRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Params: { base_currency: string; target_currency: string } }>(
    '/v1/rate/:base_currency/:target_currency/sources',
    { schema: { params: Type.Object({ base_currency: Type.String(), target_currency: Type.String() }) }, config: { endpoint: 'rate' } },
    async (request, reply) => {
      const base = knownCurrency('base_currency', request.params.base_currency);
      const target = knownCurrency('target_currency', request.params.target_currency);
      const rates = deps.market.current.rates;
      const pair = rates.pair(base, target);
      if (!pair) throw new ApiError('no_fresh_rate', `no rate available for ${base}/${target}`);
      const today = utcDay(deps.now());
      const body = stringify({
        code: 200, message: 'success', base, target, rate: new Num(pair.text), last_update: pair.lastUpdate,
        fresh: rates.isFresh(base, today) && rates.isFresh(target, today),
        legs: [leg(rates.get(base)!), leg(rates.get(target)!)],
      });
      return sendCharged(deps.meter, request, reply, deps.pointsCost.rate, body, pair.lastUpdate);
    },
  );
}
