// Central Bank of Uzbekistan official rates: a JSON array of UZS per `Nominal` units (strings, so the
// published digits survive). Set at 16:00 Tashkent time on business days and valid from the next
// day; `Date` is that validity date, and one day is asked for at a time.
import { cleanDecimal } from '../money/decimal.js';
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type Source } from './types.js';
import { failFor, parseJson } from './read.js';

const CODE = 'CBUZ';
const PATH = '/en/arkhiv-kursov-valyut/json/';
const ISO_CODE = /^[A-Z]{3}$/;
const CBU_DATE = /^(\d{2})\.(\d{2})\.(\d{4})$/;
// Live …/arkhiv-kursov-valyut/json/ (latest), …/json/all/<date>/ or …/json/USD/<date>/; recorded json-all-<date>.json.
const NAME = /(^|\/)(arkhiv-kursov-valyut\/json\/|json-all-\d{4}-\d{2}-\d{2}\.json$)/;

const fail: (message: string) => never = failFor(CODE);

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function observation(row: unknown): Observation {
  if (!isObject(row)) fail('entry is not an object');
  const { Ccy: quote, Nominal: nominal, Rate: raw, Date: day } = row;
  const d = typeof day === 'string' ? CBU_DATE.exec(day) : null;
  if (!d) fail(`bad Date ${JSON.stringify(day)}`);
  const date = `${d[3]}-${d[2]}-${d[1]}`;
  if (typeof quote !== 'string' || !ISO_CODE.test(quote)) fail(`bad Ccy ${JSON.stringify(quote)} on ${date}`);
  // Nominal is a string ("1", "10"): the number of units the rate is for.
  const unit = typeof nominal === 'string' && /^[1-9]\d*$/.test(nominal) ? Number(nominal) : NaN;
  if (!Number.isSafeInteger(unit)) fail(`bad ${quote} Nominal ${JSON.stringify(nominal)} on ${date}`);
  if (typeof raw !== 'string') fail(`bad ${quote} Rate ${JSON.stringify(raw)} on ${date}`);
  let rate: string;
  try {
    rate = cleanDecimal(raw);
  } catch {
    fail(`bad ${quote} Rate ${JSON.stringify(raw)} on ${date}`);
  }
  return { date, quote, rate, unit, direction: 'direct' };
}

export const source: Source = {
  code: CODE,
  name: 'Central Bank of the Republic of Uzbekistan',
  countryCode: 'UZ',
  countryName: 'Uzbekistan',
  currency: 'UZS',
  cadence: 'daily',
  schedule: '*/30 8-10 * * 1-5',
  // Published at 16:00 Tashkent time (UZT, UTC+5, no daylight saving): 11:00 UTC, on the business day
  // before the date the rates carry, so joined with that date this is a day late.
  publishedAtUtc: '11:00:00',
  feedUrl: `https://cbu.uz${PATH}`,
  baseUrl: 'https://cbu.uz',
  termsUrl: 'https://cbu.uz/en/arkhiv-kursov-valyut/',
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
    const requests: FeedRequest[] = [];
    for (let day = window.from; day <= window.to; day = addDays(day, 1)) {
      requests.push({ url: `${ctx.base}${PATH}all/${day}/` });
    }
    return requests;
  },
};
