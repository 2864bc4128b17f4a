// FBIL (Financial Benchmarks India) reference rates, the benchmark the Reserve Bank of India handed
// over in 2018 (hence the RBI's BIC4): a JSON array of {processRunDate, subProdName "INR / 100 JPY",
// rate}. INR per N units; N and the currency exist only inside that label.
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isoCode, parseJsonKeepingDigits, unitOf } from '../read.js';

const CODE = 'RBIS';
// "INR / 1 USD", "INR / 100 JPY", "INR / 10000 IDR": the multiplier is only stated here.
const LABEL = /^INR \/ (\d+) ([A-Z]{3})$/;
const RUN_DATE = /^(\d{4}-\d{2}-\d{2}) 00:00:00$/;
// …/wasdm/refrates/fetchfiltered?… (live) or fbil-refrates-fetchfiltered-….json (recorded).
const NAME = /(^|[/-])refrates[/-]fetchfiltered([?/-]|$)/;

const fail: (message: string) => never = failFor(CODE);

function observation(row: unknown): Observation {
  if (typeof row !== 'object' || row === null) fail('a row is not an object');
  const { processRunDate, subProdName, rate } = row as Record<string, unknown>;
  const date = typeof processRunDate === 'string' ? RUN_DATE.exec(processRunDate)?.[1] : undefined;
  if (date === undefined) fail(`bad processRunDate ${JSON.stringify(processRunDate)}`);
  const label = typeof subProdName === 'string' ? LABEL.exec(subProdName.trim()) : null;
  if (!label) fail(`label ${JSON.stringify(subProdName)} on ${date} is not "INR / N CCY"`);
  const quote = isoCode(fail, label[2], `label on ${date}`);
  return { date, quote, rate: decimalOf(fail, rate, `${quote} on ${date}`), unit: unitOf(fail, label[1], `${quote} on ${date}`), direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Financial Benchmarks India (FBIL) / Reserve Bank of India',
  countryCode: 'IN',
  countryName: 'India',
  currency: 'INR',
  cadence: 'daily',
  grade: 'C',
  schedule: '*/30 8-10 * * 1-5',
  // Rates are computed at 13:00 IST (the displayTime) and published about 13:30 IST (UTC+5:30, no
  // daylight saving): 08:00 UTC.
  publishedAtUtc: '08:00:00',
  feedUrl: 'https://www.fbil.org.in/wasdm/refrates/fetchfiltered?authenticated=false',
  baseUrl: 'https://www.fbil.org.in',
  termsUrl: 'https://www.fbil.org.in/#/termsandcondition',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    // Rates are JSON numbers printed with six decimals (93.348300); those digits are kept.
    const rows = parseJsonKeepingDigits(CODE, payload.name, payload.body.toString('utf8'), ['rate']);
    if (!Array.isArray(rows)) fail(`${payload.name} is not an array of rates`);
    // FBIL lists business days only: a window of weekend days and Indian holidays comes back as [].
    if (rows.length === 0) throw new NoPublication(CODE, `${payload.name} holds no rates: no business day in the window`);
    return rows.map(observation);
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return [{ url: `${ctx.base}/wasdm/refrates/fetchfiltered?authenticated=false&fromDate=${window.from}&toDate=${window.to}` }];
  },
};
