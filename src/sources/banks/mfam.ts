// Autoridade Monetária de Macau interbank middle rates from its CMS API (financial_info, QueryType=1).
// `usdMean`, despite its name, is MOP per `unit` foreign units (JPY and KRW per 100); `bid` is each
// currency's market quote against the dollar in market convention (USD per AUD, JPY per USD) and is
// not read: it is no rate against the pataca.
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isoCode, parseJson, unitOf, windowDays } from '../read.js';

const CODE = 'MFAM';
// financial_info?Begin=…&End=…&QueryType=1 (live) or amcm-financial_info-QueryType1-….json (recorded).
const NAME = /(^|[/-])financial_info(\?([^/]*&)?QueryType=1(&[^/]*)?|-QueryType1-[\d_-]+\.json)$/;
const DATE = /^(\d{4}-\d{2}-\d{2})( 00:00:00)?$/;
// The API answers at most about four months per call.
const DAYS_PER_CALL = 90;
// LIQ is a liquidity indicator published in the same list (unit 0), not a currency.
const NOT_CURRENCIES = new Set(['LIQ']);
// The European Currency Unit (1987–1998) is listed as ECU; ISO 4217 called it XEU.
const ISO_FOR: Readonly<Record<string, string>> = { ECU: 'XEU' };

const fail: (message: string) => never = failFor(CODE);

const compact = (day: string) => day.replaceAll('-', '');

function observation(row: unknown, i: number): Observation | undefined {
  if (typeof row !== 'object' || row === null) fail(`data[${i}] is not an object`);
  const { date: stamp, currency, unit, usdMean } = row as Record<string, unknown>;
  const date = typeof stamp === 'string' ? DATE.exec(stamp)?.[1] : undefined;
  if (!date) fail(`data[${i}] has bad date ${JSON.stringify(stamp)}`);
  const code = isoCode(fail, currency, `data[${i}] of ${date}`);
  if (NOT_CURRENCIES.has(code)) return undefined;
  const quote = ISO_FOR[code] ?? code;
  const where = `${quote} on ${date}`;
  // usdMean is text ("10.8350") and keeps its digits; usdMeanValue is the same figure as a JSON number.
  return { date, quote, rate: decimalOf(fail, usdMean, where), unit: unitOf(fail, unit, where), direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Autoridade Monetária de Macau',
  countryCode: 'MO',
  countryName: 'Macao',
  currency: 'MOP',
  cadence: 'daily',
  schedule: '*/30 3-5 * * 1-5',
  // No publication time is documented; 03:00 UTC (11:00 Macao, UTC+8 all year) is the start of the
  // window in which Frankfurter found each business day's rates.
  publishedAtUtc: '03:00:00',
  feedUrl: 'https://www.amcm.gov.mo/en/financial-information/interbank-midpoint',
  baseUrl: 'https://www.amcm.gov.mo/api/v1.0/cms',
  // No terms page is known; this is the page that publishes the rates.
  termsUrl: 'https://www.amcm.gov.mo/en/financial-information/interbank-midpoint',
  terms: 'unknown',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    const { code, type, data } = (typeof doc === 'object' && doc !== null ? doc : {}) as Record<string, unknown>;
    if (code !== 0 || type !== 'Success' || !Array.isArray(data)) fail(`${payload.name} is not a successful answer (code ${JSON.stringify(code)}, type ${JSON.stringify(type)})`);
    // A window of weekends and holidays is a successful answer without rows.
    if (data.length === 0) throw new NoPublication(CODE, `${payload.name} holds no business day`);
    const observations = data.flatMap((row, i) => observation(row, i) ?? []);
    if (observations.length === 0) fail(`${payload.name} holds no currency rates`);
    return observations;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    const days = windowDays(window);
    const requests: FeedRequest[] = [];
    for (let i = 0; i < days.length; i += DAYS_PER_CALL) {
      const last = days[Math.min(i + DAYS_PER_CALL, days.length) - 1]!;
      requests.push({ url: `${ctx.base}/financial_info?Begin=${compact(days[i]!)}&End=${compact(last)}&QueryType=1` });
    }
    return requests;
  },
};
