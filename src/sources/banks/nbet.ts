// National Bank of Ethiopia daily exchange rates from api.nbe.gov.et: one request per day, each row a
// currency's buying, selling and weighted-average rate in birr per unit.
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, isoCode, isRecord, parseJson, windowDays } from '../read.js';

const CODE = 'NBET';
// api/filter-exchange-rates?date=… (live) or filter-exchange-rates-YYYY-MM-DD.json (recorded).
const NAME = /(^|\/)filter-exchange-rates([?-]|$)/;

const fail: (message: string) => never = failFor(CODE);


function observation(row: unknown): Observation {
  if (!isRecord(row)) fail('rate entry is not an object');
  const { date, currency, weighted_average: average } = row;
  if (!isIsoDate(date)) fail(`bad date ${JSON.stringify(date)}`);
  const quote = isoCode(fail, isRecord(currency) ? currency.code : undefined, `row of ${date}`);
  // Since the birr was floated (July 2024) the weighted average of the banks' deals is the NBE's
  // reference rate; buying and selling are the spread around it and are not read.
  if (average === null || average === undefined) fail(`no ${quote} weighted average on ${date}`);
  return { date, quote, rate: decimalOf(fail, average, `bad ${quote} weighted average on ${date}`), unit: 1, direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'National Bank of Ethiopia',
  countryCode: 'ET',
  countryName: 'Ethiopia',
  currency: 'ETB',
  cadence: 'daily',
  schedule: '*/30 10-12 * * 1-5',
  // No publication time is documented; the observed polling window opens at 10:00 UTC (13:00 in
  // Addis Ababa, EAT = UTC+3 all year), so a figure is taken as published by then.
  publishedAtUtc: '10:00:00',
  feedUrl: 'https://api.nbe.gov.et/api/filter-exchange-rates',
  baseUrl: 'https://api.nbe.gov.et/api',
  // SOURCE.md gives only "nbe.gov.et"; this is the bank's page for the same rates.
  termsUrl: 'https://nbe.gov.et/exchange-rate/',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    if (!isRecord(doc)) fail(`${payload.name} is not a JSON object`);
    if (doc.success !== true) fail(`${payload.name} reports failure: ${JSON.stringify(doc.message ?? null)}`);
    if (!Array.isArray(doc.data)) fail(`${payload.name} has no data array`);
    // Only weekdays are asked for, one at a time, so a successful empty answer is taken as a weekday
    // holiday.
    if (doc.data.length === 0) throw new NoPublication(CODE, `${payload.name} holds no rates`);
    return doc.data.map(observation);
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One day per request; weekends are skipped, the NBE does not publish on them.
    return windowDays(window, { weekdaysOnly: true }).map((day) => ({ url: `${ctx.base}/filter-exchange-rates?date=${day}` }));
  },
};
