// Central Bank of Samoa indicative rates: the daily page (today's rates) and the history workbook it
// links (one sheet per year since 2008, month blocks of DATE | TALA/USD | TALA/NZD | …). Both quote
// "Units of Foreign Currency per ST1.00", i.e. indirect: foreign units per 1 WST.
import * as XLSX from '@e965/xlsx';
import { parse as parseHtml } from 'node-html-parser';
import { type FeedRequest, type FollowedPage, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { linkOn } from '../follow.js';
import { decimalOf, failFor, readWorkbook } from '../read.js';
import { monthNumber } from '../months.js';

const CODE = 'CBSA';
const SEP = '(?:[-_\\s]|%20)*';
// daily-exchange-rates (live page) or cbs-daily-exchange-rates-<date>.html (recorded); the workbook's
// name carries its date and has been written with hyphens and with spaces.
const NAME = new RegExp(`(^|[/-])daily-exchange-rates(/?|-\\d{4}-\\d{2}-\\d{2}\\.html)$|Historical${SEP}Daily${SEP}Rates[^/]*\\.xlsx$`, 'i');
// The page states no date; the workbook it links is named after the day it runs to (…-June032026.xlsx),
// whose last row holds the page's figures.
const LINKED_DAY = new RegExp(`Historical${SEP}Daily${SEP}Rates${SEP}([A-Za-z]{3,9})${SEP}(\\d{1,2})${SEP}(\\d{4})[^"'/]*\\.xlsx`, 'i');
const WORKBOOK_LINK = new RegExp(`href="([^"]*Historical${SEP}Daily${SEP}Rates[^"/]*\\.xlsx)"`, 'i');
const PER_TALA = /Units of Foreign Currency per ST\s?1\.00/i;
// Column labels without "TALA" and "/": 2008 and 2013 on write TALA/USD, 2009–2012 US/TALA, yet the
// figures are the same foreign units per tala throughout (USD 0.35–0.44). null: CNH, the offshore
// yuan, is a market code, not ISO 4217 (the onshore CNY column is the currency's rate).
const LABELS: Readonly<Record<string, string | null>> = { USD: 'USD', US: 'USD', NZD: 'NZD', NZ: 'NZD', AUD: 'AUD', AUS: 'AUD', EUR: 'EUR', EURO: 'EUR', FJD: 'FJD', YEN: 'JPY', GBP: 'GBP', CNY: 'CNY', CNH: null };
const PAGE_NAMES: Readonly<Record<string, string | null>> = {
  'United States Dollar': 'USD', 'New Zealand Dollar': 'NZD', 'Australian Dollar': 'AUD', Euro: 'EUR', 'Fijian Dollar': 'FJD',
  'Japanese Yen': 'JPY', 'Great Britain Pound': 'GBP', 'Chinese Yuan Onshore': 'CNY', 'Chinese Yuan Offshore': null,
};

const ZIP = Buffer.from('PK\x03\x04', 'latin1');

const fail: (message: string) => never = failFor(CODE);
const indirect = (date: string, quote: string, rate: string): Observation => ({ date, quote, rate, unit: 1, direction: 'indirect' });
const isoDay = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

function header(cells: unknown[], where: string): (string | null | undefined)[] {
  return cells.map((cell) => {
    if (cell === null || cell === undefined) return undefined;
    const label = String(cell).toUpperCase().replace('TALA', '').replace('/', '').trim();
    if (!(label in LABELS)) fail(`${where}: unknown column ${JSON.stringify(cell)}`);
    return LABELS[label];
  });
}

function parseSheet(name: string, sheet: XLSX.WorkSheet): Observation[] {
  // Every block sits in columns B onward (B the date), whatever else a sheet's range takes in.
  const { s, e } = XLSX.utils.decode_range(sheet['!ref'] ?? 'B1:B1');
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null, range: { s: { r: s.r, c: 1 }, e } });
  const day = (serial: number) => XLSX.SSF.parse_date_code(serial);
  // Sheets "2010" and "2011" hold each other's year, so the year is the one most rows have.
  const years = new Map<number, number>();
  for (const [first] of rows) if (typeof first === 'number') years.set(day(first).y, (years.get(day(first).y) ?? 0) + 1);
  const year = [...years].sort((a, b) => b[1] - a[1])[0]?.[0];
  const out: Observation[] = [];
  let month = -1;
  let columns: (string | null | undefined)[] = [];
  for (const [first, ...cells] of rows) {
    if (typeof first === 'string') {
      const label = first.trim().toUpperCase();
      // A month banner, in 2008 now and then on the header row itself.
      if (monthNumber(label) > 0) [month, columns] = [monthNumber(label) - 1, cells.some((c) => typeof c === 'string') ? header(cells, name) : []];
      else if (label === 'DATE') columns = header(cells, name);
      // Anything else labelled ("Jan", "Jun qtr avg" in 2017) is a monthly or quarterly average.
      continue;
    }
    // Blank rows, and the unlabelled monthly averages of 2018.
    if (typeof first !== 'number') continue;
    const { y, m, d } = day(first);
    // Mistyped dates are left out rather than guessed: 2015-06-30 in the June blocks of 2013 and
    // 2014 (copies of the 2015 sheet's row), and 12 Jan 2026 again, with other figures, between 11
    // and 13 February 2026 (where 12 February belongs).
    if (y !== year || m - 1 !== month) continue;
    if (columns.length === 0) fail(`sheet ${name}: a dated row before any header`);
    const date = isoDay(y, m, d);
    cells.forEach((value, i) => {
      const quote = columns[i];
      // "n/a" marks two 2016 days without a CNY figure.
      if (!quote || value === null || value === 'n/a') return;
      if (typeof value !== 'number') fail(`sheet ${name}: ${quote} on ${date} is ${JSON.stringify(value)}`);
      // Some recent rows are formula results stored to 17 digits; cleanDecimal keeps 15 of them.
      out.push(indirect(date, quote, decimalOf(fail, value, `${quote} on ${date}`)));
    });
  }
  return out;
}

function parseWorkbook(body: Buffer, name: string): Observation[] {
  const book = readWorkbook(CODE, name, body, 'xlsx', { dense: true, cellText: false, cellHTML: false });
  const out = book.SheetNames.flatMap((sheet) => parseSheet(sheet, book.Sheets[sheet]!));
  if (out.length === 0) fail(`${name} holds no rates`);
  return out;
}

function parsePage(html: string, name: string): Observation[] {
  const page = parseHtml(html);
  if (!PER_TALA.test(page.text)) fail(`${name} does not say "Units of Foreign Currency per ST1.00"`);
  const linked = LINKED_DAY.exec(html);
  const month = linked ? monthNumber(linked[1]!.slice(0, 3)) : 0;
  if (!linked || month === 0) fail(`${name} links no dated Historical-Daily-Rates workbook`);
  const date = isoDay(Number(linked[3]), month, Number(linked[2]));
  const table = page.querySelectorAll('table').find((t) => /^\s*Currency\s*SAT\s*$/.test(t.querySelector('tr')?.text ?? ''));
  if (!table) fail(`${name} has no Currency | SAT table`);
  // The "SAT/USD: Sell … Buy …" line above the table is a dealing spread; the table has the rates.
  const out = table.querySelectorAll('tr').slice(1).flatMap((tr) => {
    const [label = '', figure] = tr.querySelectorAll('td').map((td) => td.text.trim());
    if (!(label in PAGE_NAMES)) fail(`${name}: unknown currency ${JSON.stringify(label)}`);
    const quote = PAGE_NAMES[label];
    return quote ? [indirect(date, quote, decimalOf(fail, figure, `${quote} on ${date}`))] : [];
  });
  if (out.length === 0) fail(`${name} holds no rates`);
  return out;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Central Bank of Samoa',
  countryCode: 'WS',
  countryName: 'Samoa',
  currency: 'WST',
  cadence: 'daily',
  schedule: '*/30 19-21 * * 0-4',
  // Updated in the Apia morning (the recorded page at 09:02, UTC+13 with no summer time) = 20:00 UTC
  // on the day before the rates' date: hence the day offset. Samoa was at UTC-11 until it skipped
  // 30 December 2011: before, its morning was 20:00 UTC of the rates' own date (its 2008-2011 figures
  // match the ECB of that date, 24 hours later than the offset would place them: issue 25).
  publishedAtUtc: '20:00:00',
  publishedDayOffset: -1,
  publishedDayOffsetFrom: '2011-12-30',
  feedUrl: 'https://cbs.gov.ws/daily-exchange-rates',
  baseUrl: 'https://cbs.gov.ws',
  // No terms are known ("indicative rates only but not for market use"); this is the page itself.
  termsUrl: 'https://cbs.gov.ws/daily-exchange-rates',
  terms: 'unknown',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    // An XLSX file is a zip archive; anything else must be the page.
    const isZip = payload.body.subarray(0, 4).equals(ZIP);
    return isZip ? parseWorkbook(payload.body, payload.name) : parsePage(payload.body.toString('utf8'), payload.name);
  },
  // The page first: it has only today's rates, and links the history workbook (whose name changes
  // every day) that holds them too, as its last row, with every day before: backfill included.
  requests(_window, ctx: RequestContext): FeedRequest[] {
    return [{ url: `${ctx.base}/daily-exchange-rates`, follow: true }];
  },
  follow(page: FollowedPage, _window, ctx: RequestContext): FeedRequest[] {
    const link = WORKBOOK_LINK.exec(page.body.toString('utf8'))?.[1];
    if (link === undefined) fail(`${page.name} links no Historical-Daily-Rates workbook`);
    return [{ url: linkOn(link, page, source.baseUrl, ctx) }];
  },
};
