// Bank Negara Malaysia interbank exchange rates (Open API, quote=rm: MYR per `unit` units, unit 1 or
// 100), 09:00 session. History only comes per currency and month, so a window costs one request per
// currency per month; the all-currency "latest" reply is read too.
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, isoCode, isRecord, parseJson } from '../read.js';

const CODE = 'BNMA';
// The 09:00 snapshot: the first of the day's four sessions, the one a daily poll can always find.
const SESSION = '0900';
// What the API lists (exchange-rate?session=0900, March 2026). A currency BNM adds is missed until listed here.
const CURRENCIES = 'AED AUD BND CAD CHF CNY EGP EUR GBP HKD IDR INR JPY KHR KRW MMK NPR NZD PHP PKR SAR SDR SGD THB TWD USD VND'.split(' ');
// Live …/exchange-rate?… and …/exchange-rate/USD/year/2026/month/3?…, recorded exchange-rate-….json.
const NAME = /(^|\/)exchange-rate([/?-]|$)/;

const fail: (message: string) => never = failFor(CODE);


function rates(entry: unknown): Observation[] {
  if (!isRecord(entry)) fail('data entry is not an object');
  const { currency_code: code, unit, rate } = entry;
  // BNM writes the SDR as "SDR"; its ISO 4217 code is XDR.
  const iso = isoCode(fail, code, 'data entry');
  const quote = iso === 'SDR' ? 'XDR' : iso;
  // A JSON number, never text: unitOf would take "1" as well.
  if (typeof unit !== 'number' || !Number.isSafeInteger(unit) || unit <= 0) fail(`bad ${iso} unit ${JSON.stringify(unit)}`);
  // The all-currency reply holds one rate object per currency, the monthly reply an array of them.
  const rows: unknown[] = Array.isArray(rate) ? rate : [rate];
  return rows.flatMap((row): Observation[] => {
    if (!isRecord(row)) fail(`${quote} rate is not an object`);
    const { date, middle_rate: mid } = row;
    if (!isIsoDate(date)) fail(`bad ${quote} date ${JSON.stringify(date)}`);
    // The middle rate is BNM's own; a session without one has no figure to report for the currency.
    if (mid === null || mid === undefined) return [];
    // JSON doubles such as 4.2244000000000002: decimalOf gives back the published 4.2244.
    return [{ date, quote, rate: decimalOf(fail, mid, `bad ${quote} middle_rate on ${date}`), unit, direction: 'direct' }];
  });
}

/** [year, month] of every month that `window` touches. */
function months(window: FetchWindow): [number, number][] {
  const out: [number, number][] = [];
  let y = Number(window.from.slice(0, 4));
  let m = Number(window.from.slice(5, 7));
  const endY = Number(window.to.slice(0, 4));
  const endM = Number(window.to.slice(5, 7));
  while (y < endY || (y === endY && m <= endM)) {
    out.push([y, m]);
    [y, m] = m === 12 ? [y + 1, 1] : [y, m + 1];
  }
  return out;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Bank Negara Malaysia',
  countryCode: 'MY',
  countryName: 'Malaysia',
  currency: 'MYR',
  cadence: 'daily',
  schedule: '*/30 4-6 * * 1-5',
  // The 09:00 Kuala Lumpur session (MYT, UTC+8, no daylight saving): 01:00 UTC.
  publishedAtUtc: '01:00:00',
  feedUrl: `https://api.bnm.gov.my/public/exchange-rate?session=${SESSION}&quote=rm`,
  baseUrl: 'https://api.bnm.gov.my/public',
  termsUrl: 'https://api.bnm.gov.my/disclaimer',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    if (!isRecord(doc) || !('data' in doc)) fail(`${payload.name} has no data`);
    // quote=fx would give foreign units per MYR; we only ask for (and read) MYR per unit.
    const meta = doc.meta;
    if (isRecord(meta) && meta.quote !== undefined && meta.quote !== 'rm') fail(`quote ${JSON.stringify(meta.quote)} is not rm`);
    const data: unknown[] = Array.isArray(doc.data) ? doc.data : isRecord(doc.data) && Object.keys(doc.data).length > 0 ? [doc.data] : [];
    const out = data.flatMap(rates);
    // A currency's month (one data object) without a figure: asked before the month's first session.
    if (out.length === 0 && isRecord(doc.data) && Array.isArray(doc.data.rate)) throw new NoPublication(CODE, `${payload.name} holds no rates: nothing published yet`);
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return months(window).flatMap(([year, month]) =>
      CURRENCIES.map((ccy) => ({
        url: `${ctx.base}/exchange-rate/${ccy}/year/${year}/month/${month}?session=${SESSION}&quote=rm`,
        // The API versions its replies by media type; its documentation asks for this Accept header.
        headers: { accept: 'application/vnd.BNM.API.v1+json' },
      })),
    );
  },
};
