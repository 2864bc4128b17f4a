// Central Bank of Iraq daily rates: an XLSX workbook linked from cbi.iq/page/144, one sheet per year
// (2009 on). A header row of "Buy"/"Sell"(/"Sell 2") columns per currency sits under labels in Arabic
// and English; day rows 1..31 follow per month, each month closed by an "Average" row.
import * as XLSX from '@e965/xlsx';
import { Decimal } from '../../money/decimal.js';
import { NoPublication, type FeedRequest, type FollowedPage, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { linkOn } from '../follow.js';
import { decimalOf, failFor, readWorkbook } from '../read.js';
import { monthNumber } from '../months.js';

const CODE = 'CBIR';
const fail: (message: string) => never = failFor(CODE);

// The workbook's name rotates whenever the bank re-uploads it; page/144 links the current one: the
// link whose text mentions gold (الذهب), as the page's other two workbooks are not the daily rates.
const PAGE = '/page/144';
const GOLD_LINK = /href="([^"]+\.xlsx)"[^>]*>[^<]*الذهب/;
const ALIASES: Record<string, string> = { 'S.FR': 'CHF', UAE: 'AED', SDR: 'XDR' };
const LABEL_CODE = /(?:^|[^A-Za-z.])(S\.FR|[A-Z]{3})\s*$/;
// Gold per ounce has its own column group in older sheets, typed partly as text with broken separators
// ("6,006 ,624.000") and ×1000 slips: no figure of it can be read without guessing, so XAU is left
// out here (D19) where other publishers' gold is read.
const GOLD = /Gold|الذهب/;
// "Spet." is how several sheets spell September.

type Cell = string | number;
interface Group {
  quote: string;
  buy: number;
  sell: number;
}

/** The sheet as rows of cells, read from the cell keys: some sheets declare 65,536 empty rows. */
function rowsOf(sheet: XLSX.WorkSheet): Cell[][] {
  const rows: Cell[][] = [];
  for (const key of Object.keys(sheet)) {
    if (key.startsWith('!')) continue;
    const { r, c } = XLSX.utils.decode_cell(key);
    const v = (sheet[key] as XLSX.CellObject).v;
    if (typeof v === 'number' || (typeof v === 'string' && v.trim() !== '')) (rows[r] ??= [])[c] = v;
  }
  return rows;
}

/** Column groups from the Buy/Sell header row; each group's code from a label above its columns. */
function groupsOf(rows: Cell[][], headerAt: number, year: string): Group[] {
  const header = rows[headerAt]!;
  const buys = header.flatMap((v, c) => (typeof v === 'string' && /^\s*Buy\b/i.test(v) ? [c] : []));
  return buys.flatMap((buy, i): Group[] => {
    const end = buys[i + 1] ?? header.length;
    const sell = header.findIndex((v, c) => c > buy && c < end && typeof v === 'string' && /^\s*Sell\b(?!.*\b2\s*$)/i.test(v));
    const labels = rows.slice(0, headerAt).flatMap((r) => (r ?? []).slice(buy, end)).filter((v): v is string => typeof v === 'string');
    if (labels.some((l) => GOLD.test(l))) return [];
    const code = labels.map((l) => LABEL_CODE.exec(l.trim())?.[1]).find((x) => x !== undefined);
    if (!code || sell < 0) fail(`sheet ${year}: no currency code or Sell column for the group at column ${buy + 1}`);
    return [{ quote: ALIASES[code] ?? code, buy, sell }];
  });
}

/** A rate cell: a positive figure, else undefined. 0 means "not quoted that day". Some figures are
 *  typed as text ("1698.224"); other text is a holiday note or a typing slip ("`1546.349" for EUR on
 *  2014-08-21), which is no figure the bank gave, so that cell is not read. */
function figure(v: Cell | undefined, where: string): string | undefined {
  if (v === undefined || (typeof v === 'string' && !/^\s*\d+(\.\d+)?\s*$/.test(v))) return undefined;
  const text = decimalOf(fail, v, where);
  return Number(text) > 0 ? text : undefined;
}

function parseSheet(year: string, sheet: XLSX.WorkSheet): Observation[] {
  const rows = rowsOf(sheet);
  const headerAt = rows.findIndex((r) => r?.some((v) => typeof v === 'string' && /^\s*Buy\b/i.test(v)));
  if (headerAt < 0) fail(`sheet ${year} has no Buy/Sell header row`);
  const groups = groupsOf(rows, headerAt, year);
  const observations: Observation[] = [];
  const seen = new Set<string>();
  // Month labels are missing or misspelt in places ("Spet.2017", none for May 2010), and one month
  // lacks its Average row (October 2010): a label sets the month, an Average row moves to the next.
  let month = 1;
  for (const row of rows.slice(headerAt + 1)) {
    const first = row?.[0];
    if (typeof first === 'string' && /^\s*average/i.test(first)) month++;
    const label = typeof first === 'string' ? /^\W*([a-z]{3})[a-z]*\.?\s*,?\s*\d{4}/i.exec(first)?.[1]?.toLowerCase() : undefined;
    // One sheet misspells September as "Spe".
    if (label) month = monthNumber(label === 'spe' ? 'sep' : label) || fail(`sheet ${year}: unknown month label ${JSON.stringify(first)}`);
    // A label typed as a date ("May-14", serial 41760) names its month too.
    const serial = typeof first === 'number' && first > 31 ? XLSX.SSF.parse_date_code(first) : undefined;
    if (serial && String(serial.y) === year) month = serial.m;
    const day = typeof first === 'number' || (typeof first === 'string' && /^\s*\d{1,2}\s*$/.test(first)) ? Number(first) : NaN;
    if (!(day >= 1 && day <= 31) || month > 12) continue;
    const date = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
    for (const { quote, buy, sell } of groups) {
      const bid = figure(row![buy], `${quote} buy on ${date}`);
      const ask = figure(row![sell], `${quote} sell on ${date}`);
      if (!bid || !ask) continue;
      // Rows past a month's end (30 February) are empty in the workbook; one with figures is a fault.
      if (!new Date(`${date}T00:00:00Z`).toISOString().startsWith(date)) fail(`sheet ${year}: figures on ${date}, which is not a day`);
      // The CBI publishes buy and sell (from 2025 also a "Sell 2", left aside) but no middle rate:
      // the exact midpoint of buy and sell is our reading.
      observations.push({ date, quote, rate: new Decimal(bid).plus(ask).div(2).toString(), unit: 1, direction: 'direct' });
      // A day met twice means a month boundary was misread: better no workbook than misdated rates.
      if (seen.has(`${date} ${quote}`)) fail(`sheet ${year}: ${quote} on ${date} appears twice`);
      seen.add(`${date} ${quote}`);
    }
  }
  return observations;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Central Bank of Iraq',
  countryCode: 'IQ',
  countryName: 'Iraq',
  currency: 'IQD',
  cadence: 'daily',
  grade: 'A',
  schedule: '*/30 10-12 * * 0-4',
  // No documented time; the start of the observed poll window, 10:00 UTC (13:00 in Baghdad, UTC+3).
  publishedAtUtc: '10:00:00',
  feedUrl: `https://cbi.iq${PAGE}`,
  baseUrl: 'https://cbi.iq',
  // No terms of use are published; the page that links the workbooks stands in.
  termsUrl: 'https://cbi.iq/page/144',
  accepts(name) {
    return /(^|[/-])file-\d+\.xlsx$/.test(name) || /(^|[/-])page[/-]144([-_.?/]|$)/.test(name);
  },
  parse(payload: Payload): Observation[] {
    // XLSX is a zip: anything else is the link page or an error page.
    if (payload.body.subarray(0, 2).toString('latin1') !== 'PK') {
      const text = payload.body.toString('utf8');
      const link = /href="([^"]+\.xlsx)"[^>]*>[^<]*الذهب/.exec(text)?.[1];
      if (link) throw new NoPublication(CODE, `${payload.name} is the page that links the workbook (${link}), not the workbook`);
      fail(`${payload.name} is not an XLSX workbook`);
    }
    // Formatted cell text is not needed and doubles the reading time of this 1.7 MB workbook.
    const book = readWorkbook(CODE, payload.name, payload.body, 'xlsx', { cellText: false, cellHTML: false });
    const observations: Observation[] = [];
    const earlier = new Set<string>();
    const sameDay = (o: Observation) => `${o.date.slice(5)} ${o.quote} ${o.rate}`;
    for (const name of book.SheetNames.filter((n) => /^\s*\d{4}\s*$/.test(n))) {
      const sheet = parseSheet(name.trim(), book.Sheets[name]!);
      // The recorded sheets 2010, 2011 and 2012 repeat 2009's figures day for day (SEK 140.978 on
      // 1 April of 2009 and of 2010; 80-100 % of their figures, against at most 13 % by chance in
      // other years): they are not those years' rates, so a sheet that mostly repeats is left out.
      if (sheet.filter((o) => earlier.has(sameDay(o))).length > sheet.length / 2) continue;
      for (const o of sheet) earlier.add(sameDay(o));
      observations.push(...sheet);
    }
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  // Page 144 first, for the current workbook's name; the workbook holds the whole history.
  requests(_window, ctx: RequestContext): FeedRequest[] {
    return [{ url: `${ctx.base}${PAGE}`, follow: true }];
  },
  follow(page: FollowedPage, _window, ctx: RequestContext): FeedRequest[] {
    const link = GOLD_LINK.exec(page.body.toString('utf8'))?.[1];
    if (link === undefined) fail(`${page.name} links no daily-rates workbook (no link mentioning gold)`);
    return [{ url: linkOn(link, page, source.baseUrl, ctx) }];
  },
};
