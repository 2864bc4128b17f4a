// Sveriges Riksbank daily mid rates from the SWEA API, group 130 ("currencies against SEK"): a JSON
// array of {seriesId, date, value}, series SEK{CCY}PMI, each SEK per 1 unit (JPY 0.05885, IDR 0.00055).
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, isRecord, parseJson } from '../read.js';

const CODE = 'RIKS';
const PATH = '/swea/v1/Observations';
const GROUP = 130;
// Observations/ByGroup/130/{from}/{to} and Observations/Latest/ByGroup/130 (live), swea-ByGroup-130-….json (recorded).
const NAME = /(Observations\/(Latest\/)?ByGroup\/130(\/|\?|$)|(^|\/)swea-ByGroup-130-[^/]*\.json$)/;
const SERIES = /^SEK([A-Z]{3})PMI$/;
// SEKETT ("ett" = one) is the krona against itself, always 1: a placeholder row, not a rate.
const SELF = 'SEKETT';

const fail: (message: string) => never = failFor(CODE);


function observation(row: unknown): Observation | undefined {
  if (!isRecord(row)) fail('observation is not an object');
  const { seriesId, date, value } = row;
  if (seriesId === SELF) return undefined;
  const quote = typeof seriesId === 'string' ? SERIES.exec(seriesId)?.[1] : undefined;
  // Group 130 holds only SEK{CCY}PMI series; anything else is a group we did not ask for.
  if (quote === undefined) fail(`unexpected series ${JSON.stringify(seriesId)}`);
  if (!isIsoDate(date)) fail(`${String(seriesId)} has bad date ${JSON.stringify(date)}`);
  // A missing figure is said as such, apart from one that is not a number.
  if (value === null || value === undefined) fail(`${String(seriesId)} has no value on ${date}`);
  // Values are JSON numbers: the API keeps up to 5 decimals, and a double's shortest text gives them
  // back less trailing zeros (6.50000 → 6.5).
  return { date, quote, rate: decimalOf(fail, value, `${String(seriesId)} has bad value on ${date}`), unit: 1, direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Sveriges Riksbank',
  countryCode: 'SE',
  countryName: 'Sweden',
  currency: 'SEK',
  cadence: 'daily',
  schedule: '*/30 15-17 * * 1-5',
  // Published about 16:15 Stockholm time; CET (UTC+1) gives 15:15 UTC (14:15 in summer, CEST).
  publishedAtUtc: '15:15:00',
  feedUrl: `https://api.riksbank.se${PATH}/Latest/ByGroup/${GROUP}`,
  baseUrl: 'https://api.riksbank.se',
  termsUrl: 'https://www.riksbank.se/sv/om-riksbanken/om-webbplatsen/oppna-data--information-tillganglig-for-vidareutnyttjande/',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    // Errors come as an object ({"statusCode":…,"message":…}), never as an array.
    if (!Array.isArray(doc)) fail(`${payload.name} is not an array of observations`);
    const out = doc.map(observation).filter((o): o is Observation => o !== undefined);
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return [
      {
        url: `${ctx.base}${PATH}/ByGroup/${GROUP}/${window.from}/${window.to}`,
        // No key is needed; one (from the Riksbank API portal) only raises the rate limit, and goes in
        // the API Management subscription header.
        headers: { accept: 'application/json', ...(ctx.key ? { 'ocp-apim-subscription-key': ctx.key } : {}) },
      },
    ];
  },
};
