// National Reserve Bank of Tonga: "authorized persons' average exchange rates", one XLSX with a sheet
// per two years ("2025 to 2026"): an Excel date in column A, then BUY, MID and SELL blocks of the same
// twelve currencies. Quoted the indirect way, foreign units per 1 TOP (65.65 JPY); the MID block is kept.
import { SSF, utils, type CellObject, type WorkSheet } from '@e965/xlsx';
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isoCode, readWorkbook } from '../read.js';

const CODE = 'NRBT';
const PATH = '/data/docs/fmarkets/exrates/average_daily_exchange_rates.xlsx';
// …/average_daily_exchange_rates.xlsx (live) or nrbt-average_daily_exchange_rates-….xlsx (recorded).
const NAME = /(^|[/-])average_daily_exchange_rates([-.][^/]*)?\.xlsx$/;
const SHEET = /^(\d{4}) to (\d{4})$/;

const fail: (message: string) => never = failFor(CODE);

const cellAt = (sheet: WorkSheet, r: number, c: number): CellObject | undefined => sheet[utils.encode_cell({ r, c })] as CellObject | undefined;

/** Where the MID block starts: its heading ends in "MID", the currency codes sit a few rows below. */
function midBlock(sheet: WorkSheet, name: string): { row: number; col: number; quotes: string[] } {
  for (let r = 0; r < 10; r++) {
    for (let c = 1; c < 40; c++) {
      if (!/\bMID\s*$/.test(String(cellAt(sheet, r, c)?.v ?? ''))) continue;
      const row = [r + 1, r + 2, r + 3].find((below) => /^[A-Z]{3}$/.test(String(cellAt(sheet, below, c)?.v ?? '')));
      if (row === undefined) fail(`sheet ${name} has no currency codes under its MID heading`);
      const quotes: string[] = [];
      for (let col = c; /^[A-Z]{3}$/.test(String(cellAt(sheet, row, col)?.v ?? '')); col++) quotes.push(isoCode(fail, cellAt(sheet, row, col)?.v, `sheet ${name}`));
      return { row, col: c, quotes };
    }
  }
  return fail(`sheet ${name} has no MID block`);
}

function sheetRates(sheet: WorkSheet, name: string): Map<string, Observation[]> {
  const years = SHEET.exec(name);
  if (!years) fail(`unexpected sheet ${JSON.stringify(name)}`);
  const { row: codesRow, col, quotes } = midBlock(sheet, name);
  const days = new Map<string, Observation[]>();
  const last = utils.decode_range(sheet['!ref'] ?? 'A1').e.r;
  for (let r = codesRow + 1; r <= last; r++) {
    const serial = cellAt(sheet, r, 0);
    // Rows without an Excel date in column A are the contact footer or blank.
    if (serial?.t !== 'n') continue;
    // Holidays carry their name ("Public Holiday: Good Friday") in the first cell of each block.
    if (cellAt(sheet, r, col)?.t === 's') continue;
    const { y, m, d } = SSF.parse_date_code(serial.v as number);
    // Typed dates from another year (22-Mar-09 between 1 and 2 Jan 2019, 17-Jul-03 in July 2017)
    // cannot be put right with certainty, so those rows are left out.
    if (y < Number(years[1]) || y > Number(years[2])) continue;
    const date = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
    // The figure as the sheet shows it (4 decimals): behind it is a double such as 0.6537646832062136.
    const rates = quotes.map((quote, i): Observation => ({ date, quote, rate: decimalOf(fail, cellAt(sheet, r, col + i)?.w, `${quote} on ${date}`), unit: 1, direction: 'indirect' }));
    // A date typed twice (09-Aug-21, 28-Nov-19) follows a missing previous business day: the first row
    // is that day mistyped, the second the date's own figures, so the later row wins.
    days.set(date, rates);
  }
  return days;
}

export const source: SyncSource = {
  code: CODE,
  name: 'National Reserve Bank of Tonga',
  countryCode: 'TO',
  countryName: 'Tonga',
  currency: 'TOP',
  cadence: 'daily',
  grade: 'A',
  schedule: '*/30 4-6 * * 1-5',
  // NRBT documents no release time; the observed polling window opens at 04:00 UTC (17:00 in
  // Nuku'alofa, UTC+13, no daylight saving), so a day's figures are taken as published by then.
  publishedAtUtc: '04:00:00',
  feedUrl: `https://www.reservebank.to${PATH}`,
  baseUrl: 'https://www.reservebank.to',
  // NRBT links no terms of use; the exchange-rate page is where the workbook and its notes live.
  termsUrl: 'https://www.reservebank.to/index.php/financial-system/financial-markets/exchange-rates',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const book = readWorkbook(CODE, payload.name, payload.body, 'xlsx');
    const out = book.SheetNames.flatMap((name) => [...sheetRates(book.Sheets[name]!, name).values()].flat());
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  requests(_window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One workbook holds the whole history since 2017; ingest keeps what it wants.
    return [{ url: `${ctx.base}${PATH}` }];
  },
};
