// Reserve Bank of Australia table F11.1 (exchange rates, 4pm Sydney): one CSV of every business day
// since 2023, with metadata rows (Title, Description, …, Units, …, Series ID) above the data. Columns
// are titled "A$1=USD": foreign units per 1 AUD. The file has no date parameters; each fetch is whole.
import { type FeedRequest, type Observation, type Payload, type SyncSource } from '../types.js';
import { csvCells } from '../csv.js';
import { decimalOf, decodeText, failFor } from '../read.js';
import { monthNumber } from '../months.js';

const CODE = 'RSBK';
const PATH = '/statistics/tables/csv/f11.1-data.csv';
const NAME = /(^|\/)f11\.1-data\.csv(\?|$)/;
const DATE = /^(\d{2})-([A-Z][a-z]{2})-(\d{4})$/;
const TITLE = /^A\$1=([A-Z]{3})$/;
// The RBA writes the IMF's special drawing right as SDR; its ISO 4217 code is XDR.
const ISO_CODE: Readonly<Record<string, string>> = { SDR: 'XDR' };

const fail: (message: string) => never = failFor(CODE);

/** "03-Jan-2023" → 2023-01-03. */
function isoDate(text: string): string {
  const m = DATE.exec(text);
  const month = m ? monthNumber(m[2]!) : 0;
  if (!m || month === 0) fail(`bad date ${JSON.stringify(text)}`);
  return `${m[3]}-${String(month).padStart(2, '0')}-${m[1]}`;
}

/** The currency of each column, or undefined for a column that is not a rate. */
function columnQuotes(title: string[], units: string[]): (string | undefined)[] {
  if (title.length !== units.length) fail(`Title row has ${title.length} cells, Units row ${units.length}`);
  return title.map((cell, i) => {
    if (i === 0) return undefined;
    const m = TITLE.exec(cell);
    // The trade-weighted index (Units "Index", May 1970 = 100) is no price of a currency: skipped.
    if (!m) return units[i] === 'Index' ? undefined : fail(`unexpected column ${JSON.stringify(cell)}`);
    // The Units row repeats the currency; a mismatch means a layout we do not know.
    if (units[i] !== m[1]) fail(`column ${cell} has units ${JSON.stringify(units[i])}`);
    return ISO_CODE[m[1]!] ?? m[1]!;
  });
}

export const source: SyncSource = {
  code: CODE,
  name: 'Reserve Bank of Australia',
  countryCode: 'AU',
  countryName: 'Australia',
  currency: 'AUD',
  cadence: 'daily',
  schedule: '*/30 5-7 * * 1-5',
  // Rates observed at 4pm Sydney and published the same afternoon; AEST (UTC+10) gives 06:00 UTC
  // (05:00 in the southern summer, AEDT).
  publishedAtUtc: '06:00:00',
  feedUrl: `https://www.rba.gov.au${PATH}`,
  baseUrl: 'https://www.rba.gov.au',
  termsUrl: 'https://www.rba.gov.au/copyright/',
  terms: 'attribution',
  // RBA statistics are licensed CC BY 4.0, which requires attribution.
  attribution: 'Source: Reserve Bank of Australia (CC BY 4.0)',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const lines = decodeText(payload.body).split(/\r?\n/);
    const row = (label: string) => {
      const line = lines.find((l) => l.startsWith(`${label},`));
      return line === undefined ? undefined : csvCells(fail, line);
    };
    const title = row('Title');
    const units = row('Units');
    // An HTML page (the RBA answers missing files with one) has neither row.
    if (!title || !units) fail(`${payload.name} has no Title and Units rows: not an RBA statistical table`);
    const quotes = columnQuotes(title, units);
    const start = lines.findIndex((line) => line.startsWith('Series ID,'));
    if (start < 0) fail(`${payload.name} has no Series ID row`);
    const out: Observation[] = [];
    for (let n = start + 1; n < lines.length; n++) {
      // The file ends in a run of blank lines.
      if (lines[n]!.trim() === '') continue;
      const cells = csvCells(fail, lines[n]!);
      if (cells.length !== title.length) fail(`line ${n + 1} has ${cells.length} cells, Title row has ${title.length}`);
      const date = isoDate(cells[0]!);
      quotes.forEach((quote, i) => {
        const raw = cells[i]!;
        // Blank where a currency has no figure that day: AED and ZAR (none since 2023), CAD (from
        // 21 Dec 2023), CHF (none from 21 Dec 2023 to 9 Jan 2025), PGK (from 7 Jan 2026).
        if (quote === undefined || raw === '') return;
        out.push({ date, quote, rate: decimalOf(fail, raw, `bad ${quote} rate on ${date}`), unit: 1, direction: 'indirect' });
      });
    }
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  requests(_window, ctx): FeedRequest[] {
    // F11.1 has no date parameters: the one file holds every day since 2023, so the window is moot.
    return [{ url: `${ctx.base}${PATH}`, headers: { accept: 'text/csv,*/*' } }];
  },
};
