// Banco Central del Paraguay: the interbank reference rate (the weighted average of the day's spot
// deals), read from its yearly history grid: one HTML page per currency and year, 31 day rows by 12
// month columns, "ND" where nothing traded. Spanish numbers ("7.271,63"); PYG per 1 unit, gold per troy ounce.
import { parse as parseHtml, type HTMLElement } from 'node-html-parser';
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource, NoPublication } from '../types.js';
import { decimalOf, decodeText, failFor } from '../read.js';
import { monthName } from '../months.js';

const CODE = 'BCPA';
const PATH = '/cotizacion/monedas-historica';
// The page's currency selector, less SDR: offered, but every cell of every year is "ND".
const CURRENCIES = 'USD EUR GBP JPY CHF CAD AUD CNY BRL ARS CLP MXN UYU COP BOB NZD ZAR SEK DKK NOK XAU'.split(' ');
// The selector says SDR for the IMF's unit; ISO 4217 calls it XDR.
const ISO_FOR: Readonly<Record<string, string>> = { SDR: 'XDR' };
const TITLE = /PLANILLA DE COTIZACIONES DEL AÑO (\d{4}) DE MONEDA (.+)$/;
// Dot thousands, comma decimals: "7.271,63", gold "14.889.462,30", yen "49,57".
const SPANISH = /^\d{1,3}(?:\.\d{3})*,\d+$/;
// monedas-historica?anho=…&moneda=… (live) or bcp-monedas-historica-2024-USD.html (recorded).
const NAME = /(^|\/)monedas-historica\?anho=\d{4}&moneda=[A-Z]{3}$|(^|\/)bcp-monedas-historica-\d{4}-[A-Z]{3}\.html$/;
const ASKED = /anho=(\d{4})&moneda=([A-Z]{3})$|-(\d{4})-([A-Z]{3})\.html$/;

const fail: (message: string) => never = failFor(CODE);

/** The page's own statement of year and currency: the grid title and the selected option. */
function heading(root: HTMLElement): { year: string; quote: string } {
  const title = root.querySelectorAll('th').map((th) => TITLE.exec(th.text.replace(/\s+/g, ' ').trim())).find((m) => m);
  if (!title) fail('no "PLANILLA DE COTIZACIONES DEL AÑO … DE MONEDA …" title');
  const option = root.querySelector('select[name=moneda] option[selected]');
  const code = option?.getAttribute('value') ?? '';
  // The title names the currency ("DOLAR AMERICANO"); the selected option pairs that name with its code.
  if (!/^[A-Z]{3}$/.test(code) || option!.text.trim() !== title[2]!.trim()) fail(`selected currency ${JSON.stringify(code)} does not match the title "${title[2]}"`);
  return { year: title[1]!, quote: ISO_FOR[code] ?? code };
}

// The header names the months as ENE … DIC.
const HEADER_MONTHS = Array.from({ length: 12 }, (_, i) => monthName(i + 1, 'es').toUpperCase()).join(' ');

function grid(root: HTMLElement, year: string, quote: string): Observation[] {
  const rows = root.querySelectorAll('tr');
  const header = rows.findIndex((tr) => tr.querySelectorAll('th').map((th) => th.text.trim()).join(' ') === `# ${HEADER_MONTHS}`);
  if (header < 0) fail(`${quote} ${year}: no "# ENE … DIC" header row`);
  const cells: string[][] = [];
  for (const tr of rows.slice(header + 1)) {
    const day = Number(tr.querySelector('th')?.text.trim());
    const values = tr.querySelectorAll('td').map((td) => td.text.trim());
    if (day !== cells.length + 1 || values.length !== 12) fail(`${quote} ${year}: row ${cells.length + 1} is not a day with 12 months`);
    cells.push(values);
  }
  if (cells.length !== 31) fail(`${quote} ${year}: grid has ${cells.length} day rows, expected 31`);
  const out: Observation[] = [];
  // Month by month, so the observations come in date order.
  for (let m = 0; m < 12; m++) {
    for (let d = 0; d < 31; d++) {
      const text = cells[d]![m]!;
      if (text === 'ND') continue;
      const date = `${year}-${String(m + 1).padStart(2, '0')}-${String(d + 1).padStart(2, '0')}`;
      // 30 February and the like are always "ND"; a figure there means the grid is not what we think.
      if (new Date(`${date}T00:00:00Z`).getUTCMonth() !== m) fail(`${quote}: a figure on impossible date ${date}`);
      if (!SPANISH.test(text)) fail(`${quote} on ${date}: not a Spanish-format number: ${JSON.stringify(text)}`);
      out.push({ date, quote, rate: decimalOf(fail, text.replaceAll('.', ''), `${quote} on ${date}`), unit: 1, direction: 'direct' });
    }
  }
  return out;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Banco Central del Paraguay',
  countryCode: 'PY',
  countryName: 'Paraguay',
  currency: 'PYG',
  cadence: 'daily',
  schedule: '*/30 19-21 * * 1-5',
  // No documented time: the rate averages the whole day's interbank deals, so it exists only after the
  // close. We take the start of the observed polling window (16:00 Asunción, which keeps UTC-3 all year).
  publishedAtUtc: '19:00:00',
  // The daily snapshot page; the adapter reads the yearly grids, which carry the same figures with history.
  feedUrl: 'https://www.bcp.gov.py/webapps/web/cotizacion/monedas',
  baseUrl: 'https://www.bcp.gov.py/webapps/web',
  // SOURCE.md knows no terms page; this is the page that publishes and describes the rates.
  termsUrl: 'https://www.bcp.gov.py/webapps/web/cotizacion/monedas',
  terms: 'unknown',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const root = parseHtml(decodeText(payload.body));
    const { year, quote } = heading(root);
    // The request (or recorded file) names year and currency: a page for another one is a wrong answer.
    const asked = ASKED.exec(payload.name);
    const [askedYear, askedCode] = asked ? [asked[1] ?? asked[3], asked[2] ?? asked[4]] : [year, quote];
    if (askedYear !== year || (ISO_FOR[askedCode!] ?? askedCode) !== quote) fail(`${payload.name} answered with ${quote} ${year}`);
    const out = grid(root, year, quote);
    // A complete grid of "ND" is a valid answer (SDR, a year before the currency's history starts).
    if (out.length === 0) throw new NoPublication(CODE, `${quote} ${year}: every day is ND`);
    return out;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One page per currency and calendar year: the whole year comes along, ingest keeps what it wants.
    const first = Number(window.from.slice(0, 4));
    const years = Array.from({ length: Number(window.to.slice(0, 4)) - first + 1 }, (_, i) => first + i);
    return years.flatMap((year) => CURRENCIES.map((c) => ({ url: `${ctx.base}${PATH}?anho=${year}&moneda=${c}` })));
  },
};
