// Central Bank of Trinidad and Tobago: the weighted average buying and selling rates of the day's
// authorised-dealer trades, TTD per unit, from its WordPress REST route for a span of years. No middle
// rate is published: the rate kept is the exact mean of the two legs. One row per calendar day, every
// figure null on weekends and holidays; a leg without trades is null; the euro's columns are `Euro_`.
import { Decimal } from '../../money/decimal.js';
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, isoCode, isRecord, parseJson } from '../read.js';

const CODE = 'CBTT';
const PATH = '/wp-json/rates/v1/forex-rate';
// …/forex-rate/2026-2026 (live) or forex-rate-2026-2026.json (recorded).
const NAME = /(^|\/)forex-rate[/-]\d{4}-\d{4}(\.json)?$/;
const LEG = /^(.+)_(Buying|Selling)$/;
// Column prefixes that are not ISO codes.
const LABELS: Readonly<Record<string, string>> = { Euro: 'EUR' };

const fail: (message: string) => never = failFor(CODE);

/** The currencies a row's columns name, from `USD_Buying`/`USD_Selling` pairs. */
function currencies(row: Record<string, unknown>): { label: string; quote: string }[] {
  const labels = new Set<string>();
  for (const key of Object.keys(row)) {
    const m = LEG.exec(key);
    if (m) labels.add(m[1]!);
    else if (key !== 'famedate') fail(`unknown column ${JSON.stringify(key)}`);
  }
  return [...labels].map((label) => ({ label, quote: LABELS[label] ?? isoCode(fail, label, 'column') }));
}

export const source: SyncSource = {
  code: CODE,
  name: 'Central Bank of Trinidad and Tobago',
  countryCode: 'TT',
  countryName: 'Trinidad and Tobago',
  currency: 'TTD',
  cadence: 'daily',
  // Port of Spain is UTC-4 all year. No time is stated; the day's rates are there in the evening.
  schedule: '15 21-23 * * 1-5',
  // Taken as published by 17:00 in Port of Spain; the figures average the day's trades (fixing.ts).
  publishedAtUtc: '21:00:00',
  feedUrl: `https://www.central-bank.org.tt${PATH}/2026-2026`,
  baseUrl: 'https://www.central-bank.org.tt',
  termsUrl: 'https://www.central-bank.org.tt/copyright-notice/',
  // Personal, non-commercial use or use within an organisation, with attribution (SOURCE.md).
  terms: 'non-commercial',
  attribution: 'Source: Central Bank of Trinidad and Tobago',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    const rows = isRecord(doc) ? doc.cbttdailyforexrates : undefined;
    // A span without rows is one all-null object instead of an array.
    if (isRecord(rows) && Object.values(rows).every((v) => v === null)) throw new NoPublication(CODE, `${payload.name} holds no day`);
    if (!Array.isArray(rows)) fail(`${payload.name} has no cbttdailyforexrates list`);
    const observations: Observation[] = [];
    for (const row of rows) {
      if (!isRecord(row)) fail(`${payload.name}: a row is not an object`);
      const date = row.famedate;
      if (!isIsoDate(date)) fail(`bad famedate ${JSON.stringify(date)}`);
      for (const { label, quote } of currencies(row)) {
        const [buy, sell] = [row[`${label}_Buying`], row[`${label}_Selling`]];
        // Weekends and holidays: every leg null. A leg without trades that day is null too: one leg
        // alone is no mean, so the currency is left out that day (CHF has both on 19 days of 169).
        if (buy === null || sell === null || buy === undefined || sell === undefined) continue;
        // Each leg is a weighted average of trades, so buying can exceed selling (USD on 2026-06-15):
        // the mean is still the day's middle. Exact: 6.7017 and 6.7992 give 6.75045.
        const mean = new Decimal(decimalOf(fail, buy, `${quote} buying on ${date}`)).plus(decimalOf(fail, sell, `${quote} selling on ${date}`)).div(2);
        observations.push({ date, quote, rate: mean.toString(), unit: 1, direction: 'direct' });
      }
    }
    if (observations.length === 0) throw new NoPublication(CODE, `${payload.name} holds no trading day`);
    return observations;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One request for the years the window spans (the whole history since 1991 is about 4.7 MB).
    return [{ url: `${ctx.base}${PATH}/${window.from.slice(0, 4)}-${window.to.slice(0, 4)}` }];
  },
};
