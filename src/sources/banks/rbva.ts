// Reserve Bank of Vanuatu exchange rates: a Joomla Fabrik list page, Date | USD | JPY | NZD | GBP |
// AUD | EUR, one row per business day, newest first, VUV per 1 unit (JPY too: 0.7316). The whole
// history is one page when the list limit is raised (its CSV export stops at 100 rows).
import { parse as parseHtml } from 'node-html-parser';
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isoCode, wholeHtml } from '../read.js';
import { monthNumber } from '../months.js';

const CODE = 'RBVA';
const PATH = '/index.php/en/exchange-rates';
// …/index.php/en/exchange-rates?limit1=… (live) or rbv-exchange-rates-….html (recorded).
const NAME = /(^|[/-])exchange-rates([?#.-]|$)/;

const fail: (message: string) => never = failFor(CODE);

/** "22 May 2026" and "9 May 2026" (recent rows) or "01-Sep-25" (the oldest rows) → YYYY-MM-DD. */
function isoDate(text: string): string {
  const m = /^(\d{1,2})[ -]([A-Za-z]{3})[a-z]*[ -](\d{4}|\d{2})$/.exec(text);
  const month = m ? monthNumber(m[2]!) : 0;
  if (!m || month === 0) fail(`bad date ${JSON.stringify(text)}`);
  // The list starts in August 2025, so a two-digit year is 20xx.
  return `${m[3]!.length === 2 ? '20' : ''}${m[3]}-${String(month).padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Reserve Bank of Vanuatu',
  countryCode: 'VU',
  countryName: 'Vanuatu',
  currency: 'VUV',
  cadence: 'daily',
  grade: 'A',
  // Sunday to Thursday in UTC is Monday to Friday in Port Vila.
  schedule: '*/30 21-23 * * 0-4',
  // Rates are set 08:30-09:00 Port Vila time (VUT, UTC+11, no daylight saving): 21:30-22:00 UTC the
  // day before, hence the day offset.
  publishedAtUtc: '21:30:00',
  publishedDayOffset: -1,
  feedUrl: `https://www.rbv.gov.vu${PATH}?limit1=100000`,
  baseUrl: 'https://www.rbv.gov.vu',
  // RBV links no terms of use; the exchange-rate page is where the rates live.
  termsUrl: `https://www.rbv.gov.vu${PATH}`,
  terms: 'unknown',
  // www.rbv.gov.vu serves its leaf without the Trustico (Sectigo) intermediate (LIVE-DRIFT.md).
  tlsIntermediates: ['trustico-rsa-dv-ssl-ca-2.pem'],
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const html = payload.body.toString('utf8');
    wholeHtml(fail, payload.name, html);
    const table = parseHtml(html).querySelector('table[id^="list_1_com_fabrik"]');
    if (table === null) fail(`${payload.name} has no Fabrik rate list`);
    // Columns by their headings: the list's own order, not one assumed here.
    const [first, ...codes] = table.querySelectorAll('thead th').map((th) => th.text.trim());
    if (first !== 'Date') fail(`first column is ${JSON.stringify(first)}, not Date`);
    // The last heading is Fabrik's hidden row-select checkbox, without text.
    const columns = codes.flatMap((c, i) => (c === '' ? [] : [{ quote: isoCode(fail, c, 'column heading'), i }]));
    const rows = table.querySelectorAll('tr.fabrik_row');
    // The list holds the whole history: no rows is a fault, not a holiday.
    if (rows.length === 0) fail(`${payload.name} holds no rates`);
    return rows.flatMap((row) => {
      const [day, ...figures] = row.querySelectorAll('td').map((td) => td.text.trim());
      const date = isoDate(day ?? '');
      if (figures.length !== codes.length) fail(`row of ${date} has ${figures.length + 1} cells, the headings ${codes.length + 1}`);
      return columns.map(({ quote, i }): Observation => ({ date, quote, rate: decimalOf(fail, figures[i], `${quote} on ${date}`), unit: 1, direction: 'direct' }));
    });
  },
  requests(_window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // The list has no date filter in its URL; the whole history (under 200 rows a year) comes back
    // and ingest keeps what it wants.
    return [{ url: `${ctx.base}${PATH}?limit1=100000` }];
  },
};
