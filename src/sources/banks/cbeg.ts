// Central Bank of Egypt official exchange rates, from the XLSX its historical-data form returns: one
// sheet of Date | Currency | Buy | Sell rows, EGP per unit, currencies by English name. Only buy and
// sell are published; the rate kept is their exact midpoint (see observation()).
import { SSF } from '@e965/xlsx';
import { Decimal } from '../../money/decimal.js';
import { BROWSER_USER_AGENT } from '../http.js';
import { NoPublication, type FeedRequest, type FetchWindow, type FollowedPage, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor, firstSheetRows, toDmy } from '../read.js';
import { hiddenFields, postBack } from '../follow.js';

const CODE = 'CBEG';
const HEADER = ['Date', 'Currency', 'Buy', 'Sell'];
// …/api/statistics/GetHistoricalData (live) or GetHistoricalData-….xlsx (recorded).
const NAME = /(^|\/)GetHistoricalData(-[^/]*\.xlsx)?$/;
// The form's hidden fields, as the bank's historical-data page sends them.
const DATA_SOURCE_ID = '19CFFDDBFF494350A5E9C6A4397FC7DF';
const FALLBACK_URL = '/en/economic-research/statistics/cbe-exchange-rates/historical-data';

// Every name the sheet uses, exactly as written. An unknown name fails the payload rather than being
// dropped or guessed: a new currency, or a renamed one, has to be looked at before it is ingested.
const CURRENCIES: Readonly<Record<string, { quote: string; unit: number }>> = {
  'US Dollar': { quote: 'USD', unit: 1 },
  Euro: { quote: 'EUR', unit: 1 },
  'Pound Sterling': { quote: 'GBP', unit: 1 },
  'Canadian Dollar': { quote: 'CAD', unit: 1 },
  'Danish Krone': { quote: 'DKK', unit: 1 },
  'Norwegian Krone': { quote: 'NOK', unit: 1 },
  'Swedish Krona': { quote: 'SEK', unit: 1 },
  'Swiss Franc': { quote: 'CHF', unit: 1 },
  // EGP per 100 yen, stated only in the name.
  'Japanese Yen 100': { quote: 'JPY', unit: 100 },
  'Saudi Riyal': { quote: 'SAR', unit: 1 },
  'Kuwaiti Dinar': { quote: 'KWD', unit: 1 },
  'UAE Dirham': { quote: 'AED', unit: 1 },
  'Australian Dollar': { quote: 'AUD', unit: 1 },
  'Bahraini Dinar': { quote: 'BHD', unit: 1 },
  'Omani Riyal': { quote: 'OMR', unit: 1 },
  'Qatari Riyal': { quote: 'QAR', unit: 1 },
  'Jordanian Dinar': { quote: 'JOD', unit: 1 },
  'Chinese Yuan': { quote: 'CNY', unit: 1 },
};

const fail: (message: string) => never = failFor(CODE);

/** An Excel day number (the sheet's dd/MM/yyyy cells) as YYYY-MM-DD. */
function excelDate(serial: unknown): string {
  if (typeof serial !== 'number' || !Number.isInteger(serial) || serial <= 0) fail(`bad date cell ${JSON.stringify(serial)}`);
  const { y, m, d } = SSF.parse_date_code(serial);
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** A buy or sell cell: an empty one is named as missing, not as a bad number. */
const figure = (raw: unknown, what: string): string => (raw === null || raw === undefined ? fail(`no ${what}`) : decimalOf(fail, raw, `bad ${what}`));

function observation(cells: unknown[]): Observation {
  const [serial, name, buyCell, sellCell] = cells;
  const date = excelDate(serial);
  const currency = typeof name === 'string' && Object.hasOwn(CURRENCIES, name.trim()) ? CURRENCIES[name.trim()]! : undefined;
  if (currency === undefined) fail(`unknown currency ${JSON.stringify(name)} on ${date}`);
  const buy = figure(buyCell, `${currency.quote} buy rate on ${date}`);
  const sell = figure(sellCell, `${currency.quote} sell rate on ${date}`);
  // The CBE publishes a buying and a selling rate and defines no mid. The rate kept is their midpoint
  // (the spread is about 0.25%): our reading, not the bank's statement, and the one other users of
  // this feed make. Computed exactly, never rounded: 53.0734 and 53.2067 give 53.14005.
  const rate = new Decimal(buy).plus(sell).div(2).toString();
  return { date, quote: currency.quote, rate, unit: currency.unit, direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Central Bank of Egypt',
  countryCode: 'EG',
  countryName: 'Egypt',
  currency: 'EGP',
  cadence: 'daily',
  // Egypt's working week is Sunday to Thursday.
  schedule: '*/30 10-12 * * 0-4',
  // No publication time is documented; the observed polling window opens at 10:00 UTC (12:00 in
  // Cairo on standard time, EET = UTC+2), so a figure is taken as published by then.
  publishedAtUtc: '10:00:00',
  feedUrl: 'https://www.cbe.org.eg/en/economic-research/statistics/cbe-exchange-rates',
  baseUrl: 'https://www.cbe.org.eg',
  termsUrl: 'https://www.cbe.org.eg/en/disclaimer',
  terms: 'unknown',
  // The disclaimer asks that the CBE be cited as the source of information distributed or reproduced.
  attribution: 'Source: Central Bank of Egypt',
  // Its F5 firewall refuses a non-browser agent and a request without Origin (the peer, 2026-05 and 08).
  headers: { 'user-agent': BROWSER_USER_AGENT, origin: 'https://www.cbe.org.eg' },
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    // The firewall's refusal is an HTTP 200 page saying so (the peer, 2026-08): a fault, in its words.
    if (payload.body.subarray(0, 8192).toString('latin1').includes('Request Rejected')) fail(`${payload.name} is not an XLSX workbook: the bank's firewall answered "Request Rejected"`);
    const rows = firstSheetRows(CODE, payload.name, payload.body, 'xlsx');
    // A merged, empty title row comes first; the data follow the column header.
    const head = rows.findIndex((r) => HEADER.every((h, i) => r[i] === h));
    if (head < 0) fail(`${payload.name} has no ${HEADER.join(' | ')} header`);
    const data = rows.slice(head + 1).filter((r) => r.some((c) => c !== null && c !== ''));
    // The header with no row under it: the window held only Egyptian weekends and holidays.
    if (data.length === 0) throw new NoPublication(CODE, `${payload.name} holds no rates: no working day in the window`);
    return data.map(observation);
  },
  // The historical-data page first: its form carries the anti-forgery token that must come back with
  // the antiforgery cookie set alongside it (see follow).
  requests(_window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return [{ url: `${ctx.base}${FALLBACK_URL}`, follow: true }];
  },
  // The form posted for the window and every currency, with the page's hidden fields and cookie.
  follow(page: FollowedPage, window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    const hidden = hiddenFields(decodeText(page.body), 'form[action*="GetHistoricalData"]');
    if (!hidden.some(([n, v]) => n === '__RequestVerificationToken' && v !== '')) fail(`${page.name} has no historical-data form with an anti-forgery token`);
    return [
      postBack(page, `${ctx.base}/api/statistics/GetHistoricalData`, [
        ['DataSourceId', DATA_SOURCE_ID],
        ['FallbackUrl', FALLBACK_URL],
        ['LanguageName', 'en'],
        ['FromDateRaw', toDmy(window.from, '/')],
        ['ToDateRaw', toDmy(window.to, '/')],
        ...Object.keys(CURRENCIES).map((name): [string, string] => ['SelectedSelectOptions', name]),
        ['SubmitAction', '2'],
      ], hidden),
    ];
  },
};
