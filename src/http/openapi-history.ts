// OpenAPI entries of the history endpoints (D14–D16), merged into ROUTE_DOCS (which checks their
// type; this file does not import openapi.ts, so no import circle).
import { DayRates } from './history-schemas.js';

const DATE = { description: 'UTC day `YYYY-MM-DD`, not after today (D14)', example: '2008-09-15' };
const AMOUNT = { description: 'positive decimal up to 1e15 (`12.50`, `1e3`); default 1 (D5)', example: '100' };

export const HISTORY_DOCS = {
  'GET /v1/:base_currency/:date(^.*\\d.*$)': {
    summary: 'Rates on a past day', tag: 'rates' as const, ok: DayRates, keyed: true, cached: true, errors: [404, 422],
    fields: { base_currency: { description: 'three-letter ISO 4217 code, any case; defunct codes (DEM, PTE …) on days they were current', example: 'EUR' }, date: DATE, amount: AMOUNT },
    description: 'The blended rates as they stood at the end of the day: every figure whose bank_update falls on or before it, with freshness (D10) measured from it. '
      + 'A weekend or holiday answers the last figures before it; 404 `no_fresh_rate` when the base had no fresh rate then; 422 for a malformed or future date. Plan endpoint `history`.',
  },
};
