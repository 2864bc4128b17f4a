// Central Bank of Sri Lanka indicative rates: a PHP form answers a POST of a date range and a list of
// currencies with one HTML table per currency, headed "1 AUD -> LKR" | "1 LKR -> AUD", newest day first.
import { parse as parseHtml } from 'node-html-parser';
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, wholeHtml } from '../read.js';

const CODE = 'CBCE';
const fail: (message: string) => never = failFor(CODE);

// The form's 55 check-boxes, value "CODE~Name" exactly as the form page sends them (the names keep
// the form's double blanks). XAU is gold per troy ounce, the unit ISO 4217 gives XAU.
const CURRENCIES =
  'AUD~Australian Dollar;BHD~Bahrain Dinar;BDT~Bangladesh Taka;BRL~Brazil Real;BND~Brunei Dollar;CAD~Canadian Dollar;' +
  'CNH~Chinese Yuan (Offshore);CNY~Chinese Yuan (Renminbi);CZK~Czechoslovak Koruna;DKK~Danish Kroner;EGP~Egypt Pound;EUR~Euro;' +
  'GHS~Ghana Cedi;XAU~Gold (per Troy oz.);HKD~Hong Kong Dollar;HUF~Hungary Forint;INR~Indian Rupee;IDR~Indonesian Rupiah;' +
  'IRR~Iran Rial;JPY~Japanese Yen;JOD~Jordan Dinar;KES~Kenya Shillings;KRW~Korean Won;KWD~Kuwait Dinar;MOP~Macau Pataca;' +
  'MYR~Malaysia  Ringgit;MVR~Maldivian Rufiya;MUR~Mauritius Rupee;MMK~Myanmar  Kyat;NPR~Nepal Rupee;RON~New Romania Leu;' +
  'NZD~New Zealand Dollar;NGN~Nigeria Naira;NOK~Norwegian Kroner;OMR~Oman Rial;PKR~Pakistan Rupee;PGK~Papua New Guinea Kina;' +
  'PHP~Philippines Peso;PLN~Poland Zloty;QAR~Qatar Riyal;RUB~Russia Rouble;SAR~Saudi Arabian Riyal;SCR~Seychelles Rupee;' +
  'SGD~Singapore Dollar;SBD~Solomon Island Dollar;ZAR~South African Rand;GBP~Sterling Pound;SEK~Swedish Kroner;CHF~Swiss Franc;' +
  'TWD~Taiwan Dollar;THB~Thailand Baht;AED~UAE  Dirham;USD~US Dollar;VND~Vietnam Dong;ZMW~Zambia Kwacha (New)';
const HEADER = /^1\s+([A-Z]{3})\s+->\s+LKR$/;
// exrates_results.php (live POST), cbsl-exrates_results-….html (recorded) and the form page
// exrates.php / cbsl-exrates-form.html, which lists the currencies but holds no rates.
const NAME = /(^|[/-])exrates(_results(\.php|[-_.]|$)|\.php|-form[-_.])/;

export const source: SyncSource = {
  code: CODE,
  name: 'Central Bank of Sri Lanka',
  countryCode: 'LK',
  countryName: 'Sri Lanka',
  currency: 'LKR',
  cadence: 'daily',
  grade: 'A',
  schedule: '*/30 4-6 * * 1-5',
  // Indicative rates are fixed at 09:30 Colombo time (UTC+5:30, no daylight saving): 04:00 UTC.
  publishedAtUtc: '04:00:00',
  feedUrl: 'https://www.cbsl.gov.lk/cbsl_custom/exrates/exrates_results.php',
  baseUrl: 'https://www.cbsl.gov.lk/cbsl_custom/exrates',
  // No terms are published for the form; the page that embeds it stands in.
  termsUrl: 'https://www.cbsl.gov.lk/en/rates-and-indicators/exchange-rates/daily-indicative-exchange-rates',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const html = payload.body.toString('utf8');
    wholeHtml(fail, payload.name, html);
    const root = parseHtml(html);
    const tables = root.querySelectorAll('table').filter((t) => HEADER.test(t.querySelector('thead th:nth-child(2)')?.text.trim() ?? ''));
    if (tables.length === 0) {
      // The form page is a valid answer of this feed that holds no rates by design.
      if (root.querySelector('input[name="chk_cur[]"]')) throw new NoPublication(CODE, `${payload.name} is the selection form, not a result`);
      fail(`${payload.name} holds no "1 XXX -> LKR" tables`);
    }
    const observations = tables.flatMap((table) => {
      const quote = HEADER.exec(table.querySelector('thead th:nth-child(2)')!.text.trim())![1]!;
      // Only the LKR-per-unit column: the inverse column is the same figure rounded to 4 decimals.
      return table.querySelectorAll('tbody tr').map((tr): Observation => {
        const [day, rate] = tr.querySelectorAll('td').map((td) => td.text.trim());
        if (!day || !isIsoDate(day)) fail(`${quote}: bad date ${JSON.stringify(day)}`);
        return { date: day, quote, rate: decimalOf(fail, rate, `${quote} on ${day}`), unit: 1, direction: 'direct' };
      });
    });
    // Tables without rows: the range held only weekends or holidays.
    if (observations.length === 0) throw new NoPublication(CODE, `${payload.name}: no rates in the range asked for`);
    return observations;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One POST for the whole window (a year of all 55 currencies is about 1 MB), as the form sends it.
    const form = new URLSearchParams([
      ['lookupPage', 'lookup_daily_exchange_rates.php'],
      ['rangeType', 'dates'],
      ['txtStart', window.from],
      ['txtEnd', window.to],
      ...CURRENCIES.split(';').map((value) => ['chk_cur[]', value]),
      ['submit_button', 'Submit'],
    ]);
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    return [{ url: `${ctx.base}/exrates_results.php`, method: 'POST', headers, body: form.toString() }];
  },
};
