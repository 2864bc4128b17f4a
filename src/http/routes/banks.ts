// Bank rates, the bank list and the currency list (docs/api.md).
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { utcDay } from '../../time/days.js';
import { currencyInfo } from '../../currencies/iso4217.js';
import { stringify } from '../../money/json.js';
import { bankListing } from '../../rates/bank-list.js';
import { bankBody } from '../bodies/bank.js';
import { entity, type Entity, successOf } from '../bodies/entity.js';
import type { MarketSnapshot } from '../../rates/market.js';
import type { RatesTable } from '../../rates/table.js';
import { bankTableOn } from '../../rates/bank-day.js';
import { LOOKBACK_DAYS } from '../../blend/freshness.js';
import { bankSource } from '../bank-source.js';
import type { RouteDeps } from '../deps.js';
import { dayParam } from '../history-params.js';
import { ApiError } from '../errors.js';
import { bankCode, booleanFlag } from '../params.js';
import { sendCharged } from '../charged.js';

export function bankRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const banksBody = entity(stringify(successOf({
    banks: [...deps.sources]
      .sort((a, b) => (a.code < b.code ? -1 : 1))
      .map((s) => ({ country_code: s.countryCode, country_name: s.countryName, bank_code: s.code, currency: s.currency, bank_name: s.name })),
  })));
  const currencyBodies = new WeakMap<RatesTable, Entity>();
  // The full list changes when data lands (a new market snapshot) or the day turns (current → stale).
  const fullBodies = new WeakMap<MarketSnapshot, { day: string; body: Promise<Entity> }>();
  const fullBody = (market: MarketSnapshot, day: string): Promise<Entity> => {
    const cached = fullBodies.get(market);
    if (cached?.day === day) return cached.body;
    const body = deps.store.sourceHealth().then((health) => {
      const held = new Map(health.map((h) => [h.source, h]));
      const banks = [...deps.sources]
        .sort((a, b) => (a.code < b.code ? -1 : 1))
        .map((s) => bankListing(s, held.get(s.code), market.banks.get(s.code)?.rows.map((r) => r.currency) ?? [], day, deps.market.graceDays, market.quality));
      return entity(stringify(successOf({ banks })));
    });
    // A failed health query is not kept: the next request asks again.
    body.catch(() => fullBodies.delete(market));
    fullBodies.set(market, { day, body });
    return body;
  };

  app.get<{ Params: { bank_code: string }; Querystring: { format?: string; reciprocal?: string; date?: string } }>(
    '/v1/bank/:bank_code',
    {
      schema: {
        params: Type.Object({ bank_code: Type.String() }),
        querystring: Type.Object({ format: Type.Optional(Type.String()), reciprocal: Type.Optional(Type.String()), date: Type.Optional(Type.String()), api_key: Type.Optional(Type.String()) }),
      },
      config: { endpoint: 'bank' },
    },
    async (request, reply) => {
      const code = bankCode(request.params.bank_code);
      const { format } = request.query;
      if (format !== undefined && format !== 'full') throw ApiError.invalid('invalid_parameter', [{ field: 'format', message: 'must be "full" or omitted' }]);
      const reciprocal = booleanFlag('reciprocal', request.query.reciprocal);
      const day = request.query.date === undefined ? undefined : dayParam('date', request.query.date, utcDay(deps.now()));
      const source = bankSource(deps.sources, deps.off ?? [], code);
      // D14: with `date`, the bank's figures as they stood at the end of that day; a period source's
      // (D21), the figures in force that day.
      const table = day ? await bankTableOn(deps.store, source, day) : deps.market.current.banks.get(source.code);
      if (day && table?.rows.length === 0) {
        throw new ApiError('no_fresh_rate', source.periodRates ? `no period of ${source.code} covers ${day}; GET /v1/banks?format=full gives its first_date and newest_valid_to` : `${source.code} had published no rates in the ${LOOKBACK_DAYS} days up to ${day}`);
      }
      if (!table || table.rows.length === 0) throw new ApiError('not_found', `no rates have been ingested for ${source.code} yet`);
      return sendCharged(deps, request, reply, bankBody(table, { full: format === 'full', reciprocal }), table.lastUpdate);
    },
  );

  app.get<{ Querystring: { format?: string } }>(
    '/v1/banks',
    {
      schema: { querystring: Type.Object({ format: Type.Optional(Type.String()), api_key: Type.Optional(Type.String()) }) },
      config: { endpoint: 'banks' },
    },
    async (request, reply) => {
      const { format } = request.query;
      if (format === undefined) return sendCharged(deps, request, reply, banksBody);
      if (format !== 'full') throw ApiError.invalid('invalid_parameter', [{ field: 'format', message: 'must be "full" or omitted' }]);
      const body = await fullBody(deps.market.current, utcDay(deps.now()));
      return sendCharged(deps, request, reply, body);
    },
  );

  app.get('/v1/currencies', { config: { endpoint: 'currencies' } }, async (request, reply) => {
    // "Every currency Kurs can quote": the active currencies the current table holds a rate for.
    const rates = deps.market.current.rates;
    let body = currencyBodies.get(rates);
    if (body === undefined) {
      const currencies = rates.codes.flatMap((code) => {
        const info = currencyInfo(code);
        return info ? [{ country_code: info.countryCode, country_name: info.countryName, currency: code }] : [];
      });
      body = entity(stringify(successOf({ currencies })));
      currencyBodies.set(rates, body);
    }
    return sendCharged(deps, request, reply, body);
  });
}
