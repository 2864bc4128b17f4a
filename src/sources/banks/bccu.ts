// Banco Central de Cuba exchange rates from its JSON API: one currency per history call, a row per
// day with three official series: tasaOficial (segment I, USD fixed at 24), tasaPublica (segment II,
// USD at 120) and tasaEspecial (segment III, the floating rate the bank sets day by day).
import { type Direction, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, isoCode, parseJsonKeepingDigits } from '../read.js';

const CODE = 'BCCU';
const PATH = '/v1/tasas-de-cambio/historico';
// The 13 currencies the API quotes (2026). One the bank adds is missed until listed here.
const CURRENCIES = 'AUD CAD CHF CNY DKK EUR GBP JPY MXN NOK RUB SEK USD'.split(' ');
// The payload does not say its currency; the request does: …/historico?codigoMoneda=EUR&… (live)
// or bcc-historico-EUR-<from>_<to>.json (recorded).
const CURRENCY_IN_NAME = /\/historico\?(?:[^#]*&)?codigoMoneda=([A-Za-z]{3})(?:&|$)|(?:^|\/)bcc-historico-([A-Z]{3})-[^/]*\.json$/;
// Trailing zeros of these JSON numbers are the bank's digits (quoted before JSON.parse sees them).
const FIELDS = ['tasaOficial', 'tasaPublica', 'tasaEspecial'];

const fail: (message: string) => never = failFor(CODE);

/**
 * CUP per unit for every currency but the yen, which the API gives the other way round: JPY per
 * CUP. tasaOficial 6.62396 on 2026-05-19 is 159 JPY/USD over 24 CUP/USD; all 13 currencies were
 * checked against the USD crosses of that day (SOURCE.md).
 */
const directionOf = (quote: string): Direction => (quote === 'JPY' ? 'indirect' : 'direct');

export const source: SyncSource = {
  code: CODE,
  name: 'Banco Central de Cuba',
  countryCode: 'CU',
  countryName: 'Cuba',
  currency: 'CUP',
  cadence: 'daily',
  schedule: '*/30 4-6 * * *',
  // No release time is documented; the observed polling window opens at 04:00 UTC (23:00 the evening
  // before in Havana on standard time, CST = UTC-5), so a day's rates are taken as published by then.
  publishedAtUtc: '04:00:00',
  // The latest rates of all 13 currencies; the adapter reads the history calls, which name their currency.
  feedUrl: 'https://api.bc.gob.cu/v1/tasas-de-cambio/activas',
  baseUrl: 'https://api.bc.gob.cu',
  // SOURCE.md names no terms page; this is the bank's site.
  termsUrl: 'https://www.bc.gob.cu/',
  terms: 'unknown',
  grade: 'A',
  accepts(name) {
    return CURRENCY_IN_NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const m = CURRENCY_IN_NAME.exec(payload.name);
    const quote = isoCode(fail, m?.[1] ?? m?.[2], `${payload.name} (the currency is only in the request)`);
    const rows = parseJsonKeepingDigits(CODE, payload.name, payload.body.toString('utf8'), FIELDS);
    if (!Array.isArray(rows)) fail(`${payload.name} is not an array of days`);
    if (rows.length === 0) fail(`${payload.name} holds no rates`);
    return rows.map((row: unknown): Observation => {
      const { fecha, tasaEspecial } = (typeof row === 'object' && row !== null ? row : {}) as Record<string, unknown>;
      if (typeof fecha !== 'string' || !isIsoDate(fecha)) fail(`bad ${quote} fecha ${JSON.stringify(fecha)}`);
      // Ingest keeps one figure per currency and day, so one series is read: segment III, the one the
      // bank floats with the market. Segments I and II are set administratively (USD at 24 and 120)
      // for particular uses. Frankfurter relays the same series.
      const rate = decimalOf(fail, tasaEspecial, `${quote} tasaEspecial on ${fecha}`);
      return { date: fecha, quote, rate, unit: 1, direction: directionOf(quote) };
    });
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // Any range in one call, but only one currency per call.
    return CURRENCIES.map((c) => ({ url: `${ctx.base}${PATH}?codigoMoneda=${c}&fechaInicio=${window.from}&fechaFin=${window.to}` }));
  },
};
