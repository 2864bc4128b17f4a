// Banco Central de Reserva del Perú: the banking system's (SBS) buying and selling rates of the US
// dollar, PEN per USD, from the BCRPData series API (series PD04639PD buy, PD04640PD sell). No middle
// rate is published: the rate kept is the exact mean of the two. JSON served as text/html; days are
// `01.Set.26` (English month abbreviations, but Spanish `Set` for September); a day not (yet)
// published is `n.d.` in both columns.
import { Decimal } from '../../money/decimal.js';
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, isRecord, parseJson } from '../read.js';
import { monthNumber } from '../months.js';

const CODE = 'CRPE';
const SERIES = 'PD04639PD-PD04640PD';
const PATH = `/estadisticas/series/api/${SERIES}/json`;
// …/api/PD04639PD-PD04640PD/json/<from>/<to>[/ing] (live) or PD04639PD-PD04640PD-<from>-<to>.json (recorded).
const NAME = new RegExp(`(^|/)${SERIES}(/json/\\d{4}-\\d{2}-\\d{2}/\\d{4}-\\d{2}-\\d{2}(/ing)?|-[^/]*\\.json)$`);
// What BCRPData writes for a day without a figure.
const NOT_AVAILABLE = 'n.d.';

const fail: (message: string) => never = failFor(CODE);

/** `01.Set.26` → 2026-09-01. The series start in 1997: a two-digit year above 90 is in the 1900s. */
function dayOf(name: unknown): string {
  const m = typeof name === 'string' ? /^(\d{2})\.([A-Za-z]{3})\.(\d{2})$/.exec(name) : null;
  // English abbreviations, except September, which the English labels keep in Spanish (`Set`).
  const month = m ? monthNumber(m[2]!) || monthNumber(m[2]!, 'es') : 0;
  if (!m || month === 0) fail(`bad period name ${JSON.stringify(name)}`);
  const year = Number(m[3]) > 90 ? `19${m[3]}` : `20${m[3]}`;
  const date = `${year}-${String(month).padStart(2, '0')}-${m[1]}`;
  if (!isIsoDate(date)) fail(`bad period name ${JSON.stringify(name)}`);
  return date;
}

/** Which column is the buying rate and which the selling one, read from the series' names. */
function columns(config: unknown): { buy: number; sell: number } {
  const series = isRecord(config) && Array.isArray(config.series) ? config.series : [];
  const names = series.map((s: unknown) => (isRecord(s) && typeof s.name === 'string' ? s.name : ''));
  const buy = names.findIndex((n) => /S\/ por US\$\) - Compra$/.test(n));
  const sell = names.findIndex((n) => /S\/ por US\$\) - Venta$/.test(n));
  if (names.length !== 2 || buy < 0 || sell < 0) fail(`not the SBS buy and sell series: ${JSON.stringify(names)}`);
  return { buy, sell };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Banco Central de Reserva del Perú',
  countryCode: 'PE',
  countryName: 'Peru',
  currency: 'PEN',
  cadence: 'daily',
  // Lima is UTC-5 all year; the previous business day's figures appear in the morning there.
  schedule: '*/30 13-22 * * 1-5',
  // Published the next business day (a recording of 06:00 in Lima had the day before as `n.d.`): by
  // 13:00 UTC (08:00 in Lima) of the day after the figure's date. A Friday's figure comes on Monday;
  // the offset says Saturday, the earliest it could be. Its fixing (a day's average) is in fixing.ts.
  publishedAtUtc: '13:00:00',
  publishedDayOffset: 1,
  feedUrl: `https://estadisticas.bcrp.gob.pe${PATH}/2026-09-01/2026-09-08/ing`,
  baseUrl: 'https://estadisticas.bcrp.gob.pe',
  termsUrl: 'https://estadisticas.bcrp.gob.pe/estadisticas/series/ayuda/condiciones-de-uso',
  // SOURCE.md: the conditions of use were not read.
  terms: 'unknown',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    if (!isRecord(doc) || !Array.isArray(doc.periods)) fail(`${payload.name} has no periods`);
    const { buy, sell } = columns(doc.config);
    const observations: Observation[] = [];
    for (const period of doc.periods) {
      if (!isRecord(period) || !Array.isArray(period.values) || period.values.length !== 2) fail(`${payload.name}: a period without its two values`);
      const date = dayOf(period.name);
      const [b, s] = [period.values[buy], period.values[sell]];
      // A day not published (yet): both columns `n.d.`. One figure without the other is not a mean.
      if (b === NOT_AVAILABLE && s === NOT_AVAILABLE) continue;
      const mean = new Decimal(decimalOf(fail, b, `buy on ${date}`)).plus(decimalOf(fail, s, `sell on ${date}`)).div(2);
      // No middle rate is published: the exact mean of buy and sell (3.36 and 3.368 give 3.364), our
      // reading, as other users of this series take it.
      observations.push({ date, quote: 'USD', rate: mean.toString(), unit: 1, direction: 'direct' });
    }
    if (observations.length === 0) throw new NoPublication(CODE, `${payload.name} holds no published day`);
    return observations;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One request for any window: the whole history (from 1997) is about 520 KB.
    return [{ url: `${ctx.base}${PATH}/${window.from}/${window.to}/ing` }];
  },
};
