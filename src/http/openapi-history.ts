// OpenAPI entries of the history endpoints (D14–D16), merged into ROUTE_DOCS (which checks their
// type; this file does not import openapi.ts, so no import circle).
import { Type, type TSchema } from '@sinclair/typebox';
import { BankTimeseries, DayRates, Fluctuation, Timeseries } from './history-schemas.js';

const DATE = { description: 'UTC day `YYYY-MM-DD`, not after today (D14)', example: '2008-09-15' };
const AMOUNT = { description: 'positive decimal up to 1e15 (`12.50`, `1e3`); default 1 (D5)', example: '100' };
const BASE = { description: 'three-letter ISO 4217 code, any case; defunct codes (DEM, PTE …) on days they were current', example: 'EUR' };
const RANGE = {
  start: { description: 'first day, `YYYY-MM-DD` (required)', example: '2008-01-01' },
  end: { description: 'last day, `YYYY-MM-DD`, not after today (required); no maximum length', example: '2008-12-31' },
  symbols: { description: 'comma-separated currency codes, at most 500; all when omitted', example: 'USD,JPY' },
  group: { description: '`week` or `month`: the mean of each ISO week\'s or calendar month\'s daily values', example: 'month' },
  format: { description: '`csv` (`date,currency,rate`) or `ndjson` (`{"date","base","currency","rate"}` per line); also chosen by `Accept`; JSON by default', example: 'csv' },
};
const RANGE_TEXT = 'Costs 1 point per started 31 days of start..end (a year is 12), charged before the first byte; ranges over 366 days stream. '
  + '503 `unavailable` with `Retry-After` while the days of the range are still being materialised.';

/** A range answer in its three media types. */
const ranged = (json: TSchema) => ({
  content: {
    'application/json': { schema: json },
    'text/csv': { schema: Type.String({ examples: ['date,currency,rate\n2008-09-15,USD,1.4276\n'] }) },
    'application/x-ndjson': { schema: Type.String({ examples: ['{"date":"2008-09-15","base":"EUR","currency":"USD","rate":1.4276}\n'] }) },
  },
});

export const HISTORY_DOCS = {
  'GET /v1/:base_currency/:date(^.*\\d.*$)': {
    summary: 'Rates on a past day', tag: 'rates' as const, ok: DayRates, keyed: true, cached: true, errors: [404, 422],
    fields: { base_currency: BASE, date: DATE, amount: AMOUNT },
    description: 'The blended rates as they stood at the end of the day: every figure whose bank_update falls on or before it, with freshness (D10) measured from it. '
      + 'A weekend or holiday answers the last figures before it; 404 `no_fresh_rate` when the base had no fresh rate then; 422 for a malformed or future date. Plan endpoint `history`.',
  },
  'GET /v1/timeseries/:base_currency': {
    summary: 'Blended rates over a range', tag: 'rates' as const, ok: ranged(Timeseries), keyed: true, errors: [422, 503],
    fields: { base_currency: BASE, ...RANGE },
    description: `One entry per day on which a source contributing to a requested rate published, values as on /v1/{base}/{date}. ${RANGE_TEXT} Plan endpoint \`timeseries\`.`,
  },
  'GET /v1/fluctuation/:base_currency': {
    summary: 'Change of rates over a range', tag: 'rates' as const, ok: ranged(Fluctuation), keyed: true, errors: [404, 422],
    fields: { base_currency: BASE, start: RANGE.start, end: RANGE.end, symbols: RANGE.symbols, format: RANGE.format },
    description: `Per currency the rate on start and on end, the change and the change in percent. CSV and NDJSON list both days' rates. ${RANGE_TEXT} Plan endpoint \`fluctuation\`.`,
  },
  'GET /v1/bank/:bank_code/timeseries': {
    summary: 'One bank\'s own figures over a range', tag: 'banks' as const, ok: ranged(BankTimeseries), keyed: true, errors: [404, 422],
    fields: {
      bank_code: { description: 'four-letter code from /v1/banks, any case (D9)', example: 'ECBF' }, ...RANGE,
      symbols: { description: 'comma-separated codes the bank publishes (metals included), at most 500', example: 'USD,JPY' },
      reciprocal: { description: '`true`/`1`: units of each currency per 1 unit of the bank\'s base; default the other way (D8)', example: 'true' },
    },
    description: `Per date the bank published, its figures in its own digits (D8). ${RANGE_TEXT} Plan endpoint \`timeseries\`.`,
  },
};
