// Reserve Bank of Fiji daily mid rates: an XLSX (sheet "Exchange Rates", 2001 onward) of Period |
// SDR | STG | YEN | CHF | A$ | NZ$ | US$ | EURO, quoted the indirect way: foreign units per 1 FJD.
// The workbook's address changes with every upload; the statistics hub page links the current one.
import { SSF, utils, type CellObject, type WorkSheet } from '@e965/xlsx';
import { NoPublication, type FeedRequest, type FetchWindow, type FollowedPage, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { linkOn } from '../follow.js';
import { decimalOf, failFor, isWholeHtml, readWorkbook } from '../read.js';

const CODE = 'RBFJ';
const HUB = '/statistics/economic-and-financial-statistics/';
const SHEET = 'Exchange Rates';
// …/wp-content/uploads/YYYY/MM/8.8-Exchange-Rates-Daily-N.xlsx (the workbook, live or recorded).
const WORKBOOK = /(^|[/-])8\.8-Exchange-Rates-Daily(-\d+)?\.xlsx$/;
// …/statistics/economic-and-financial-statistics/ (live) or rbf-economic-and-financial-statistics-….html.
const HUB_NAME = /(^|[/-])economic-and-financial-statistics(\/|-[^/]*\.html)?$/;
const LINK = /href="([^"]*\/8\.8-Exchange-Rates-Daily[^"/]*\.xlsx)"/;
// The sheet's labels, exactly as written (less padding). An unknown label fails the payload.
const LABELS: Readonly<Record<string, string>> = { SDR: 'XDR', STG: 'GBP', YEN: 'JPY', CHF: 'CHF', A$: 'AUD', NZ$: 'NZD', US$: 'USD', EURO: 'EUR' };

const fail: (message: string) => never = failFor(CODE);

const text = (cell: CellObject | undefined) => String(cell?.w ?? cell?.v ?? '').trim();

function sheetRates(sheet: WorkSheet): Observation[] {
  const range = utils.decode_range(sheet['!ref'] ?? 'A1');
  const at = (r: number, c: number) => sheet[utils.encode_cell({ r, c })] as CellObject | undefined;
  let head = 0;
  while (head <= Math.min(range.e.r, 10) && text(at(head, 0)) !== 'Period') head++;
  if (head > Math.min(range.e.r, 10)) fail(`sheet ${SHEET} has no Period heading`);
  const quotes: string[] = [];
  for (let c = 1; text(at(head, c)) !== ''; c++) quotes.push(LABELS[text(at(head, c))] ?? fail(`unknown currency label ${JSON.stringify(text(at(head, c)))}`));
  const out: Observation[] = [];
  for (let r = head + 1; r <= range.e.r; r++) {
    const serial = at(r, 0);
    // Rows without an Excel date in column A are notes or blank.
    if (serial?.t !== 'n') continue;
    const { y, m, d } = SSF.parse_date_code(serial.v as number);
    const date = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
    // The figure as the sheet shows it ("$0.3532", JPY "$71.58"); before 2010 or so the double behind
    // it carries ten or more decimals (0.353198343304188) that RBF does not publish.
    quotes.forEach((quote, i) => {
      out.push({ date, quote, rate: decimalOf(fail, text(at(r, i + 1)).replace(/^\$/, ''), `${quote} on ${date}`), unit: 1, direction: 'indirect' });
    });
  }
  return out;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Reserve Bank of Fiji',
  countryCode: 'FJ',
  countryName: 'Fiji',
  currency: 'FJD',
  cadence: 'daily',
  grade: 'A',
  schedule: '*/30 2-4 * * 1-5',
  // The USD rate is fixed at 09:00 Suva time (FJT, UTC+12, no daylight saving since 2021): 21:00 UTC
  // the day before, hence the day offset.
  publishedAtUtc: '21:00:00',
  publishedDayOffset: -1,
  feedUrl: `https://www.rbf.gov.fj${HUB}`,
  baseUrl: 'https://www.rbf.gov.fj',
  // RBF has no terms page (its footer holds a liability disclaimer); the hub is where the data live.
  termsUrl: `https://www.rbf.gov.fj${HUB}`,
  terms: 'unknown',
  accepts(name) {
    return WORKBOOK.test(name) || HUB_NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    if (payload.body.subarray(0, 4).toString('latin1') !== 'PK\x03\x04') {
      const html = payload.body.toString('utf8');
      const link = isWholeHtml(html) ? LINK.exec(html)?.[1] : undefined;
      if (link === undefined) fail(`${payload.name} is neither the workbook nor the statistics hub linking it`);
      // A recorded or imported hub page holds no rates by itself: fetching follows its link (the
      // `follow` step below), so here it is a valid answer without a publication.
      throw new NoPublication(CODE, `${payload.name} holds no rates; the daily workbook is at ${link}`);
    }
    const sheet: WorkSheet | undefined = readWorkbook(CODE, payload.name, payload.body, 'xlsx').Sheets[SHEET];
    if (sheet === undefined) fail(`${payload.name} has no sheet "${SHEET}"`);
    const out = sheetRates(sheet);
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  // The hub first: the workbook's address changes with every upload, and the hub links the current one.
  requests(_window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return [{ url: `${ctx.base}${HUB}`, follow: true }];
  },
  follow(page: FollowedPage, _window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    const link = LINK.exec(page.body.toString('utf8'))?.[1];
    if (link === undefined) fail(`${page.name} links no 8.8-Exchange-Rates-Daily workbook`);
    return [{ url: linkOn(link, page, source.baseUrl, ctx) }];
  },
};
