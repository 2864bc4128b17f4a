// Lietuvos bankas official litas rates (1994-04-01 to 2014-12-31), one day per call of the FxRates web
// service (getFxRates?tp=LT&dt=…). Each rate is a pair of amounts, "7.6881 LTL = 10 AED": the litas
// amount is the rate, the foreign amount its unit. Historical only: the euro replaced the litas in 2015.
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, isoCode, parseXml, unitOf, windowDays, xmlParser } from '../read.js';

const CODE = 'LIAB';
// getFxRates?tp=LT&dt=… (live, either parameter first) or lb-getFxRates-LT-2014-12-31.xml (recorded).
// tp=EU answers are the ECB's euro rates republished, not litas rates.
const NAME = /(^|[/-])getFxRates(\?([^/]*&)?tp=LT(&[^/]*)?|-LT-\d{4}-\d{2}-\d{2}\.xml)$/;

const fail: (message: string) => never = failFor(CODE);
const parser = xmlParser({ isArray: (name) => name === 'FxRate' || name === 'CcyAmt' });

type Amount = { Ccy?: unknown; Amt?: unknown };

function observation(row: Record<string, unknown>, i: number): Observation {
  const { Tp: type, Dt: date } = row;
  if (!isIsoDate(date)) fail(`FxRate ${i + 1} has bad Dt ${JSON.stringify(date)}`);
  if (type !== 'LT') fail(`FxRate ${i + 1} of ${date} is of type ${JSON.stringify(type)}, not LT (litas)`);
  const amounts = (row.CcyAmt ?? []) as Amount[];
  // The service writes the litas amount first; find it rather than trust the order.
  const litas = amounts.find((a) => a.Ccy === 'LTL');
  const foreign = amounts.find((a) => a.Ccy !== 'LTL');
  if (amounts.length !== 2 || !litas || !foreign) fail(`FxRate ${i + 1} of ${date} is not a pair of LTL and a foreign amount`);
  const quote = isoCode(fail, foreign.Ccy, `FxRate ${i + 1} of ${date}`);
  const where = `${quote} on ${date}`;
  return { date, quote, rate: decimalOf(fail, litas.Amt, where), unit: unitOf(fail, foreign.Amt, where), direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Lietuvos bankas',
  countryCode: 'LT',
  countryName: 'Lithuania',
  currency: 'LTL',
  cadence: 'daily',
  // Never polled (see `discontinued`); kept as Frankfurter's observed schedule for the service.
  schedule: '*/30 14-16 * * 1-5',
  // No publication time is documented for the litas rates; 14:00 UTC is the start of the window in
  // which Frankfurter polled the service.
  publishedAtUtc: '14:00:00',
  feedUrl: 'https://www.lb.lt/webservices/FxRates/FxRates.asmx/getFxRates?tp=LT&dt=2014-12-31',
  baseUrl: 'https://www.lb.lt/webservices/FxRates/FxRates.asmx',
  // SOURCE.md knows no terms page; this is the web service's own description page.
  termsUrl: 'https://www.lb.lt/webservices/FxRates/',
  terms: 'unknown',
  grade: 'A',
  // The litas was replaced by the euro on 2015-01-01.
  discontinued: '2014-12-31',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseXml(CODE, payload.name, payload.body.toString('utf8'), parser);
    if (!('FxRates' in doc)) fail(`${payload.name} is not an FxRates answer`);
    // An empty <FxRates> (its namespace attribute dropped) parses as text, not as an object.
    const root = (typeof doc.FxRates === 'object' && doc.FxRates !== null ? doc.FxRates : {}) as Record<string, unknown>;
    const rows = (root.FxRate ?? []) as Record<string, unknown>[];
    // A date outside the service's range comes back as an operational error instead of rates.
    if (rows.length === 0) fail(`${payload.name} holds no rates${root.OprlErr ? `: ${JSON.stringify(root.OprlErr)}` : ''}`);
    return rows.map(observation);
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // The litas rates were fixed on business days only.
    return windowDays(window, { weekdaysOnly: true }).map((day) => ({ url: `${ctx.base}/getFxRates?tp=LT&dt=${day}` }));
  },
};
