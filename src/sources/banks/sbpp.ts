// State Bank of Pakistan daily average banks' floating exchange rates: XLSX workbooks laid out wide,
// one row per currency (Country | Currency), one column per business day (an Excel date heading),
// PKR per 1 unit. BFER_Daily.xlsx holds a month, BFER_Daily_Arch.xlsx every finalised month since 2013.
import { SSF, utils, type CellObject, type WorkSheet } from '@e965/xlsx';
import { BROWSER_USER_AGENT } from '../http.js';
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, readWorkbook } from '../read.js';

const CODE = 'SBPP';
const FILES = ['BFER_Daily_Arch.xlsx', 'BFER_Daily.xlsx'];
// …/assets/document/BFER_Daily(_Arch).xlsx (live) or sbp-BFER_Daily(_Arch)-….xlsx (recorded).
const NAME = /(^|[/-])BFER_Daily(_Arch)?(-[^/]*)?\.xlsx$/;
// Every name the two workbooks use, spelling slips included ("Japnese Yen" in the month file). An
// unknown name fails the payload rather than being dropped or guessed.
const NAMES: Readonly<Record<string, string>> = {
  'Australian Dollar': 'AUD', 'Bahraini Dinar': 'BHD', 'Canadian Dollar': 'CAD', 'Chinese Yuan': 'CNY', 'Danish Krone': 'DKK',
  'Hong Kong Dollar': 'HKD', 'Hongkong Dollar': 'HKD', 'Japanese Yen': 'JPY', 'Japnese Yen': 'JPY', 'Kuwaiti Dinar': 'KWD',
  'Malaysian Ringgit': 'MYR', 'New Zealand Dollar': 'NZD', 'Norwegian Krone': 'NOK', 'Omani Riyal': 'OMR', 'Qatari Riyal': 'QAR',
  'Singapore Dollar': 'SGD', 'Singaporian Dollar': 'SGD', 'Swedish Krona': 'SEK', 'Swedish Krone': 'SEK', 'Swiss Franc': 'CHF',
  'Saudi Arabian Riyal': 'SAR', 'Thai Baht': 'THB', 'Thai Bhat': 'THB', 'Turkish Lira': 'TRY', 'UAE Dirham': 'AED',
  'U.A.E. Dirham': 'AED', 'UK Pound Sterling': 'GBP', 'U.K. Pound Sterling': 'GBP', 'U.S. Dollar': 'USD', Euro: 'EUR',
};

const fail: (message: string) => never = failFor(CODE);

function sheetRates(sheet: WorkSheet): Observation[] {
  const at = (r: number, c: number) => sheet[utils.encode_cell({ r, c })] as CellObject | undefined;
  const last = utils.decode_range(sheet['!ref'] ?? 'A1').e.r;
  // The heading row names column B "Currency" (column A is "Country" or "Country / Monetary Union").
  let head = 0;
  while (head <= Math.min(last, 15) && String(at(head, 1)?.v ?? '').trim() !== 'Currency') head++;
  if (head > Math.min(last, 15)) fail('no Country | Currency heading row');
  const dates: string[] = [];
  for (let c = 2; at(head, c) !== undefined; c++) {
    const serial = at(head, c)!;
    if (serial.t !== 'n') fail(`column heading ${JSON.stringify(serial.v)} is not a date`);
    const { y, m, d } = SSF.parse_date_code(serial.v as number);
    dates.push(`${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
  }
  const out: Observation[] = [];
  // Currency rows run to the first row without a figure under the first date (a blank row, or the
  // "Contact Person:" lines).
  for (let r = head + 1; r <= last && at(r, 2) !== undefined; r++) {
    const name = String(at(r, 1)?.v ?? '').trim();
    const quote = NAMES[name] ?? fail(`unknown currency name ${JSON.stringify(name)}`);
    dates.forEach((date, i) => {
      const cell = at(r, i + 2);
      // An empty cell is a day without a figure for that currency, not a fault.
      if (cell === undefined) return;
      // The figure as the sheet shows it: six decimals in the month file, four in the archive; the
      // double behind both carries the averaging's tail (279.35178571428565).
      out.push({ date, quote, rate: decimalOf(fail, cell.w ?? cell.v, `${quote} on ${date}`), unit: 1, direction: 'direct' });
    });
  }
  return out;
}

export const source: SyncSource = {
  code: CODE,
  name: 'State Bank of Pakistan',
  countryCode: 'PK',
  countryName: 'Pakistan',
  currency: 'PKR',
  // Each figure is a business day's; the files are only refreshed monthly, which makes the figures
  // late, not monthly: they stay out of current blends once more than a few days old.
  cadence: 'daily',
  grade: 'A',
  schedule: '*/30 5-15 15-28 * *',
  // No release time is documented and the workbooks appear weeks after the days they cover. A day's
  // average is complete when the interbank day closes, about 16:00 Karachi time (PKT, UTC+5): 11:00 UTC.
  publishedAtUtc: '11:00:00',
  feedUrl: 'https://www.sbp.org.pk/assets/document/BFER_Daily.xlsx',
  baseUrl: 'https://www.sbp.org.pk/assets/document',
  termsUrl: 'https://www.sbp.org.pk/our-operations/disclaimer',
  terms: 'unknown',
  // Cloudflare in front of the SBP refuses non-browser agents (the peer, 2026-07).
  headers: { 'user-agent': BROWSER_USER_AGENT },
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const book = readWorkbook(CODE, payload.name, payload.body, 'xlsx');
    const sheet: WorkSheet | undefined = book.Sheets[book.SheetNames[0] ?? ''];
    if (sheet === undefined) fail(`${payload.name} has no sheet`);
    const out = sheetRates(sheet);
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  requests(_window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // Neither file takes a date: the archive has every finalised month, the month file the newest
    // (which has lagged behind the archive). Fetched in this order, so where they overlap the month
    // file's six decimals are stored last.
    return FILES.map((file) => ({ url: `${ctx.base}/${file}` }));
  },
};
