// South African Reserve Bank: the rand's daily weighted averages from the SARB web API, one time series
// per request. The body names its series only in prose ("Rand per US Dollar"), so the series id, and
// with it the currency, comes from the payload name: the request URL or a recorded file name.
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, parseJson } from '../read.js';

const CODE = 'SARB';
const PERIOD = /^(\d{4}-\d{2}-\d{2})(T00:00:00)?$/;
// "0.0000": the number of decimals the SARB publishes the series with.
const FORMAT = /^0(?:\.(0+))?$/;
// Every series read here is rand per one unit of its currency; a description saying otherwise means
// the id now names something else, and a guessed direction would be wrong by a factor of the rate.
const DIRECT = /^Rand per /;

/** Series with a recorded payload. The EXCB…D series (other currencies) and EXCZ120D (yen) are left
 *  out until a payload of them shows their direction and unit. */
export const SARB_SERIES: Readonly<Record<string, string>> = { EXCX135D: 'USD', EXCZ001D: 'GBP', EXCZ002D: 'EUR' };

// GetTimeseriesObservations/EXCX135D/… (live) or GetTimeseriesObservations-EXCX135D-….json (recorded).
const NAME = /(?:^|\/)GetTimeseriesObservations[/-]([A-Z0-9]{8})(?:[/-]|$)/;

const fail: (message: string) => never = failFor(CODE);

function seriesOf(name: string): string | undefined {
  const id = NAME.exec(name)?.[1];
  return id !== undefined && Object.hasOwn(SARB_SERIES, id) ? id : undefined;
}

/** The published figure: a JSON number loses trailing zeros (17.1300 → 17.13); FormatNumber says how
 *  many decimals the SARB shows, so they are put back. Never rounds: more digits than the format are kept. */
function published(series: string, date: string, value: unknown, format: unknown): string {
  // A missing figure is said as such, apart from one that is not a number.
  if (value === null || value === undefined) fail(`${series} has no value on ${date}`);
  const rate = decimalOf(fail, value, `${series} has bad value on ${date}`);
  const places = typeof format === 'string' ? FORMAT.exec(format)?.[1]?.length : undefined;
  if (places === undefined) return rate;
  const [whole, fraction = ''] = rate.split('.');
  return fraction.length >= places ? rate : `${whole}.${fraction.padEnd(places, '0')}`;
}

export const source: SyncSource = {
  code: CODE,
  name: 'South African Reserve Bank',
  countryCode: 'ZA',
  countryName: 'South Africa',
  currency: 'ZAR',
  cadence: 'daily',
  schedule: '*/30 9-11 * * 1-5',
  // Weighted average of the banks' rates at about 10:30 SAST; SAST is UTC+2 all year, so 08:30 UTC.
  publishedAtUtc: '08:30:00',
  feedUrl: 'https://custom.resbank.co.za/SarbWebApi/WebIndicators/Shared/GetTimeseriesObservations/EXCX135D',
  baseUrl: 'https://custom.resbank.co.za/SarbWebApi',
  // No terms page for the web API is known (SOURCE.md: "SARB terms (free)"); this is where the SARB
  // publishes the same rates.
  termsUrl: 'https://www.resbank.co.za/en/home/what-we-do/statistics/key-statistics/current-market-rates',
  terms: 'unknown',
  accepts(name) {
    return seriesOf(name) !== undefined;
  },
  parse(payload: Payload): Observation[] {
    const series = seriesOf(payload.name);
    if (series === undefined) fail(`cannot tell the series from ${JSON.stringify(payload.name)}`);
    const quote = SARB_SERIES[series]!;
    const rows = parseJson(CODE, series, payload.body.toString('utf8'));
    // Errors come back as an object ({"Message": …}) or an HTML page, never as an array.
    if (!Array.isArray(rows)) fail(`${series} is not an array of observations`);
    if (rows.length === 0) fail(`${series} holds no observations`);
    return rows.map((row: unknown): Observation => {
      if (typeof row !== 'object' || row === null) fail(`${series} has an observation that is not an object`);
      const { Period: period, Timeseries: title, Value: value, FormatNumber: format } = row as Record<string, unknown>;
      const date = typeof period === 'string' ? PERIOD.exec(period)?.[1] : undefined;
      if (date === undefined) fail(`${series} has bad Period ${JSON.stringify(period)}`);
      if (typeof title !== 'string' || !DIRECT.test(title)) fail(`${series} is ${JSON.stringify(title)}, not rand per unit`);
      return { date, quote, rate: published(series, date, value, format), unit: 1, direction: 'direct' };
    });
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One series per request, both ends of the range in the path, inclusive.
    return Object.keys(SARB_SERIES).map((series) => ({
      url: `${ctx.base}/WebIndicators/Shared/GetTimeseriesObservations/${series}/${window.from}/${window.to}`,
    }));
  },
};
