// Banco Central de Chile exchange rates from the BDE web service (SieteRestWS GetSeries), one series per
// request: F073.TCO.PRE.Z.D is the observed dollar ("dólar observado"), F072.CLP.<ISO>.N.O.D the peso
// rate of another currency. Every series is CLP per 1 unit. The body names its series, so the name is not needed.
import { NoPublication, type FeedRequest, type Observation, type Payload, type SyncSource } from '../types.js';
import { decimalOf, failFor, fromDmy, isRecord, parseJson } from '../read.js';

const CODE = 'BCEC';
const OBSERVED_DOLLAR = 'F073.TCO.PRE.Z.D';
const NOMINAL = /^F072\.CLP\.([A-Z]{3})\.N\.O\.D$/;
/** Series fetched per window: the observed dollar and the nominal rates of seven more currencies. */
export const BCCH_SERIES = [OBSERVED_DOLLAR, ...['EUR', 'GBP', 'JPY', 'CAD', 'AUD', 'CNY', 'BRL'].map((c) => `F072.CLP.${c}.N.O.D`)];
// SieteRestWS.ashx?…function=GetSeries… (live) or SieteRestWS-GetSeries-….json (recorded).
const NAME = /SieteRestWS(\.ashx\?(.*&)?function=GetSeries(&|$)|-GetSeries-)/;

const fail: (message: string) => never = failFor(CODE);


function quoteOf(seriesId: unknown): string {
  if (seriesId === OBSERVED_DOLLAR) return 'USD';
  const m = typeof seriesId === 'string' ? NOMINAL.exec(seriesId) : null;
  // F072.CLP.USD.N.O.D would be a second dollar next to the observed one; only F073 stands for USD.
  if (!m || m[1] === 'USD') fail(`series ${JSON.stringify(seriesId)} is not an exchange rate this adapter reads`);
  return m[1]!;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Banco Central de Chile',
  countryCode: 'CL',
  countryName: 'Chile',
  currency: 'CLP',
  cadence: 'daily',
  schedule: '*/30 16-18 * * 1-5',
  // No publication time is documented; we take the start of the observed polling window (13:00 in
  // Santiago on standard time, UTC-4). A day's figure is dated the day it applies, as the BDE states it.
  publishedAtUtc: '16:00:00',
  // The dólar observado of day D is computed from the previous business day's trades.
  publishedDayOffset: -1,
  feedUrl: 'https://si3.bcentral.cl/SieteRestWS/SieteRestWS.ashx?function=GetSeries&timeseries=F073.TCO.PRE.Z.D',
  baseUrl: 'https://si3.bcentral.cl/SieteRestWS',
  termsUrl: 'https://si3.bcentral.cl/Siete/es/Siete/API',
  terms: 'unknown',
  // The "key" is the BDE account as `user:password` (the service takes both as query parameters).
  needsKey: true,
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    if (!isRecord(doc)) fail(`${payload.name} is not a JSON object`);
    // Failures are JSON with a non-zero Codigo ({"Codigo": -5, "Descripcion": "Invalid username or password"}).
    if (doc.Codigo !== 0) fail(`BDE says ${String(doc.Codigo)} ${String(doc.Descripcion)}`);
    const series = doc.Series;
    if (!isRecord(series)) fail(`${payload.name} has no Series object`);
    const quote = quoteOf(series.seriesId);
    if (!Array.isArray(series.Obs)) fail(`${String(series.seriesId)} has no Obs array`);
    const out: Observation[] = [];
    for (const o of series.Obs as unknown[]) {
      const { indexDateString: day, value, statusCode } = isRecord(o) ? o : {};
      // The BDE writes DD-MM-YYYY.
      const date = typeof day === 'string' ? fromDmy(day) : undefined;
      if (date === undefined) fail(`${quote} has bad indexDateString ${JSON.stringify(day)}`);
      // Weekends and holidays come as statusCode "ND" with value "NaN": no figure that day.
      if (statusCode === 'ND') continue;
      if (statusCode !== 'OK' || typeof value !== 'string') fail(`${quote} has status ${JSON.stringify(statusCode)} on ${date}`);
      out.push({ date, quote, rate: decimalOf(fail, value, `${quote} has bad value on ${date}`), unit: 1, direction: 'direct' });
    }
    // Every day of the range listed, all of them ND: a window of weekends and holidays only.
    if (out.length === 0 && series.Obs.length > 0) throw new NoPublication(CODE, `${payload.name} holds no rates: only non-business days`);
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  requests(window, ctx): FeedRequest[] {
    const base = ctx.base.replace(/\/+$/, '');
    const key = ctx.key ?? '';
    const colon = key.indexOf(':');
    const [user, pass] = colon < 0 ? [key, ''] : [key.slice(0, colon), key.slice(colon + 1)];
    return BCCH_SERIES.map((id) => {
      const query = `function=GetSeries&timeseries=${id}&firstdate=${window.from}&lastdate=${window.to}`;
      const path = `${base}/SieteRestWS.ashx?`;
      // The name leaves the credentials out: it is logged and stored with the payload.
      return { url: `${path}user=${encodeURIComponent(user)}&pass=${encodeURIComponent(pass)}&${query}`, name: `${path}${query}` };
    });
  },
};
