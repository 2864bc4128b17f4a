// Provenance, an opt-in extension (never a change to the spec's shapes): for a blended pair, each
// leg's contributing banks with their published figure and unit, date, weight, measured error and exclusion.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { toDecimal, type BlendedRate } from '../../blend/blend.js';
import { utcDay } from '../../time/days.js';
import { toRateText } from '../../money/decimal.js';
import { Num, stringify } from '../../money/json.js';
import { successOf } from '../bodies/entity.js';
import type { RouteDeps } from '../deps.js';
import { dayParam, historyCurrency } from '../history-params.js';
import { ApiError } from '../errors.js';
import { knownCurrency } from '../params.js';
import { sendCharged } from '../charged.js';

/** Weights are shares of the blend; six places say enough about them. */
const WEIGHT_PLACES = 6;

function leg(rate: BlendedRate) {
  const method = rate.peg ? 'peg' : rate.currency === 'USD' ? 'pivot' : 'blend';
  return {
    currency: rate.currency,
    method,
    per_usd: new Num(toRateText(rate.perUsd)),
    anchor: rate.anchor ?? null,
    earlier: new Num(toDecimal(rate.earlier ?? 0).toDecimalPlaces(WEIGHT_PLACES).toString()),
    ...(rate.peg ? { peg: { anchor: rate.peg.anchor, rate: new Num(toRateText(rate.peg.rate)), authority: rate.peg.authority } } : {}),
    sources: rate.contributions.map((c) => ({
      bank_code: c.source,
      published: new Num(c.published),
      direction: c.direction,
      unit: c.unit,
      date: c.date,
      bank_update: c.bankUpdate,
      per_usd: new Num(toRateText(toDecimal(c.perUsd))),
      weight: new Num(toDecimal(c.weight).toDecimalPlaces(WEIGHT_PLACES).toString()),
      // The source's measured error for this currency: a relative standard deviation (blend/quality.ts).
      error: new Num(toDecimal(c.error).toDecimalPlaces(WEIGHT_PLACES).toString()),
      excluded: c.excluded || null,
      bridge: c.bridge ?? null,
    })),
  };
}

/** D14: `date` explains a past day's pair (4 pm in London, from the figures published by its end). */
const SourcesQuery = Type.Object({ date: Type.Optional(Type.String()), api_key: Type.Optional(Type.String()) });

export function provenanceRoutes(app: FastifyInstance, deps: RouteDeps): void {
  app.get<{ Params: { base_currency: string; target_currency: string }; Querystring: { date?: string } }>(
    '/v1/rate/:base_currency/:target_currency/sources',
    { schema: { params: Type.Object({ base_currency: Type.String(), target_currency: Type.String() }), querystring: SourcesQuery }, config: { endpoint: 'rate' } },
    async (request, reply) => {
      const today = utcDay(deps.now());
      const day = request.query.date === undefined ? undefined : dayParam('date', request.query.date, today);
      // A past day knows the currencies current then (D14), defunct ones too.
      const code = day ? historyCurrency : knownCurrency;
      const base = code('base_currency', request.params.base_currency);
      const target = code('target_currency', request.params.target_currency);
      const rates = day ? await deps.history.explain(day) : deps.market.current.rates;
      const pair = rates.pair(base, target);
      if (!pair) throw new ApiError('no_fresh_rate', `no rate available for ${base}/${target}${day ? ` on ${day}` : ''}`);
      // A past day's rates are those fresh on it (D14); today's say whether both legs are fresh now.
      const fresh = day ? true : rates.isFresh(base, today) && rates.isFresh(target, today);
      const body = stringify(
        successOf({ base, target, ...(day ? { date: day } : {}), rate: new Num(pair.text), last_update: pair.lastUpdate, fresh, legs: [leg(rates.get(base)!), leg(rates.get(target)!)] }),
      );
      return sendCharged(deps, request, reply, body, pair.lastUpdate);
    },
  );
}
