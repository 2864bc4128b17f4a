// Hong Kong Monetary Authority, Monthly Statistical Bulletin: daily end-of-day exchange rates, HKD
// per 1 unit of each currency (one lower-case field per currency, JSON doubles with float noise).
// Released with the bulletin, so a month's figures appear together early in the next month.
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, isRecord, parseJson, windowDays } from '../read.js';

const CODE = 'HKMA';
const PATH = '/market-data-and-statistics/monthly-statistical-bulletin/er-ir/er-eeri-daily';
// usd, gbp, … and the legacy dem/nlg/bef/frf/itl (null since the euro): the field is the ISO code.
const CURRENCY_FIELD = /^[a-z]{3}$/;
// Nominal effective exchange rate indices (neeri_<base year>_<weights>) are indices, not rates.
const INDEX_FIELD = /^neeri_/;
// The API returns at most 100 rows unless told otherwise; a window of 100 days never has more.
const PAGE = 100;
// Live …/er-ir/er-eeri-daily?… or recorded er-eeri-daily-….json; not the end-period or average tables.
const NAME = /(^|\/)er-eeri-daily([?/-]|$)/;

const fail: (message: string) => never = failFor(CODE);


function record(row: unknown): Observation[] {
  if (!isRecord(row)) fail('record is not an object');
  const { end_of_day: date, ...fields } = row;
  if (!isIsoDate(date)) fail(`bad end_of_day ${JSON.stringify(date)}`);
  const out: Observation[] = [];
  for (const [field, value] of Object.entries(fields)) {
    if (INDEX_FIELD.test(field)) continue;
    // The SDR is the one currency spelt out; its ISO 4217 code is XDR.
    const quote = field === 'special_drawing_rights' ? 'XDR' : CURRENCY_FIELD.test(field) ? field.toUpperCase() : undefined;
    if (quote === undefined) fail(`unexpected field ${field} on ${date}`);
    // Null: a currency not quoted that day (pre-euro currencies now, the SDR on some days).
    if (value === null) continue;
    // 7.8245000000000005 comes back as the published 7.8245.
    out.push({ date, quote, rate: decimalOf(fail, value, `bad ${field} on ${date}`), unit: 1, direction: 'direct' });
  }
  return out;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Hong Kong Monetary Authority',
  countryCode: 'HK',
  countryName: 'Hong Kong',
  currency: 'HKD',
  // Daily figures, but published once a month with the bulletin.
  cadence: 'monthly',
  schedule: '*/30 1-10 3-12 * *',
  // End-of-day figures; HKMA states no time, so we take the 17:00 close in Hong Kong (HKT, UTC+8, no
  // daylight saving): 09:00 UTC. The figures themselves only appear weeks later.
  publishedAtUtc: '09:00:00',
  feedUrl: `https://api.hkma.gov.hk/public${PATH}?sortby=end_of_day&sortorder=desc&pagesize=1`,
  baseUrl: 'https://api.hkma.gov.hk/public',
  termsUrl: 'https://www.hkma.gov.hk/eng/other-information/copyright-notice/',
  terms: 'unknown',
  // The copyright notice asks that the HKMA be identified as the source of reproduced material.
  attribution: 'Source: Hong Kong Monetary Authority',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    const header = isRecord(doc) ? doc.header : undefined;
    // Errors come back as JSON with success false and an err_code/err_msg.
    if (!isRecord(header) || header.success !== true) {
      fail(`${payload.name}: ${isRecord(header) ? `${String(header.err_code)} ${String(header.err_msg)}` : 'no header'}`);
    }
    const result = isRecord(doc) ? doc.result : undefined;
    const records = isRecord(result) ? result.records : undefined;
    if (!Array.isArray(records)) fail(`${payload.name} has no result.records array`);
    const out = records.flatMap(record);
    // A well-formed answer with no figures: a window whose month the bulletin has not released yet, or
    // days with every currency null.
    if (out.length === 0) throw new NoPublication(CODE, `${payload.name} holds no rates`);
    return out;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // Pages of at most PAGE calendar days, so that no page is cut at PAGE rows.
    const days = windowDays(window);
    const requests: FeedRequest[] = [];
    for (let i = 0; i < days.length; i += PAGE) {
      const [from, to] = [days[i]!, days[Math.min(i + PAGE, days.length) - 1]!];
      requests.push({ url: `${ctx.base}${PATH}?choose=end_of_day&from=${from}&to=${to}&offset=0&pagesize=${PAGE}` });
    }
    return requests;
  },
};
