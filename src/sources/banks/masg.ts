// Monetary Authority of Singapore, Monthly Statistical Bulletin exchange rates: the daily CSV export
// of an ASP.NET form. S$ per 1 unit (EUR, GBP, USD) or per 100 units (the rest); the multiplier is
// only stated in each column header ("S$ Per 100 Units of Japanese Yen"). Figures are as of noon.
import { parse as parseHtml } from 'node-html-parser';
import { type FeedRequest, type FetchWindow, type FollowedPage, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { hiddenFields, postBack } from '../follow.js';
import { csvCells } from '../csv.js';
import { decimalOf, decodeText, failFor } from '../read.js';
import { monthNumber } from '../months.js';

const CODE = 'MASG';
const PATH = '/statistics/msb/ExchangeRates.aspx';
const FORM = 'ctl00$ContentPlaceHolder1$';
// The export names currencies in English only.
const ISO: Readonly<Record<string, string>> = {
  Euro: 'EUR', 'Pound Sterling': 'GBP', 'US Dollar': 'USD', 'Australian Dollar': 'AUD', 'Canadian Dollar': 'CAD',
  'Chinese Renminbi': 'CNY', 'Hong Kong Dollar': 'HKD', 'Indian Rupee': 'INR', 'Indonesian Rupiah': 'IDR',
  'Japanese Yen': 'JPY', 'Korean Won': 'KRW', 'Malaysian Ringgit': 'MYR', 'New Taiwan Dollar': 'TWD',
  'New Zealand Dollar': 'NZD', 'Philippine Peso': 'PHP', 'Qatar Riyal': 'QAR', 'Saudi Arabia Riyal': 'SAR',
  'Swiss Franc': 'CHF', 'Thai Baht': 'THB', 'UAE Dirham': 'AED', 'Vietnamese Dong': 'VND',
};
// The hidden multiplier: "S$ Per Unit of Euro" is 1, "S$ Per 100 Units of Japanese Yen" is 100.
const COLUMN = /^S\$ Per (Unit|(\d+) Units) of (.+)$/;
// Live …/statistics/msb/ExchangeRates.aspx or recorded msb-ExchangeRates-….csv.
const NAME = /(^|\/)msb[/-]ExchangeRates/i;

const fail: (message: string) => never = failFor(CODE);

function column(header: string): { quote: string; unit: number } {
  const m = COLUMN.exec(header.trim());
  const quote = m ? ISO[m[3]!] : undefined;
  if (!m || quote === undefined) fail(`unknown column ${JSON.stringify(header)}`);
  return { quote, unit: m[2] === undefined ? 1 : Number(m[2]) };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Monetary Authority of Singapore',
  countryCode: 'SG',
  countryName: 'Singapore',
  currency: 'SGD',
  cadence: 'daily',
  schedule: '*/30 10-12 * * 1-5',
  // "Daily figures are values as of noon" Singapore time (SGT, UTC+8, no daylight saving): 04:00 UTC.
  publishedAtUtc: '04:00:00',
  feedUrl: `https://eservices.mas.gov.sg${PATH}`,
  baseUrl: 'https://eservices.mas.gov.sg',
  termsUrl: 'https://www.mas.gov.sg/terms-of-use',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const lines = decodeText(payload.body).split(/\r?\n/);
    // Double-quoted cells ("" for a quote) as in the footnotes.
    const cells = (line: string) => csvCells(fail, line);
    // The form also exports weekly, monthly and yearly figures (end of period): only daily is read.
    if (!lines.slice(0, 6).some((l) => l.trim() === 'Exchange Rates (Daily)')) fail(`${payload.name} is not the daily exchange-rate export`);
    const at = lines.findIndex((l) => l.startsWith('End of Period,'));
    if (at < 0) fail(`${payload.name} has no "End of Period" header`);
    const columns = cells(lines[at]!).slice(3).map(column);
    const out: Observation[] = [];
    let year = '';
    let month = 0;
    let i = at + 1;
    for (; i < lines.length && lines[i]!.trim() !== ''; i++) {
      const row = cells(lines[i]!);
      if (row.length !== columns.length + 3) fail(`line ${i + 1} has ${row.length} cells, expected ${columns.length + 3}`);
      // Year and month are only written on the first row they apply to.
      if (row[0] !== '') year = row[0]!;
      if (row[1] !== '') month = monthNumber(row[1]!);
      if (!/^\d{4}$/.test(year) || month === 0 || !/^\d{1,2}$/.test(row[2]!)) fail(`line ${i + 1} has no year, month and day`);
      const date = `${year}-${String(month).padStart(2, '0')}-${row[2]!.padStart(2, '0')}`;
      columns.forEach(({ quote, unit }, c) => {
        const raw = row[c + 3]!;
        // A blank cell: no figure for that currency that day.
        if (raw === '') return;
        out.push({ date, quote, rate: decimalOf(fail, raw, `bad ${quote} figure on ${date}`), unit, direction: 'direct' });
      });
    }
    // Every export ends with its footnotes ("* Daily figures are values as of noon."); without them
    // the file was cut, possibly between two rows.
    if (!lines.slice(i).some((l) => l.startsWith('"*'))) fail(`${payload.name} is truncated (no footnotes)`);
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  // The form page first: the CSV export is its postback, wanting its __VIEWSTATE and
  // __EVENTVALIDATION and the session cookie (see follow).
  requests(_window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return [{ url: `${ctx.base}${PATH}`, follow: true }];
  },
  // One postback per calendar year, daily, with every currency box the page offers ticked.
  follow(page: FollowedPage, window: FetchWindow): FeedRequest[] {
    const root = parseHtml(decodeText(page.body));
    const hidden = hiddenFields(root.toString(), 'form');
    const boxes = root
      .querySelectorAll('input[type=checkbox]')
      .map((b) => b.getAttribute('name') ?? '')
      .filter((n) => n.startsWith(`${FORM}EndOfPeriodPerUnitCheckBoxList$`) || n.startsWith(`${FORM}EndOfPeriodPer100UnitsCheckBoxList$`));
    if (!hidden.some(([n]) => n === '__VIEWSTATE') || boxes.length === 0) fail(`${page.name} is not the exchange-rate form (no ViewState or currency boxes)`);
    const [fromYear, toYear] = [Number(window.from.slice(0, 4)), Number(window.to.slice(0, 4))];
    const requests: FeedRequest[] = [];
    for (let year = fromYear; year <= toYear; year++) {
      const fields: [string, string][] = [
        [`${FORM}StartYearDropDownList`, String(year)],
        [`${FORM}StartMonthDropDownList`, year === fromYear ? String(Number(window.from.slice(5, 7))) : '1'],
        [`${FORM}EndYearDropDownList`, String(year)],
        [`${FORM}EndMonthDropDownList`, year === toYear ? String(Number(window.to.slice(5, 7))) : '12'],
        [`${FORM}FrequencyDropDownList`, 'D'],
        ...boxes.map((b): [string, string] => [b, 'on']),
        [`${FORM}DownloadButton`, 'Download'],
      ];
      requests.push(postBack(page, page.url, fields, hidden));
    }
    return requests;
  },
};
