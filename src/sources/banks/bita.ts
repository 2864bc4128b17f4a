// Banca d'Italia exchange-rate portal: the daily rates of ~170 currencies against the euro (the ECB
// reference rates for the majors, the Bank's own for the rest), one CSV per day with a "#" footer.
// Each row states its convention; against EUR it is "Foreign currency amount for 1 Euro.".
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { csvCells } from '../csv.js';
import { decimalOf, decodeText, failFor, isIsoDate, isoCode, windowDays } from '../read.js';

const CODE = 'BITA';
const PATH = '/terzevalute-wf-web/rest/v1.0/dailyRates';
const HEADER = ['Country', 'Currency', 'ISO Code', 'UIC Code', 'Rate', 'Rate convention', 'Reference date (CET)'];
const INDIRECT = 'Foreign currency amount for 1 Euro.';
// The portal writes N.A. for a currency it does not quote (BYN, IRR, KPW, RUB in 2026).
const NOT_AVAILABLE = 'N.A.';
// dailyRates?…currencyIsoCode=EUR… (live) or dailyRates-EUR-<date>.csv (recorded). USD-based lists
// and latestRates (one EUR and one USD column) are other layouts.
const NAME = /(^|\/)dailyRates(\?([^#]*&)?currencyIsoCode=EUR(&|$)|-EUR-[\d-]+\.csv$)/;

const fail: (message: string) => never = failFor(CODE);

export const source: SyncSource = {
  code: CODE,
  name: "Banca d'Italia",
  countryCode: 'IT',
  countryName: 'Italy',
  currency: 'EUR',
  cadence: 'daily',
  schedule: '*/30 16-18 * * 1-5',
  // The euro reference rates are published about 16:00 CET (the portal's other quotations with them);
  // CET (UTC+1) gives 15:00 UTC (14:00 in summer, CEST).
  publishedAtUtc: '15:00:00',
  // The portal's latest-rates call; requests() uses dailyRates instead, the one layout recorded.
  feedUrl: 'https://tassidicambio.bancaditalia.it/terzevalute-wf-web/rest/v1.0/latestRates?lang=en',
  baseUrl: 'https://tassidicambio.bancaditalia.it',
  // The rates page carries the Bank's notice (indicative rates, no liability); it asks for no credit line.
  termsUrl: 'https://www.bancaditalia.it/compiti/operazioni-cambi/cambi/index.html?com.dotmarketing.htmlpage.language=1',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const lines = decodeText(payload.body).split(/\r?\n/);
    // Country names may one day carry a comma: quoted cells are honoured.
    const cells = (line: string) => csvCells(fail, line);
    if (cells(lines[0] ?? '').join(',') !== HEADER.join(',')) fail(`${payload.name} is not the portal's rates CSV (first line ${JSON.stringify((lines[0] ?? '').slice(0, 60))})`);
    const byQuote = new Map<string, Observation>();
    let rows = 0;
    for (let n = 1; n < lines.length; n++) {
      // Blank lines, then the "#" disclaimer, close the file.
      if (lines[n]!.trim() === '' || lines[n]!.startsWith('#')) continue;
      const row = cells(lines[n]!);
      rows++;
      if (row.length !== HEADER.length) fail(`line ${n + 1} has ${row.length} cells, expected ${HEADER.length}`);
      const [, , code, , raw, convention, date] = row as [string, string, string, string, string, string, string];
      const quote = isoCode(fail, code, `line ${n + 1}`);
      if (!isIsoDate(date)) fail(`${quote} has bad reference date ${JSON.stringify(date)}`);
      // Only the EUR list's convention is known; a USD list or a direct quote would say otherwise.
      if (convention !== INDIRECT) fail(`${quote} has convention ${JSON.stringify(convention)}, expected ${JSON.stringify(INDIRECT)}`);
      if (raw === NOT_AVAILABLE) continue;
      const rate = decimalOf(fail, raw, `bad ${quote} rate on ${date}`);
      // A shared currency is listed once per country (XOF eight times, XAF and XCD six): keep one,
      // and refuse a file whose rows for one currency disagree.
      const before = byQuote.get(`${date} ${quote}`);
      if (before && before.rate !== rate) fail(`${quote} has two rates on ${date}: ${before.rate} and ${rate}`);
      byQuote.set(`${date} ${quote}`, { date, quote, rate, unit: 1, direction: 'indirect' });
    }
    // The header and the footer with no row between: the portal's answer for a day without rates (a holiday).
    if (rows === 0) throw new NoPublication(CODE, `${payload.name} holds no rates: no list that day`);
    if (byQuote.size === 0) fail(`${payload.name} holds no rates`);
    return [...byQuote.values()];
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One list per reference date; weekends never have one, so they are not asked for.
    return windowDays(window, { weekdaysOnly: true }).map((date) => ({
      url: `${ctx.base}${PATH}?referenceDate=${date}&currencyIsoCode=EUR&lang=en`,
      // The same call answers JSON or CSV by Accept.
      headers: { accept: 'text/csv' },
    }));
  },
};
