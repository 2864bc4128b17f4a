// Nepal Rastra Bank forex rates from its JSON API (api/forex/v1/rates): one entry per calendar day,
// each with buy and sell rates of 22 currencies, NPR per `currency.unit` units (10 JPY, 100 INR/KRW).
import { Decimal } from '../../money/decimal.js';
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, isoCode, isRecord, parseJson, unitOf, windowDays } from '../read.js';

const CODE = 'NRBL';
// …/api/forex/v1/rates?… (live) or nrb-forex-v1-rates-….json (recorded).
const NAME = /(^|[/-])forex[/-]v1[/-]rates([?/-]|$)/;
// The API pages by day; one page holds at most 100 days, so a longer window is asked in pieces.
const PAGE_DAYS = 100;

const fail: (message: string) => never = failFor(CODE);


function rate(date: string, entry: unknown): Observation {
  if (!isRecord(entry) || !isRecord(entry.currency)) fail(`a rate of ${date} has no currency`);
  const quote = isoCode(fail, entry.currency.iso3, `rate of ${date}`);
  const where = `${quote} on ${date}`;
  const unit = unitOf(fail, entry.currency.unit, where);
  // NRB publishes a buying and a selling rate and defines no middle rate. The rate kept is their
  // exact midpoint: our reading, not the bank's figure (160.00/160.15 per 100 INR gives 160.075,
  // although the peg itself is the buying rate, 1.6 NPR per INR).
  const mid = new Decimal(decimalOf(fail, entry.buy, `${where} buy`)).plus(decimalOf(fail, entry.sell, `${where} sell`)).div(2);
  return { date, quote, rate: mid.toString(), unit, direction: 'direct' };
}

function day(entry: unknown): Observation[] {
  if (!isRecord(entry)) fail('a day entry is not an object');
  // `date` is the value date; `published_on` is 00:00 of that day, `modified_on` the afternoon before.
  const { date, rates } = entry;
  if (!isIsoDate(date)) fail(`bad date ${JSON.stringify(date)}`);
  if (!Array.isArray(rates) || rates.length === 0) fail(`${date} has no rates`);
  return rates.map((r: unknown) => rate(date, r));
}

export const source: SyncSource = {
  code: CODE,
  name: 'Nepal Rastra Bank',
  countryCode: 'NP',
  countryName: 'Nepal',
  currency: 'NPR',
  cadence: 'daily',
  grade: 'C',
  schedule: '*/30 6-8 * * *',
  // A day's rates appear at 00:00 Nepal time (UTC+5:45) of that day, 18:15 UTC the day before.
  publishedAtUtc: '18:15:00',
  publishedDayOffset: -1,
  feedUrl: 'https://www.nrb.org.np/api/forex/v1/rates?per_page=100&page=1',
  baseUrl: 'https://www.nrb.org.np',
  // NRB states no licence for the API; its forex page is where the rates and their notes live.
  termsUrl: 'https://www.nrb.org.np/forex/',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    if (!isRecord(doc)) fail(`${payload.name} is not an object`);
    // A refused query is JSON too, with status.code and errors.validation set.
    const status = isRecord(doc.status) ? doc.status.code : undefined;
    if (status !== 200) fail(`${payload.name} has status ${JSON.stringify(status)}`);
    if (isRecord(doc.errors) && doc.errors.validation) fail(`${payload.name} reports ${JSON.stringify(doc.errors.validation)}`);
    const days = isRecord(doc.data) ? doc.data.payload : undefined;
    if (!Array.isArray(days)) fail(`${payload.name} has no data.payload array`);
    // NRB publishes every calendar day, weekends included: an empty answer is never "no publication".
    if (days.length === 0) fail(`${payload.name} holds no rates`);
    return days.flatMap(day);
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    const days = windowDays(window);
    const pages: FeedRequest[] = [];
    for (let i = 0; i < days.length; i += PAGE_DAYS) {
      const piece = days.slice(i, i + PAGE_DAYS);
      pages.push({ url: `${ctx.base}/api/forex/v1/rates?from=${piece[0]}&to=${piece.at(-1)}&per_page=${PAGE_DAYS}&page=1` });
    }
    return pages;
  },
};
