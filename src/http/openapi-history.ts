// OpenAPI entries of the history endpoints (D14–D16), merged into ROUTE_DOCS (which checks their
// type; this file does not import openapi.ts, so no import circle).
import { Type, type TSchema } from '@sinclair/typebox';
import { RANGE_DAYS } from './charged.js';
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
const RANGE_TEXT = `Costs 1 point per started ${RANGE_DAYS} days of start..end (a year is 12), charged before the first byte; ranges over 366 days stream. `
  + 'The first entry is the start day, with the figures in force on it (a weekend or holiday answers the last figures before it, as the dated endpoints do). '
  + 'A range with no figure at all is 404 `no_fresh_rate` and costs nothing (D16). '
  + 'An answer built whole carries a strong `ETag`, and If-None-Match with it is a 304 that costs nothing; a streamed answer (over 366 days, and for /v1/timeseries more than 10 `symbols` or none) has no ETag: its headers leave before its body exists. '
  + '503 `unavailable` with `Retry-After` while the days of the range are still being materialised.';

const BANK_CSV = 'date,currency,rate,unit\n2008-09-15,USD,0.70047632,EUR per USD\n';
const BANK_NDJSON = '{"date":"2008-09-15","base":"EUR","currency":"USD","rate":0.70047632,"unit":"EUR per USD"}\n';

/** A range answer in its three media types. */
const ranged = (json: TSchema, csv = 'date,currency,rate\n2008-09-15,USD,1.4276\n', ndjson = '{"date":"2008-09-15","base":"EUR","currency":"USD","rate":1.4276}\n') => ({
  content: {
    'application/json': { schema: json },
    'text/csv': { schema: Type.String({ examples: [csv] }) },
    'application/x-ndjson': { schema: Type.String({ examples: [ndjson] }) },
  },
});

export const HISTORY_DOCS = {
  'GET /v1/:base_currency/:date(^.*\\d.*$)': {
    summary: 'Rates on a past day', tag: 'rates' as const, ok: DayRates, keyed: true, cached: true, errors: [404, 422],
    fields: { base_currency: BASE, date: DATE, amount: AMOUNT },
    description: 'The blended rates of the day: the market at 4 pm in London from every figure whose bank_update falls on or before it, with freshness (D10) measured from it. '
      + 'A weekend or holiday answers the last figures before it; 404 `no_fresh_rate` when the base had no fresh rate then; 422 for a malformed or future date. Plan endpoint `history`.',
  },
  'GET /v1/timeseries/:base_currency': {
    summary: 'Blended rates over a range', tag: 'rates' as const, ok: ranged(Timeseries), keyed: true, cached: true, errors: [404, 422, 503],
    fields: { base_currency: BASE, ...RANGE },
    description: 'One entry per day on which a source contributing to a requested rate published, values as on /v1/{base}/{date}: '
      + 'units of the currency per 1 unit of `base`, in every format (`{"date":"2008-09-15","base":"EUR","currency":"USD","rate":1.4276}` is 1.4276 USD per EUR). '
      + `${RANGE_TEXT} Plan endpoint \`timeseries\`.`,
  },
  'GET /v1/fluctuation/:base_currency': {
    summary: 'Change of rates over a range', tag: 'rates' as const, ok: ranged(Fluctuation), keyed: true, cached: true, errors: [404, 422],
    fields: { base_currency: BASE, start: RANGE.start, end: RANGE.end, symbols: RANGE.symbols, format: RANGE.format },
    description: `Per currency the rate (units of it per 1 unit of \`base\`) on start and on end, the change and the change in percent; 404 \`no_fresh_rate\` when no currency has a rate on both days. CSV and NDJSON list both days' rates. ${RANGE_TEXT} Plan endpoint \`fluctuation\`.`,
  },
  'GET /v1/bank/:bank_code/timeseries': {
    summary: 'One bank\'s own figures over a range', tag: 'banks' as const, ok: ranged(BankTimeseries, BANK_CSV, BANK_NDJSON), keyed: true, cached: true, errors: [404, 422],
    fields: {
      bank_code: { description: 'four-letter code from /v1/banks, any case (D9)', example: 'ECBF' }, ...RANGE,
      symbols: { description: 'comma-separated codes the bank publishes (metals included), at most 500', example: 'USD,JPY' },
      reciprocal: { description: '`true`/`1`: units of each currency per 1 unit of the bank\'s base; default the other way (D8)', example: 'true' },
    },
    description: 'Per date the bank published, its figures. By default (D8) each value is units of the bank\'s base per 1 unit of the currency, the other way round from /v1/timeseries: '
      + 'from ECBF `{"date":"2008-09-15","base":"EUR","currency":"USD","rate":0.70047632,"unit":"EUR per USD"}`; with `reciprocal=true`, units of the currency per 1 unit of the base (`"rate":1.4276,"unit":"USD per EUR"`). '
      + 'Every format names the direction: `unit` in the JSON envelope (`EUR per currency`), a CSV column and an NDJSON field. '
      + 'The direction the bank publishes keeps its own digits (the ECB publishes units per 1 EUR, so `reciprocal=true` is its own figures); the other is computed to 8 significant digits (D6). '
      + `${RANGE_TEXT} Plan endpoint \`timeseries\`.`,
  },
};
