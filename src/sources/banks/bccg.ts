// Banque Centrale du Congo: indicative rates of the Congolese franc, CDF per unit, from its Next.js
// site in two views: the landing page as a React Server Components stream (asked with `RSC: 1`), whose
// rate explorer holds buy, average and sell of the whole basket for every day since late August 2025
// (weekly before); and a dated page per publication day (the average of ten majors, back to 2020),
// which carries no date: only its URL does. The average ("cours indicatif moyen") is the reference.
import { parse as parseHtml } from 'node-html-parser';
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor, isIsoDate, isoCode, isRecord, parseJsonKeepingDigits, unitOf, wholeHtml, windowDays } from '../read.js';

const CODE = 'BCCG';
const PATH = '/marche-des-changes/cours-de-change';
// …/cours-de-change (the RSC stream, live) and …/cours-de-change/YYYY-MM-DD (a dated page, live);
// cours-de-change-rsc.txt and cours-de-change-YYYY-MM-DD.html (recorded).
const NAME = /(^|\/)cours-de-change(\/(\d{4}-\d{2}-\d{2}))?$|(^|\/)cours-de-change-(rsc\.txt|(\d{4}-\d{2}-\d{2})\.html)$/;
// The explorer's history is daily from here on: earlier days are asked for page by page, from the
// first dated page to the last day before.
const DAILY_HISTORY_FROM = '2025-09-01';
const FIRST_PAGE = '2020-10-12';
const LAST_PAGE = '2025-08-31';

const fail: (message: string) => never = failFor(CODE);

/** Every `history` map in the stream's rows: `{ USD: [{ date, buy, average, sell, unit }, …], … }`. */
function histories(node: unknown, found: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(node)) for (const x of node) histories(x, found);
  else if (isRecord(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'history' && isRecord(value) && Object.values(value).every(Array.isArray)) found.push(value);
      else histories(value, found);
    }
  }
  return found;
}

/** The RSC stream: lines `<id>:<JSON>` (other row kinds, such as `1:I[…]` or text chunks, are not
 *  JSON and are passed over). The explorer's history appears twice (content and chart): once read. */
function fromRsc(name: string, text: string): Observation[] {
  const rows = text.split('\n').map((line) => /^[0-9a-f]+:([[{].*)$/.exec(line)?.[1]).filter((json) => json !== undefined);
  if (rows.length === 0) fail(`${name} is not a React Server Components stream`);
  const seen = new Map<string, Observation>();
  // JSON numbers without fixed decimals (2264, 2795.3): their digits are kept as published.
  for (const history of rows.flatMap((json) => histories(parseJsonKeepingDigits(CODE, name, json, ['average'])))) {
    for (const [code, days] of Object.entries(history)) {
      const quote = isoCode(fail, code, 'history key');
      for (const day of days as unknown[]) {
        if (!isRecord(day) || !isIsoDate(day.date)) fail(`${quote}: a history entry without its date`);
        const o: Observation = { date: day.date, quote, rate: decimalOf(fail, day.average, `${quote} average on ${day.date}`), unit: unitOf(fail, day.unit, `${quote} unit on ${day.date}`), direction: 'direct' };
        const again = seen.get(`${o.date} ${quote}`);
        if (again && (again.rate !== o.rate || again.unit !== o.unit)) fail(`${quote} on ${o.date}: two averages, ${again.rate} and ${o.rate}`);
        seen.set(`${o.date} ${quote}`, o);
      }
    }
  }
  if (seen.size === 0) fail(`${name} holds no rate history`);
  return [...seen.values()];
}

/** A dated page: `<dt>USD (cours moyen)</dt><dd>2264</dd>` pairs; older pages write `2 263,0000`. */
function fromPage(name: string, date: string, html: string): Observation[] {
  const list = parseHtml(wholeHtml(fail, name, html)).querySelector('article dl');
  // Not the rates page (an error page sent with HTTP 200, say): no rates list at all.
  if (list === null) fail(`${name} is not a rates page: no rates list`);
  const observations = list.querySelectorAll('div').flatMap((row): Observation[] => {
    const label = /^([A-Z]{3}) \(cours moyen\)$/.exec(row.querySelector('dt')?.text.trim() ?? '');
    if (!label) return [];
    const figure = (row.querySelector('dd')?.text ?? '').replace(/[\s\u00a0\u202f]/g, '');
    return [{ date, quote: label[1]!, rate: decimalOf(fail, figure, `${label[1]} on ${date}`), unit: 1, direction: 'direct' }];
  });
  // Some early pages answer 200 with the list empty.
  if (observations.length === 0) throw new NoPublication(CODE, `${name}: no rate on the page of ${date}`);
  return observations;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Banque Centrale du Congo',
  countryCode: 'CD',
  countryName: 'Congo (Democratic Republic)',
  currency: 'CDF',
  cadence: 'daily',
  // Business days, around noon in Kinshasa (UTC+1 all year).
  schedule: '*/30 11-13 * * 1-5',
  publishedAtUtc: '11:00:00',
  feedUrl: `https://www.bcc.cd${PATH}`,
  baseUrl: 'https://www.bcc.cd',
  termsUrl: 'https://www.bcc.cd/mentions-legales',
  // "© Banque Centrale du Congo. Tous droits réservés", and the legal-notice page grants nothing:
  // the terms were read, and with every right reserved a reuse needs the bank's permission.
  terms: 'permission-required',
  grade: 'B',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const text = decodeText(payload.body);
    const m = NAME.exec(payload.name);
    const date = m?.[3] ?? m?.[6];
    if (date === undefined) return fromRsc(payload.name, text);
    // The page itself carries no date: the one in its URL (or recorded name) is the rates' date.
    if (!isIsoDate(date)) fail(`${payload.name}: bad date`);
    return fromPage(payload.name, date, text);
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // The stream for any window reaching September 2025: the whole basket for every day it holds,
    // weekly before then. Days before, one dated page a weekday (ten majors); a day without a fixing
    // answers 404.
    const stream: FeedRequest[] = window.to >= DAILY_HISTORY_FROM ? [{ url: `${ctx.base}${PATH}`, headers: { rsc: '1' } }] : [];
    const first = window.from > FIRST_PAGE ? window.from : FIRST_PAGE;
    const last = window.to < LAST_PAGE ? window.to : LAST_PAGE;
    const pages = first <= last ? windowDays({ from: first, to: last }, { weekdaysOnly: true }) : [];
    return [...stream, ...pages.map((day) => ({ url: `${ctx.base}${PATH}/${day}`, optional: true }))];
  },
};
