// Bank of Canada daily exchange rates from the Valet API (group FX_RATES_DAILY): one observation row
// per business day, one FX{CCY}CAD series per currency, each value a decimal string of CAD per unit.
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, parseJson } from '../read.js';

const CODE = 'BCAN';
const SERIES = /^FX([A-Z]{3})CAD$/;
// valet/observations/group/FX_RATES_DAILY/json?… (live; under an overridden base the "valet" prefix is
// gone) or valet-FX_RATES_DAILY-….json (recorded). The group's /csv and /xml forms are not read here.
const NAME = /(^|\/)(valet[/-])?(observations[/-]group[/-])?FX_RATES_DAILY([/-]json\b|[^/]*\.json$)/;
// A request for a date range (start_date=…), as requests() sends, rather than the feed's recent=1.
const RANGED = /start_date[=-]/;

const fail: (message: string) => never = failFor(CODE);

export const source: SyncSource = {
  code: CODE,
  name: 'Bank of Canada',
  countryCode: 'CA',
  countryName: 'Canada',
  currency: 'CAD',
  cadence: 'daily',
  schedule: '*/30 20-22 * * 1-5',
  // Published by 16:30 ET; EST (UTC-5) gives 21:30 UTC. In summer (EDT) it is 20:30 UTC, an hour earlier.
  publishedAtUtc: '21:30:00',
  feedUrl: 'https://www.bankofcanada.ca/valet/observations/group/FX_RATES_DAILY/json?recent=1',
  baseUrl: 'https://www.bankofcanada.ca/valet',
  termsUrl: 'https://www.bankofcanada.ca/terms/',
  terms: 'attribution',
  // The terms ask that the Bank of Canada be named as the source of reproduced content.
  attribution: 'Source: Bank of Canada',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    const rows = typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>).observations : undefined;
    // Valet errors come back as JSON too ({"message": …}); they have no observations array.
    if (!Array.isArray(rows)) fail(`${payload.name} has no observations array`);
    // Valet lists business days only: a range of weekend days and holidays comes back with no rows.
    if (rows.length === 0 && RANGED.test(payload.name)) throw new NoPublication(CODE, `${payload.name} holds no rates: no business day in the range`);
    const out: Observation[] = [];
    for (const row of rows as unknown[]) {
      if (typeof row !== 'object' || row === null) fail('observation is not an object');
      const { d: date, ...series } = row as Record<string, unknown>;
      if (!isIsoDate(date)) fail(`bad observation date ${JSON.stringify(date)}`);
      for (const [id, cell] of Object.entries(series)) {
        const quote = SERIES.exec(id)?.[1];
        // The group may grow non-rate series; only FX{CCY}CAD are CAD per unit of a currency.
        if (quote === undefined) continue;
        const value = typeof cell === 'object' && cell !== null ? (cell as Record<string, unknown>).v : undefined;
        // A series without a figure that day (discontinued, not yet published) is absent or blank.
        if (value === undefined || value === null || value === '') continue;
        out.push({ date, quote, rate: decimalOf(fail, value, `bad ${id} value on ${date}`), unit: 1, direction: 'direct' });
      }
    }
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One request covers any range: Valet takes both ends, inclusive, and has no size limit.
    return [{ url: `${ctx.base}/observations/group/FX_RATES_DAILY/json?start_date=${window.from}&end_date=${window.to}` }];
  },
};
