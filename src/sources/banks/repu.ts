// Banky Foiben'i Madagasikara (Banque Centrale de Madagascar): the MID reference rates (the interbank
// foreign exchange market's), MGA per 1 unit, from the WordPress REST route behind its rates page:
// one POST per currency and date range. The answer does not name its currency (the request does);
// `coursMid` is in French format ("4 983,29"), `grapheData` repeats it with a decimal point.
import { Decimal } from '../../money/decimal.js';
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, isRecord, parseJson } from '../read.js';

const CODE = 'REPU';
const PATH = '/admin/wp-json/bfm/cours_mid_en_ar_filter';
// …/cours_mid_en_ar_filter?filterData=EUR&… (live) or cours_mid_en_ar_filter-EUR-….json (recorded):
// the currency is in the name, as the answer does not say it.
const NAME = /(^|\/)cours_mid_en_ar_filter(\?(?:[^#]*&)?filterData=([A-Z]{3})(&|$)|-([A-Z]{3})-[^/]*\.json$)/;
const SITE = 'https://www.banky-foibe.mg';
// The 19 currencies of the rates page (CNY since after 2018; a currency without figures in the range
// answers an empty map).
const CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF', 'JPY', 'CAD', 'DKK', 'NOK', 'SEK', 'DJF', 'XDR', 'MUR', 'ZAR', 'AUD', 'HKD', 'SGD', 'NZD', 'INR', 'CNY'] as const;

const fail: (message: string) => never = failFor(CODE);

/** `2026-09-21` → `2026/09/21`, the form's date. */
const slashed = (iso: string) => iso.replaceAll('-', '/');

/** "4 983,29" (a space between thousands, a decimal comma) → "4983.29"; the plain form unchanged. */
const french = (raw: unknown): unknown => (typeof raw === 'string' ? raw.replace(/[ \u00a0\u202f]/g, '').replace(',', '.') : raw);

export const source: SyncSource = {
  code: CODE,
  name: "Banky Foiben'i Madagasikara",
  countryCode: 'MG',
  countryName: 'Madagascar',
  currency: 'MGA',
  cadence: 'daily',
  // Business days; Antananarivo is UTC+3 all year.
  schedule: '0 10,13,16 * * 1-5',
  // No time is stated: taken as published by 13:00 in Antananarivo, when the first of the three
  // daily polls that other users of the feed make finds the day's figures.
  publishedAtUtc: '10:00:00',
  feedUrl: `${SITE}${PATH}`,
  baseUrl: SITE,
  termsUrl: `${SITE}/admin/wp-json/bfm/page?url=mentions-legales`,
  // "Toute reproduction … est interdite, sauf autorisation écrite préalable de BFM."
  terms: 'permission-required',
  grade: 'B',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const m = NAME.exec(payload.name);
    const quote = m?.[3] ?? m?.[5];
    if (!quote) fail(`${payload.name} does not say which currency it holds`);
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    const data = isRecord(doc) && isRecord(doc.data) && isRecord(doc.data.data) ? doc.data.data : undefined;
    if (!data || !('coursMid' in data)) fail(`${payload.name} has no coursMid`);
    const { coursMid, grapheData } = data;
    // An empty map is `[]`: no business day in the range (or no figures yet for this currency).
    if (Array.isArray(coursMid) && coursMid.length === 0) throw new NoPublication(CODE, `${payload.name}: no ${quote} rate in the range`);
    if (!isRecord(coursMid)) fail(`${payload.name}: coursMid is not a map of dates`);
    const observations = Object.entries(coursMid).map(([date, raw]): Observation => {
      if (!isIsoDate(date)) fail(`${quote}: bad date ${JSON.stringify(date)}`);
      const rate = decimalOf(fail, french(raw), `${quote} coursMid on ${date}`);
      // Every figure is published twice: a payload whose two copies differ is not to be trusted.
      if (isRecord(grapheData) && grapheData[date] !== undefined && !new Decimal(decimalOf(fail, grapheData[date], `${quote} grapheData on ${date}`)).eq(rate)) {
        fail(`${quote} on ${date}: coursMid ${JSON.stringify(raw)} is not grapheData ${JSON.stringify(grapheData[date])}`);
      }
      return { date, quote, rate, unit: 1, direction: 'direct' };
    });
    if (observations.length === 0) throw new NoPublication(CODE, `${payload.name}: no ${quote} rate in the range`);
    return observations.sort((a, b) => (a.date < b.date ? -1 : 1));
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One POST per currency for the whole window (history from 2018-01-02), with the Origin and
    // Referer of the bank's page, as its server wants. The form fields go in the query string too,
    // so that the answer's name says which currency it holds (WordPress reads either).
    const [from, to] = [slashed(window.from), slashed(window.to)];
    return CURRENCIES.map((currency): FeedRequest => {
      const form = new URLSearchParams({ dateFilterDebut: from, dateFilterFin: to, filterData: currency }).toString();
      return {
        url: `${ctx.base}${PATH}?${form}`,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8', origin: SITE, referer: `${SITE}/taux-reference` },
        body: form,
      };
    });
  },
};
