// Bank Al-Maghrib transfer rates ("cours virement") from its API portal: one request per day, each row
// MAD per `uniteDevise` units of a currency. The portal wants a free subscription key in a header.
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isoCode, parseJson, unitOf, windowDays } from '../read.js';

const CODE = 'BKAM';
// "2026-03-25T12:30:00": the day of the 12:30 fixing the API was asked for.
const FIXING = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}:\d{2}$/;
// CoursVirement?date=… (live) or CoursVirement-YYYY-MM-DD.json (recorded).
const NAME = /(^|\/)CoursVirement([?-]|$)/;
// A request for one day (what requests() send), rather than the feed's latest fixing.
const ONE_DAY = /CoursVirement(\?date=|-)\d{4}-\d{2}-\d{2}/;
// The API takes a timestamp; 12:30 is the fixing time the recorded requests ask for.
const FIXING_TIME = 'T12:30:00';
// Mauritania redenominated on 1 January 2018 (10 old ouguiya = 1 MRU), but the bank still labels the
// ouguiya MRO: 23.55 MAD per 100 "MRO" with the dollar at 9.3189 MAD is 39.6 per USD, the new MRU.
const MRU_SINCE = '2018-01-01';

const fail: (message: string) => never = failFor(CODE);

function observation(row: unknown): Observation {
  if (typeof row !== 'object' || row === null) fail('rate entry is not an object');
  const { date: stamp, libDevise, moyen, uniteDevise } = row as Record<string, unknown>;
  const date = typeof stamp === 'string' ? FIXING.exec(stamp)?.[1] : undefined;
  if (date === undefined) fail(`bad date ${JSON.stringify(stamp)}`);
  const code = isoCode(fail, libDevise, `rate entry on ${date}`);
  const unit = unitOf(fail, uniteDevise, `bad ${code} unit on ${date}`);
  // A JSON number: the API drops trailing zeros itself (95.938, 12.48), so nothing more is lost here.
  const rate = decimalOf(fail, moyen, `bad ${code} rate on ${date}`);
  const quote = code === 'MRO' && date >= MRU_SINCE ? 'MRU' : code;
  return { date, quote, rate, unit, direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Bank Al-Maghrib',
  countryCode: 'MA',
  countryName: 'Morocco',
  currency: 'MAD',
  cadence: 'daily',
  schedule: '*/30 14-16 * * 1-5',
  // The rows are stamped 12:30 Rabat time; Morocco's standard time has been UTC+1 since 2018
  // (UTC+0 during Ramadan), so 11:30 UTC.
  publishedAtUtc: '11:30:00',
  feedUrl: 'https://api.centralbankofmorocco.ma/cours/Version1/api/CoursVirement',
  baseUrl: 'https://api.centralbankofmorocco.ma/cours/Version1/api',
  // The API portal, where the key is issued under its terms of use; SOURCE.md names no other page.
  termsUrl: 'https://apihelpdesk.centralbankofmorocco.ma/apis',
  terms: 'unknown',
  needsKey: true,
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    // Portal errors ({"statusCode": 401, "message": …}) are objects, never arrays.
    if (!Array.isArray(doc)) fail(`${payload.name} is not an array of rates`);
    // An empty list for a day asked by date: no fixing that day (a holiday; weekends are not asked for).
    if (doc.length === 0 && ONE_DAY.test(payload.name)) throw new NoPublication(CODE, `${payload.name} holds no rates: no fixing that day`);
    if (doc.length === 0) fail(`${payload.name} holds no rates`);
    // The API sometimes lists currencies twice (28 of 30 in the 2026-03-26 answer); identical repeats
    // are dropped, two different figures for one currency and day are an error, not a choice.
    const seen = new Map<string, Observation>();
    for (const o of doc.map(observation)) {
      const key = `${o.date} ${o.quote}`;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, o);
      else if (first.rate !== o.rate || first.unit !== o.unit) fail(`two ${o.quote} rates on ${o.date}: ${first.rate}/${first.unit} and ${o.rate}/${o.unit}`);
    }
    return [...seen.values()];
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One day per request; weekends are skipped, there is never a fixing on them.
    return windowDays(window, { weekdaysOnly: true }).map((day): FeedRequest => ({
      url: `${ctx.base}/CoursVirement?date=${day}${FIXING_TIME}`,
      // The portal (Azure API Management) reads the key from this header only.
      headers: ctx.key === undefined ? {} : { 'Ocp-Apim-Subscription-Key': ctx.key },
    }));
  },
};
