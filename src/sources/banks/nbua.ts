// National Bank of Ukraine official hryvnia rates: the exchange_site range API (rate per `units`,
// one row per currency and calendar day) and the statdirectory list of one date (rate per 1 unit).
import { type Observation, type Payload, type SyncSource } from '../types.js';
import { decimalOf, failFor, fromDmy, isIsoDate, isoCode, isRecord, parseJsonKeepingDigits, unitOf } from '../read.js';

const CODE = 'NBUA';
// NBU_Exchange/exchange_site?…&json and NBUStatService/v1/statdirectory/exchange?json (live), or
// exchange_site-….json (recorded). Without `json` both endpoints answer XML, which is not read here.
const NAME = /(^|\/)(exchange_site|statdirectory\/exchange)\b/;
// Banking metals (group 3 in exchange_site, "Золото" XAU…) are the NBU's official prices in UAH per
// troy ounce, which is what XAU, XAG, XPT and XPD denote (D19): read like the currencies, units 1.

const fail: (message: string) => never = failFor(CODE);


function observation(row: unknown): Observation {
  if (!isRecord(row)) fail('rate entry is not an object');
  const { exchangedate } = row;
  // "01.03.2026", the day the rate is in force.
  const date = (typeof exchangedate === 'string' ? fromDmy(exchangedate) : undefined) ?? fail(`bad exchangedate ${JSON.stringify(exchangedate)}`);
  const quote = isoCode(fail, row.cc, `cc on ${date}`);
  // statdirectory has no units field: its rate is already UAH per 1 unit.
  const unit = unitOf(fail, row.units ?? 1, `bad ${quote} units on ${date}`);
  return { date, quote, rate: decimalOf(fail, row.rate, `bad ${quote} rate on ${date}`), unit, direction: 'direct' };
}

/** YYYYMMDD, the API's date format. */
const compact = (iso: string): string => {
  if (!isIsoDate(iso)) throw new RangeError(`${CODE}: bad window date ${iso}`);
  return iso.replaceAll('-', '');
};

export const source: SyncSource = {
  code: CODE,
  name: 'National Bank of Ukraine',
  countryCode: 'UA',
  countryName: 'Ukraine',
  currency: 'UAH',
  cadence: 'daily',
  schedule: '*/30 10-12 * * 1-5',
  // Official rates are published before 16:00 Kyiv time on the business day before the date they are
  // effective for; EET (UTC+2) gives 14:00 UTC (13:00 in summer, EEST).
  publishedAtUtc: '14:00:00',
  // Dated by the effective day: the figure of day D was set on the business day before.
  publishedDayOffset: -1,
  feedUrl: 'https://bank.gov.ua/NBUStatService/v1/statdirectory/exchange?json',
  baseUrl: 'https://bank.gov.ua',
  termsUrl: 'https://bank.gov.ua/en/open-data/api-dev',
  // The NBU allows reuse of its published data provided the National Bank of Ukraine is named as the source.
  attribution: 'Source: National Bank of Ukraine (bank.gov.ua)',
  accepts(name) {
    return NAME.test(name) && /json/i.test(name);
  },
  parse(payload: Payload): Observation[] {
    // JSON numbers lose trailing zeros; the rate is kept as written so the published digits survive.
    const doc = parseJsonKeepingDigits(CODE, payload.name, payload.body.toString('utf8'), ['rate']);
    // Errors and an out-of-range date come back as an object or an empty array, never as rows.
    if (!Array.isArray(doc)) fail(`${payload.name} is not an array of rates`);
    // exchange_site repeats the last set rate on weekends and holidays (calcdate says when it was set);
    // each row is the NBU's own statement of the rate in force that day, so every row is kept.
    if (doc.length === 0) fail(`${payload.name} holds no rates`);
    return doc.map(observation);
  },
  requests(window, ctx) {
    // One request covers the whole window; sorted so a range arrives in date order.
    const query = `start=${compact(window.from)}&end=${compact(window.to)}&sort=exchangedate&order=asc&json`;
    return [{ url: `${ctx.base}/NBU_Exchange/exchange_site?${query}` }];
  },
};
