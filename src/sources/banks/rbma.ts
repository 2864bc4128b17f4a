// Reserve Bank of Malawi exchange rates: its filter form answers a post with an HTML fragment (no
// <html>), one table of Currency | Buying | Middle | Selling | Date rows grouped by currency, MWK per
// 1 unit. Middle is the bank's own and the one kept.
import { parse as parseHtml } from 'node-html-parser';
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isoCode } from '../read.js';
import { monthNumber } from '../months.js';

const CODE = 'RBMA';
const PATH = '/Statistics/ExchangeRatesFilter/';
const COLUMNS = 'Currency|Buying|Middle|Selling|Date';
// …/Statistics/ExchangeRatesFilter/ (live) or rbm-ExchangeRatesFilter-….html (recorded).
const NAME = /(^|[/-])ExchangeRatesFilter([?#/.-]|$)/i;
// Rows kept out on purpose. CMD is no ISO 4217 code and repeats the USD figures day for day. IEP, the
// Irish pound, went with the euro in 2002 and its figure is not the euro rate at the fixed 0.787564
// either, so what it measures cannot be said.
const SKIPPED = new Set(['CMD', 'IEP']);

const fail: (message: string) => never = failFor(CODE);

/** "Jan 02  2024" (two no-break spaces in the page) → 2024-01-02. */
function isoDate(text: string): string {
  const m = /^([A-Z][a-z]{2}) (\d{2}) (\d{4})$/.exec(text);
  const month = m ? monthNumber(m[1]!) : 0;
  if (!m || month === 0) fail(`bad date ${JSON.stringify(text)}`);
  return `${m[3]}-${String(month).padStart(2, '0')}-${m[2]}`;
}

/** mm/dd/yyyy, as the form sends its dates. */
const formDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

export const source: SyncSource = {
  code: CODE,
  name: 'Reserve Bank of Malawi',
  countryCode: 'MW',
  countryName: 'Malawi',
  currency: 'MWK',
  cadence: 'daily',
  grade: 'A',
  schedule: '*/30 14-16 * * 1-5',
  // RBM documents no release time; the observed polling window opens at 14:00 UTC (16:00 in
  // Lilongwe, CAT = UTC+2, no daylight saving), so a day's figures are taken as published by then.
  publishedAtUtc: '14:00:00',
  feedUrl: `https://www.rbm.mw${PATH}`,
  baseUrl: 'https://www.rbm.mw',
  // The site links no terms of use; the major-rates page is where the rates and their notes live.
  termsUrl: 'https://www.rbm.mw/Statistics/MajorRates',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const html = payload.body.toString('utf8');
    // The fragment has no </html> to look for; a cut-off one has lost the table's end.
    if (!html.includes('</table>')) fail(`${payload.name} is truncated or has no rate table`);
    const table = parseHtml(html).querySelector('table#exchange-rates');
    if (table === null) fail(`${payload.name} has no rate table`);
    const header = table.querySelectorAll('thead th').map((th) => th.text.trim());
    if (header.join('|') !== COLUMNS) fail(`rate table columns are ${JSON.stringify(header)}`);
    const rows = table.querySelectorAll('tbody tr');
    // RBM lists business days only: a window of weekend days and holidays gives an empty table.
    if (rows.length === 0) throw new NoPublication(CODE, `${payload.name} holds no rates: no business day in the window`);
    const out: Observation[] = [];
    for (const row of rows) {
      const cells = row.querySelectorAll('td').map((td) => td.text.replace(/[\s\u00a0]+/g, ' ').trim());
      if (cells.length !== 5) fail(`a row has ${cells.length} cells, expected 5`);
      const [label, , middle, , day] = cells as [string, string, string, string, string];
      if (SKIPPED.has(label)) continue;
      const date = isoDate(day);
      const quote = isoCode(fail, label, `row of ${date}`);
      out.push({ date, quote, rate: decimalOf(fail, middle, `${quote} middle on ${date}`), unit: 1, direction: 'direct' });
    }
    if (out.length === 0) fail(`${payload.name} holds only rows that are not rates`);
    return out;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return [
      {
        url: `${ctx.base}${PATH}`,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        // An empty RateTypes asks for every currency.
        body: new URLSearchParams({ RateTypes: '', StartDate: formDate(window.from), EndDate: formDate(window.to) }).toString(),
      },
    ];
  },
};
