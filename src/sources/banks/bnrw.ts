// Banque Nationale du Rwanda exchange rates from fxrates.bnr.rw: one JSON array per currency and range,
// [{currency_name, buying_rate, average_rate, selling_rate, post_date "20-May-26"}], all strings. RWF
// per 1 unit (JPY 9.209); average_rate is the bank's own middle rate.
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource, NoPublication } from '../types.js';
import { decimalOf, failFor, isoCode, parseJson } from '../read.js';
import { monthNumber } from '../months.js';

const CODE = 'BNRW';
const PATH = '/currency_history/';
// The currencies the BNR publishes; the endpoint answers for one at a time.
const CURRENCIES = 'USD EUR GBP JPY CHF CAD AUD CNY INR ZAR AED SAR KES UGX TZS BIF'.split(' ');
const POST_DATE = /^(\d{2})-([A-Z][a-z]{2})-(\d{2})$/;
// Older figures carry thousands commas ("1,253.60").
const FIGURE = /^\d{1,3}(,\d{3})*(\.\d+)?$|^\d+(\.\d+)?$/;
// currency_history/?currency_name=… (live) or bnr-rw-currency_history-USD-….json (recorded).
const NAME = /(^|\/)currency_history\/\?currency_name=[A-Z]{3}&|(^|\/)bnr-rw-currency_history-[A-Z]{3}-[^/]*\.json$/;

const fail: (message: string) => never = failFor(CODE);

/** "20-May-26" → 2026-05-20. The series starts in 2012, so a two-digit year is always 20yy. */
function postDate(raw: unknown): string {
  const m = typeof raw === 'string' ? POST_DATE.exec(raw) : null;
  const month = m ? monthNumber(m[2]!) : 0;
  if (!m || month === 0) fail(`bad post_date ${JSON.stringify(raw)}`);
  return `20${m[3]}-${String(month).padStart(2, '0')}-${m[1]}`;
}

function observation(row: unknown, i: number): Observation {
  if (typeof row !== 'object' || row === null) fail(`row ${i + 1} is not an object`);
  const { currency_name: name, average_rate: average, post_date } = row as Record<string, unknown>;
  const quote = isoCode(fail, name, `row ${i + 1}`);
  const date = postDate(post_date);
  if (typeof average !== 'string' || !FIGURE.test(average.trim())) fail(`${quote} on ${date}: bad average_rate ${JSON.stringify(average)}`);
  return { date, quote, rate: decimalOf(fail, average.trim().replaceAll(',', ''), `${quote} on ${date}`), unit: 1, direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Banque Nationale du Rwanda',
  countryCode: 'RW',
  countryName: 'Rwanda',
  currency: 'RWF',
  cadence: 'daily',
  schedule: '*/30 14-16 * * 1-5',
  // No documented time: we take the start of the observed polling window; Kigali keeps UTC+2 all year
  // (16:00 local).
  publishedAtUtc: '14:00:00',
  feedUrl: 'https://www.bnr.rw/exchangeRate',
  baseUrl: 'https://fxrates.bnr.rw',
  termsUrl: 'https://www.bnr.rw/statuse',
  terms: 'unknown',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    if (!Array.isArray(doc)) fail(`${payload.name} is not a JSON array of rates`);
    // An empty array is the answer for a range without a business day.
    if (doc.length === 0) throw new NoPublication(CODE, `${payload.name}: no rates in that range`);
    // Rows come in no particular order (the 19th after the 22nd); ingest does not need them sorted.
    return doc.map(observation);
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return CURRENCIES.map((c) => ({ url: `${ctx.base}${PATH}?currency_name=${c}&start_date=${window.from}&end_date=${window.to}` }));
  },
};
