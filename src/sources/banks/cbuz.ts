// Central Bank of Uzbekistan official rates: a JSON array of UZS per `Nominal` units (strings, so the
// published digits survive). Set at 16:00 Tashkent time on business days and valid from the next
// day; `Date` is that validity date, and one day is asked for at a time.
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, fromDmy, isoCode, isRecord, parseJson, unitOf, windowDays } from '../read.js';

const CODE = 'CBUZ';
const PATH = '/en/arkhiv-kursov-valyut/json/';
// Live …/arkhiv-kursov-valyut/json/ (latest), …/json/all/<date>/ or …/json/USD/<date>/; recorded json-all-<date>.json.
const NAME = /(^|\/)(arkhiv-kursov-valyut\/json\/|json-all-\d{4}-\d{2}-\d{2}\.json$)/;

const fail: (message: string) => never = failFor(CODE);


function observation(row: unknown): Observation {
  if (!isRecord(row)) fail('entry is not an object');
  // Date is DD.MM.YYYY.
  const date = typeof row.Date === 'string' ? fromDmy(row.Date) : undefined;
  if (date === undefined) fail(`bad Date ${JSON.stringify(row.Date)}`);
  const quote = isoCode(fail, row.Ccy, `Ccy on ${date}`);
  // Nominal is a string ("1", "10"): the number of units the rate is for.
  const unit = unitOf(fail, row.Nominal, `bad ${quote} Nominal on ${date}`);
  return { date, quote, rate: decimalOf(fail, row.Rate, `bad ${quote} Rate on ${date}`), unit, direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Central Bank of the Republic of Uzbekistan',
  countryCode: 'UZ',
  countryName: 'Uzbekistan',
  currency: 'UZS',
  cadence: 'daily',
  schedule: '*/30 8-10 * * 1-5',
  // Published at 16:00 Tashkent time (UZT, UTC+5, no daylight saving): 11:00 UTC, on the business day
  // before the date the rates carry: hence the day offset (exact except over weekends).
  publishedAtUtc: '11:00:00',
  publishedDayOffset: -1,
  feedUrl: `https://cbu.uz${PATH}`,
  baseUrl: 'https://cbu.uz',
  termsUrl: 'https://cbu.uz/en/arkhiv-kursov-valyut/',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    if (!Array.isArray(doc)) fail(`${payload.name} is not an array of rates`);
    if (doc.length === 0) fail(`${payload.name} holds no rates`);
    return doc.map(observation);
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // The archive answers one day per request. Weekend days are asked for too: rates apply from the
    // next calendar day and the CBU fills weekends with them.
    return windowDays(window).map((day) => ({ url: `${ctx.base}${PATH}all/${day}/` }));
  },
};
