// National Bank of Cambodia official exchange rates, scraped from its HTML page (one day per form post).
// The page states the day ("Exchange Rate on : 2026-05-18"), the official USD rate in a headline
// ("Official Exchange Rate : 4014 KHR / USD") and a table of KHR per Unit units (Bid, Ask, Average).
import { parse as parseHtml } from 'node-html-parser';
import { NoPublication, type FeedRequest, type FetchWindow, type FollowedPage, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { hiddenFields, postBack } from '../follow.js';
import { decimalOf, failFor, unitOf, windowDays } from '../read.js';

const CODE = 'NCAM';
const PAGE = '/english/economic_research/exchange_rate.php';
// exchange_rate.php (live, with the date our requests add for telling payloads apart) or
// nbc-exchange_rate-<date|form>.html (recorded).
const NAME = /(^|\/)exchange_rate\.php(\?[^/]*)?$|(^|[/-])exchange_rate-(\d{4}-\d{2}-\d{2}|form)\.html$/;
const DAY = /Exchange Rate on\s*:\s*(\d{4}-\d{2}-\d{2})/;
const HEADLINE = /Official Exchange Rate\s*:\s*([\d.]+)\s*KHR\s*\/\s*USD/;
// Holidays and Saturdays render this instead of a table.
const NO_DATA = /There is no data available/i;
const COLUMNS = ['Currency', 'Symbol', 'Unit', 'Bid', 'Ask', 'Average'];
const SYMBOL = /^([A-Z]{3})\/KHR$/;
// The table writes SDR for the IMF's unit of account; ISO 4217 calls it XDR.
const ISO_FOR: Readonly<Record<string, string>> = { SDR: 'XDR' };
// CNH (offshore yuan) is a market code, not ISO 4217: the onshore CNY row is the currency's rate.
const NOT_ISO = new Set(['CNH']);

const fail: (message: string) => never = failFor(CODE);

function tableRows(page: ReturnType<typeof parseHtml>, date: string): Observation[] {
  const table = page.querySelector('table.tbl-responsive');
  if (!table) fail(`the page of ${date} has no rate table`);
  const [header, ...rows] = table.querySelectorAll('tr').map((tr) => tr.querySelectorAll('td').map((td) => td.text.replace(/\s+/g, ' ').trim()));
  if (header?.join('|') !== COLUMNS.join('|')) fail(`the table of ${date} has columns ${JSON.stringify(header)}, expected ${COLUMNS.join(', ')}`);
  return rows.flatMap((cells): Observation[] => {
    const [, symbol = '', unit, , , average] = cells;
    const code = SYMBOL.exec(symbol)?.[1];
    if (cells.length !== COLUMNS.length || !code) fail(`the table of ${date} has a row that is not a KHR rate: ${JSON.stringify(cells)}`);
    if (NOT_ISO.has(code)) return [];
    const quote = ISO_FOR[code] ?? code;
    const where = `${quote} on ${date}`;
    // Average is the bank's own middle of Bid and Ask.
    return [{ date, quote, rate: decimalOf(fail, average, where), unit: unitOf(fail, unit, where), direction: 'direct' }];
  });
}

export const source: SyncSource = {
  code: CODE,
  name: 'National Bank of Cambodia',
  countryCode: 'KH',
  countryName: 'Cambodia',
  currency: 'KHR',
  cadence: 'daily',
  schedule: '*/30 9-11 * * 1-5',
  // Published at about 16:30 Phnom Penh time (UTC+7, no summer time) = 09:30 UTC, on the business
  // day before the date the rates are for (on Friday 22 May 2026 the page showed Monday's rates);
  // the calendar-day offset is exact except over weekends.
  publishedAtUtc: '09:30:00',
  publishedDayOffset: -1,
  feedUrl: `https://www.nbc.gov.kh${PAGE}`,
  baseUrl: 'https://www.nbc.gov.kh',
  // No terms page is known; this is the page that publishes the rates.
  termsUrl: `https://www.nbc.gov.kh${PAGE}`,
  terms: 'unknown',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const page = parseHtml(payload.body.toString('utf8'));
    const text = page.text.replace(/\s+/g, ' ');
    if (NO_DATA.test(text)) throw new NoPublication(CODE, `${payload.name}: there is no data for the chosen day`);
    const date = DAY.exec(text)?.[1];
    if (!date) fail(`${payload.name} has no "Exchange Rate on : YYYY-MM-DD"`);
    // The dollar is not in the table; the headline gives the official rate, KHR per 1 USD.
    const headline = HEADLINE.exec(text)?.[1];
    if (!headline) fail(`${payload.name} has no "Official Exchange Rate : … KHR / USD" headline`);
    const usd: Observation = { date, quote: 'USD', rate: decimalOf(fail, headline, `USD on ${date}`), unit: 1, direction: 'direct' };
    const rows = tableRows(page, date);
    if (rows.length === 0) fail(`the table of ${date} holds no rates`);
    return [usd, ...rows];
  },
  // The page first, once per business day: its form carries the CSRF token `tk`, valid with the
  // session cookie set alongside, and for one post only (the token rotates on every page: the peer
  // found a second post with it refused), so every day is a page visit and then its post.
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    const url = `${ctx.base}${PAGE}`;
    return windowDays(window, { weekdaysOnly: true }).map((day) => ({ url, follow: true, name: `${url}?exdate=${day}` }));
  },
  // The day's form post, in the form's own field order, with the page's token and cookie.
  follow(page: FollowedPage): FeedRequest[] {
    const day = /[?&]exdate=(\d{4}-\d{2}-\d{2})$/.exec(page.name)?.[1];
    if (!day) fail(`${page.name} names no day to post the form for`);
    const tk = hiddenFields(page.body.toString('utf8'), 'form#fm-ex').find(([name]) => name === 'tk')?.[1];
    if (!tk) fail(`${page.name} has no exchange-rate form with its tk token`);
    return [{ ...postBack(page, page.url, [['exdate', day], ['tk', tk], ['view', 'View']], []), name: page.name }];
  },
};
