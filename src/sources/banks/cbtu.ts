// Central Bank of Turkmenistan official rates: one XML file per day (cbt.tm/kurs/YYYY/DDMMYYYY.xml).
// `rate_tmt` is TMT per `multiplier` units (AMD per 100, IRR per 10,000); the manat is pegged at 3.5
// per USD. Saturdays have a file, Sundays answer 404.
import { BROWSER_USER_AGENT } from '../http.js';
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, fromDmy, isIsoDate, isoCode, parseXml, unitOf, windowDays, xmlParser } from '../read.js';

const CODE = 'CBTU';
// kurs/2026/20052026.xml (live) or cbt-kurs-20052026.xml (recorded).
const NAME = /(^|[/-])kurs[/-](\d{4}\/)?\d{8}\.xml$/;

const fail: (message: string) => never = failFor(CODE);
const parser = xmlParser({ isArray: (name) => name === 'rate' });

/** The file's date: DD.MM.YYYY since 2024, YYYY-MM-DD in the 2020–2023 files. */
function fileDate(raw: unknown): string {
  const text = typeof raw === 'string' ? raw.trim() : '';
  const date = isIsoDate(text) ? text : fromDmy(text);
  if (!date) fail(`bad date ${JSON.stringify(raw)}`);
  return date;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Central Bank of Turkmenistan',
  countryCode: 'TM',
  countryName: 'Turkmenistan',
  currency: 'TMT',
  cadence: 'daily',
  schedule: '*/30 8-12 * * *',
  // No publication time is documented. 08:00 UTC (13:00 Ashgabat, UTC+5 all year) is the start of
  // the window in which Frankfurter found each day's file (its observed schedule above).
  publishedAtUtc: '08:00:00',
  feedUrl: 'https://cbt.tm/kurs/kurs_today_en.html',
  baseUrl: 'https://cbt.tm',
  // SOURCE.md knows no terms page; this is the page that publishes the rates.
  termsUrl: 'https://cbt.tm/kurs/kurs_today_en.html',
  terms: 'unknown',
  // cbt.tm answers 403 to non-browser agents (the peer's notes before it dropped the bank).
  headers: { 'user-agent': BROWSER_USER_AGENT },
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseXml(CODE, payload.name, payload.body.toString('utf8'), parser);
    const root = doc.cbt_currency_rate as Record<string, unknown> | undefined;
    if (typeof root !== 'object' || root === null) fail(`${payload.name} is not a cbt_currency_rate file`);
    const date = fileDate(root.date);
    const rates = (root.rate ?? []) as Record<string, unknown>[];
    if (rates.length === 0) fail(`${payload.name} holds no rates`);
    // rate_usd is a cross against the dollar whose direction flips per row (AED per USD, but USD per
    // AUD/GBP/EUR/XDR): only rate_tmt, always TMT per multiplier, is read.
    return rates.map((r): Observation => {
      const quote = isoCode(fail, r.code, `rate on ${date}`);
      const where = `${quote} on ${date}`;
      return { date, quote, rate: decimalOf(fail, r.rate_tmt, where), unit: unitOf(fail, r.multiplier, where), direction: 'direct' };
    });
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One file per calendar day; Sundays (and holidays) have none, so a 404 is not a fault.
    return windowDays(window).map((day) => ({
      url: `${ctx.base}/kurs/${day.slice(0, 4)}/${day.slice(8, 10)}${day.slice(5, 7)}${day.slice(0, 4)}.xml`,
      optional: true,
    }));
  },
};
