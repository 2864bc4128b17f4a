// Central Bank of The Gambia indicative rates: one JSON series per currency, the whole archive as
// [[epoch_ms, GMD per unit], …], newest first. Only the request names the currency, and four of them
// are quoted per 100 or per 5,000 units without saying so (see HIDDEN_UNITS).
import { type FeedRequest, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, parseJson } from '../read.js';
import { DAY_MS } from '../../time/days.js';

const CODE = 'CBGA';
const fail: (message: string) => never = failFor(CODE);

// The 32 series of the bank's table, less DKK, whose series is a constant 1 (not a rate), and the
// non-ISO WAUA. Each series is a separate request, so the list is what we ask for.
const CURRENCIES = [
  'USD', 'EUR', 'GBP', 'CHF', 'SEK', 'CAD', 'XOF', 'NOK', 'SAR', 'JPY', 'AUD', 'TWD', 'LKR', 'THB', 'PHP', 'NZD',
  'AED', 'KWD', 'NGN', 'HKD', 'ZAR', 'EGP', 'CNY', 'BRL', 'INR', 'GHS', 'SLL', 'TRY', 'GNF', 'XDR', 'SGD',
];
// Stated nowhere in the feed: JPY 45.47 on 2026-05-22 is GMD per 100 JPY, and XOF 646.22 is GMD per
// 5,000 XOF (its 655.957-per-euro parity against EUR 86.28 gives 657.6); SEK and NOK likewise per 100,
// checked against AMCM's USD crosses (SOURCE.md).
const HIDDEN_UNITS: Record<string, number> = { JPY: 100, SEK: 100, NOK: 100, XOF: 5000 };
// ajax/indicative-exchange-rates/USD (live) or cbg-indicative-exchange-rates-USD-….json (recorded).
const NAME = /indicative-exchange-rates[/-]([A-Z]{3})([-/?.]|$)/;

/** The series a payload holds, from its name; a currency outside the list is not read. */
function currencyOf(name: string): string {
  const code = NAME.exec(name)?.[1];
  if (!code || !CURRENCIES.includes(code)) fail(`${name} names no series this adapter reads`);
  return code;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Central Bank of The Gambia',
  countryCode: 'GM',
  countryName: 'Gambia',
  currency: 'GMD',
  // Weekly until 2023, every business day since January 2024.
  cadence: 'daily',
  grade: 'A',
  schedule: '*/30 11-13 * * 1-5',
  // No documented time; the start of the observed poll window, 11:00 UTC (Banjul keeps UTC all year).
  publishedAtUtc: '11:00:00',
  feedUrl: 'https://www.cbg.gm/ajax/indicative-exchange-rates/USD',
  baseUrl: 'https://www.cbg.gm/ajax',
  // No terms are published; the rates page the series feed stands in.
  termsUrl: 'https://www.cbg.gm/indicative-exchange-rates-latest',
  terms: 'unknown',
  accepts(name) {
    const code = NAME.exec(name)?.[1];
    return code !== undefined && CURRENCIES.includes(code);
  },
  parse(payload: Payload): Observation[] {
    const quote = currencyOf(payload.name);
    const unit = HIDDEN_UNITS[quote] ?? 1;
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    if (!Array.isArray(doc)) fail(`${payload.name} is not an array of [time, rate] pairs`);
    const byDate = new Map<string, Set<string>>();
    for (const pair of doc as unknown[]) {
      if (!Array.isArray(pair) || pair.length !== 2) fail(`${quote}: ${JSON.stringify(pair)} is not a [time, rate] pair`);
      const [time, raw] = pair as [unknown, unknown];
      // Midnight UTC of the value date.
      if (typeof time !== 'number' || !Number.isSafeInteger(time) || time % DAY_MS !== 0) fail(`${quote}: bad time ${JSON.stringify(time)}`);
      const date = new Date(time).toISOString().slice(0, 10);
      const rate = decimalOf(fail, raw, `${quote} on ${date}`);
      // Two-decimal rounding leaves a few tiny figures at 0: no rate to report that day.
      if (Number(rate) === 0) continue;
      byDate.set(date, (byDate.get(date) ?? new Set()).add(rate));
    }
    // The archive repeats some days; where the repeats disagree (EUR on 2015-08-27: 51.91 and 43.41)
    // the bank's figure for that day is unknown, so the day is left out rather than one value picked.
    const observations = [...byDate]
      .filter(([, rates]) => rates.size === 1)
      .map(([date, rates]): Observation => ({ date, quote, rate: [...rates][0]!, unit, direction: 'direct' }));
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(_window, ctx: RequestContext): FeedRequest[] {
    // No date filter: each series comes whole, one request per currency.
    return CURRENCIES.map((code) => ({ url: `${ctx.base}/indicative-exchange-rates/${code}` }));
  },
};
