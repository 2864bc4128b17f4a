// Bank of Mongolia (Mongolbank) statutory reference rates: a POSTed JSON query answered with one wide
// object per day, {RATE_DATE, USD: "3,576.42", …, XAU, XAG, SDR}. MNT per 1 unit for every column, even
// IDR 0.20 and VND 0.14 (two decimals, no per-100 scaling); gold and silver per troy ounce.
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, isoCode, isRecord, parseJson } from '../read.js';

const CODE = 'BOMU';
const PATH = '/currency-rate-movement/data';
const DATE_KEY = 'RATE_DATE';
// The bank labels Special Drawing Rights "SDR"; ISO 4217 calls them XDR. XAU and XAG stay: their
// columns are per troy ounce ("Gold /Ounce/"), which is what the ISO codes denote.
const ISO_FOR: Readonly<Record<string, string>> = { SDR: 'XDR' };
// Comma thousands, point decimals: "16,172,267.24".
const FIGURE = /^\d{1,3}(,\d{3})*(\.\d+)?$/;
// …/currency-rate-movement/data (live, POST) or mongolbank-currency-rate-movement-data-….json (recorded).
const NAME = /(^|\/)currency-rate-movement\/data$|(^|\/)mongolbank-currency-rate-movement-data[^/]*\.json$/;

const fail: (message: string) => never = failFor(CODE);

function dayRows(row: unknown, i: number): Observation[] {
  if (!isRecord(row)) fail(`data[${i}] is not an object`);
  const date = row[DATE_KEY];
  if (!isIsoDate(date)) fail(`data[${i}] has bad ${DATE_KEY} ${JSON.stringify(date)}`);
  const out: Observation[] = [];
  for (const [key, raw] of Object.entries(row)) {
    if (key === DATE_KEY) continue;
    const code = isoCode(fail, key, `${date} column`);
    // A currency not yet (or no longer) quoted that day has no figure.
    if (raw === null || raw === '') continue;
    if (typeof raw !== 'string' || !FIGURE.test(raw.trim())) fail(`${code} on ${date}: bad figure ${JSON.stringify(raw)}`);
    const rate = decimalOf(fail, raw.trim().replaceAll(',', ''), `${code} on ${date}`);
    out.push({ date, quote: ISO_FOR[code] ?? code, rate, unit: 1, direction: 'direct' });
  }
  return out;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Bank of Mongolia',
  countryCode: 'MN',
  countryName: 'Mongolia',
  currency: 'MNT',
  cadence: 'daily',
  schedule: '*/30 2-4 * * 1-5',
  // No documented time: we take the start of the observed polling window; Ulaanbaatar keeps UTC+8 all
  // year (10:00 local).
  publishedAtUtc: '02:00:00',
  feedUrl: 'https://www.mongolbank.mn/en/currency-rate-movement',
  baseUrl: 'https://www.mongolbank.mn/en',
  // SOURCE.md knows no terms page; this is the page that publishes the rates.
  termsUrl: 'https://www.mongolbank.mn/en/currency-rate-movement',
  terms: 'unknown',
  grade: 'B',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    if (!isRecord(doc) || doc.success !== true || !Array.isArray(doc.data)) fail(`${payload.name} is not a successful {success, data} answer`);
    const out = doc.data.flatMap(dayRows);
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // The endpoint is said to answer with the whole archive (2001 onward, ~5 MB) whatever the range;
    // the range is sent anyway, and ingest keeps the days it wants.
    return [{
      url: `${ctx.base}${PATH}`,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ startDate: window.from, endDate: window.to }),
    }];
  },
};
