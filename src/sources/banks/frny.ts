// Federal Reserve H.10 noon buying rates in New York, read from FRED one series per request. The body
// never names its series, so the series id (and with it the currency and the direction) comes from
// the payload name: the request URL (series_id=DEXUSEU) or a recorded file name (…-DEXUSEU-…).
import { NoPublication, type Direction, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, parseJson } from '../read.js';

const CODE = 'FRNY';
const SERIES_IN_NAME = /(?:^|[^A-Za-z0-9])(DEX[A-Z0-9]{4})(?![A-Za-z0-9])/;
// FRED writes "." for a day without a figure (US holidays).
const NO_VALUE = '.';

/** H.10 series on FRED → currency. DEX{xx}US is units of the currency per 1 USD, DEXUS{xx} USD per unit.
 *  DEXVZUS is left out: no payload of it was recorded, and a bolívar series older than the 2018
 *  redenomination would hold VEF figures, not VES; map it only once its series notes say which. */
export const FRED_SERIES: Readonly<Record<string, string>> = {
  DEXBZUS: 'BRL', DEXCAUS: 'CAD', DEXCHUS: 'CNY', DEXDNUS: 'DKK', DEXHKUS: 'HKD', DEXINUS: 'INR',
  DEXJPUS: 'JPY', DEXKOUS: 'KRW', DEXMAUS: 'MYR', DEXMXUS: 'MXN', DEXNOUS: 'NOK', DEXSDUS: 'SEK',
  DEXSFUS: 'ZAR', DEXSIUS: 'SGD', DEXSLUS: 'LKR', DEXSZUS: 'CHF', DEXTAUS: 'TWD', DEXTHUS: 'THB',
  DEXUSAL: 'AUD', DEXUSEU: 'EUR', DEXUSNZ: 'NZD', DEXUSUK: 'GBP',
};

const fail: (message: string) => never = failFor(CODE);

function seriesOf(name: string): string | undefined {
  const id = SERIES_IN_NAME.exec(name)?.[1];
  return id !== undefined && Object.hasOwn(FRED_SERIES, id) ? id : undefined;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Federal Reserve (H.10, via FRED)',
  countryCode: 'US',
  countryName: 'United States',
  currency: 'USD',
  // H.10 comes out once a week with the daily figures of the week before.
  cadence: 'weekly',
  schedule: '*/30 21-23 * * 1',
  // Released Mondays ~16:15 ET; EST (UTC-5) gives 21:15 UTC (20:15 in summer, EDT).
  publishedAtUtc: '21:15:00',
  // One request per series (see FRED_SERIES); the key goes in api_key and never into this URL.
  feedUrl: 'https://api.stlouisfed.org/fred/series/observations?series_id=DEXUSEU&file_type=json',
  baseUrl: 'https://api.stlouisfed.org/fred',
  termsUrl: 'https://fred.stlouisfed.org/docs/api/terms_of_use.html',
  terms: 'open',
  // H.10 data are public domain; the FRED API terms require this notice in products that use the API.
  attribution:
    'Source: Board of Governors of the Federal Reserve System (H.10), via FRED. This product uses the FRED® API but is not endorsed or certified by the Federal Reserve Bank of St. Louis.',
  needsKey: true,
  accepts(name) {
    return seriesOf(name) !== undefined && !/file_type=(xml|csv)|\.(xml|csv)$/i.test(name);
  },
  parse(payload: Payload): Observation[] {
    const series = seriesOf(payload.name);
    if (series === undefined) fail(`cannot tell the H.10 series from ${JSON.stringify(payload.name)}`);
    const quote = FRED_SERIES[series]!;
    const direction: Direction = series.startsWith('DEXUS') ? 'direct' : 'indirect';

    const doc = parseJson(CODE, series, payload.body.toString('utf8'));
    if (typeof doc !== 'object' || doc === null) fail(`${series} is not a JSON object`);
    const { observations: rows, units, error_message: error } = doc as Record<string, unknown>;
    if (typeof error === 'string') fail(`${series}: FRED says ${error}`);
    // A request with units=pch or the like returns changes, not rates; only levels are rates.
    if (units !== undefined && units !== 'lin') fail(`${series} holds units=${String(units)}, not levels`);
    if (!Array.isArray(rows)) fail(`${series} has no observations array`);

    const out: Observation[] = [];
    for (const row of rows as unknown[]) {
      const { date, value } = (typeof row === 'object' && row !== null ? row : {}) as Record<string, unknown>;
      if (!isIsoDate(date)) fail(`${series} has bad date ${JSON.stringify(date)}`);
      if (value === NO_VALUE) continue;
      // FRED writes values as strings; a number would be a different payload.
      if (typeof value !== 'string') fail(`${series} has no value on ${date}`);
      out.push({ date, quote, rate: decimalOf(fail, value, `${series} has bad value ${JSON.stringify(value)} on ${date}`), unit: 1, direction });
    }
    // A well-formed answer for a window of weekends and holidays: no rows, or only "." rows.
    if (out.length === 0) throw new NoPublication(CODE, `${series} holds no rates${rows.length > 0 ? ' (only holidays)' : ''}`);
    return out;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return Object.keys(FRED_SERIES).map((series) => {
      // series_id comes first so that it is the series parse finds in the name.
      const query = `series_id=${series}&observation_start=${window.from}&observation_end=${window.to}`;
      return {
        url: `${ctx.base}/series/observations?${query}&api_key=${encodeURIComponent(ctx.key ?? '')}&file_type=json`,
        // The payload is named without the key, so that stored or logged names never carry it.
        name: `${ctx.base}/series/observations?${query}&file_type=json`,
      };
    });
  },
};
