// Bank of England daily spot rates (4pm London) from the Interactive Database (IADB) as CSV: one
// column per series, headed by its code (UsingCodes=Y); every figure is foreign units per 1 GBP.
import { BROWSER_USER_AGENT } from '../http.js';
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { csvCells } from '../csv.js';
import { decimalOf, decodeText, failFor } from '../read.js';
import { monthName, monthNumber } from '../months.js';

const CODE = 'BKEN';
const PATH = '/boeapps/database/_iadb-fromshowcolumns.asp';
/** IADB spot series → currency. The codes do not spell the currency (XUDLBK89 is CNY, XUDLZOS4 RON),
 *  so the header is read through this table and an unknown column is an error, never a guess. */
export const BOE_SERIES: ReadonlyMap<string, string> = new Map([
  ['XUDLUSS', 'USD'], ['XUDLERS', 'EUR'], ['XUDLJYS', 'JPY'], ['XUDLCDS', 'CAD'], ['XUDLSFS', 'CHF'],
  ['XUDLADS', 'AUD'], ['XUDLNDS', 'NZD'], ['XUDLNKS', 'NOK'], ['XUDLSKS', 'SEK'], ['XUDLDKS', 'DKK'],
  ['XUDLHDS', 'HKD'], ['XUDLSGS', 'SGD'], ['XUDLSRS', 'SAR'], ['XUDLZRS', 'ZAR'], ['XUDLTWS', 'TWD'],
  ['XUDLBK25', 'CZK'], ['XUDLBK33', 'HUF'], ['XUDLBK47', 'PLN'], ['XUDLBK78', 'ILS'], ['XUDLBK83', 'MYR'],
  ['XUDLBK87', 'THB'], ['XUDLBK89', 'CNY'], ['XUDLBK93', 'KRW'], ['XUDLBK95', 'TRY'], ['XUDLBK97', 'INR'],
  ['XUDLZOS4', 'RON'],
]);
// _iadb-fromshowcolumns.asp?…&csv.x=yes (live) or iadb-XUDL-….csv (recorded).
const NAME = /(^|\/)(_iadb-fromshowcolumns\.asp\?(.*&)?csv\.x=yes(&|$)|iadb-XUDL[^/]*\.csv$)/;
const DATE = /^(\d{1,2}) ([A-Z][a-z]{2}) (\d{4})$/;

const fail: (message: string) => never = failFor(CODE);

/** "17 Mar 2026" → 2026-03-17. */
function isoDate(text: string): string {
  const m = DATE.exec(text);
  const month = m ? monthNumber(m[2]!) : 0;
  if (!m || month === 0) fail(`bad date ${JSON.stringify(text)}`);
  return `${m[3]}-${String(month).padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
}

/** 2026-03-02 → "02/Mar/2026", the form Datefrom/Dateto take. */
function iadbDate(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${d}/${monthName(Number(m))}/${y}`;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Bank of England',
  countryCode: 'GB',
  countryName: 'United Kingdom',
  currency: 'GBP',
  cadence: 'daily',
  schedule: '*/30 16-18 * * 1-5',
  // Spot rates observed at 4pm London and released about then; GMT (UTC+0) gives 16:00 UTC (15:00 in summer, BST).
  publishedAtUtc: '16:00:00',
  // The IADB has no "latest" form: a Datefrom is required and Dateto=now runs to the newest day.
  feedUrl: `https://www.bankofengland.co.uk${PATH}?csv.x=yes&Datefrom=01/Jan/2026&Dateto=now&SeriesCodes=${[...BOE_SERIES.keys()].join(',')}&CSVF=TN&UsingCodes=Y`,
  baseUrl: 'https://www.bankofengland.co.uk',
  termsUrl: 'https://www.bankofengland.co.uk/legal',
  terms: 'attribution',
  // The Bank's terms allow reuse of its statistics provided the Bank of England is acknowledged as the source.
  attribution: 'Source: Bank of England',
  // The IADB database refuses some non-browser agents (docs/sources.md, and the peer).
  headers: { 'user-agent': BROWSER_USER_AGENT },
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const lines = decodeText(payload.body).split(/\r?\n/);
    while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
    const header = csvCells(fail, lines[0] ?? '');
    // IADB error and "no data" answers are HTML pages; without UsingCodes=Y the header holds titles.
    if (header[0] !== 'DATE' || header.length < 2) fail(`${payload.name} is not IADB CSV (first line ${JSON.stringify((lines[0] ?? '').slice(0, 40))})`);
    const quotes = header.slice(1).map((series) => BOE_SERIES.get(series) ?? fail(`unknown series column ${JSON.stringify(series)}`));
    const out: Observation[] = [];
    for (let n = 1; n < lines.length; n++) {
      const cells = csvCells(fail, lines[n]!);
      // A short row means a cut-off body: never guess which column is which.
      if (cells.length !== header.length) fail(`line ${n + 1} has ${cells.length} cells, header has ${header.length}`);
      const date = isoDate(cells[0]!);
      quotes.forEach((quote, i) => {
        const raw = cells[i + 1]!;
        // A series with no figure that day is left blank; that is no rate, not a zero.
        if (raw !== '') out.push({ date, quote, rate: decimalOf(fail, raw, `bad ${quote} rate on ${date}`), unit: 1, direction: 'indirect' });
      });
    }
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    const query = `csv.x=yes&Datefrom=${iadbDate(window.from)}&Dateto=${iadbDate(window.to)}&SeriesCodes=${[...BOE_SERIES.keys()].join(',')}&CSVF=TN&UsingCodes=Y`;
    return [{ url: `${ctx.base}${PATH}?${query}`, headers: { accept: 'text/csv,*/*' } }];
  },
};
