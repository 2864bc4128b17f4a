// Banco de Mexico exchange rates from the SIE REST API: the FIX (USD) and the peso rates of the other
// SDR-basket currencies plus CAD, several series per request (bmx.series[{idSerie, datos[{fecha, dato}]}]).
// Every series is MXN per 1 unit of its currency (JPY 0.1105), so no multiplier.
import { NoPublication, type FeedRequest, type Observation, type Payload, type SyncSource } from '../types.js';
import { decimalOf, failFor, fromDmy, isRecord, parseJson } from '../read.js';

const CODE = 'BDEM';
/** SIE series → currency. SF43718 is the FIX ("fecha de determinación"); the others are Banxico's
 *  quotes of SDR-basket currencies (and the Canadian dollar) against the peso. SF60653, the FIX as
 *  applied in the DOF the next banking day, is a second USD figure and is deliberately not mapped. */
export const SIE_SERIES: Readonly<Record<string, string>> = {
  SF43718: 'USD', SF46410: 'EUR', SF46407: 'GBP', SF46406: 'JPY', SF60632: 'CAD',
};
// Banxico writes "N/E" (no existe) for a day without a figure.
const NO_VALUE = 'N/E';
// SieAPIRest/service/v1/series/SF43718,…/datos/… (live) or sie-series-SF43718-…json (recorded).
const NAME = /(^|[/-])series[/-]SF\d+[-,/]/;

const fail: (message: string) => never = failFor(CODE);


/** The rates of one series; undefined for a series this adapter does not read. */
function seriesObservations(series: unknown): Observation[] | undefined {
  if (!isRecord(series)) fail('series entry is not an object');
  const { idSerie: id, datos } = series;
  if (typeof id !== 'string') fail('series without idSerie');
  // A request for other SIE series (interest rates, SF60653) is not ours to read as exchange rates.
  if (!Object.hasOwn(SIE_SERIES, id)) return undefined;
  const quote = SIE_SERIES[id]!;
  // `datos` is absent when the range holds no business day of the series.
  if (datos === undefined) return [];
  if (!Array.isArray(datos)) fail(`${id} datos is not an array`);
  const out: Observation[] = [];
  for (const d of datos as unknown[]) {
    const { fecha, dato } = isRecord(d) ? d : {};
    // Banxico writes DD/MM/YYYY.
    const date = typeof fecha === 'string' ? fromDmy(fecha) : undefined;
    if (date === undefined) fail(`${id} has bad fecha ${JSON.stringify(fecha)}`);
    if (dato === NO_VALUE) continue;
    // Banxico sends figures as text; a JSON number would not be its format.
    if (typeof dato !== 'string') fail(`${id} has no dato on ${date}`);
    out.push({ date, quote, rate: decimalOf(fail, dato, `${id} has bad dato on ${date}`), unit: 1, direction: 'direct' });
  }
  return out;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Banco de México',
  countryCode: 'MX',
  countryName: 'Mexico',
  currency: 'MXN',
  cadence: 'daily',
  schedule: '*/30 18-20 * * 1-5',
  // The FIX is determined ~12:00 Mexico City time and posted right after; Mexico City keeps UTC-6 all
  // year (no DST since 2022). The DOF prints it the next banking day, but the date is the determination's.
  publishedAtUtc: '18:00:00',
  feedUrl: 'https://www.banxico.org.mx/SieAPIRest/service/v1/series/SF43718,SF46410,SF46407,SF46406,SF60632/datos/oportuno',
  baseUrl: 'https://www.banxico.org.mx/SieAPIRest/service/v1',
  termsUrl: 'https://www.banxico.org.mx/SieAPIRest/service/v1/',
  terms: 'unknown',
  needsKey: true,
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    if (!isRecord(doc)) fail(`${payload.name} is not a JSON object`);
    // Errors come as {"error": {"mensaje": …, "detalle": …}} (bad token, unknown series).
    if (isRecord(doc.error)) fail(`Banxico says ${String(doc.error.mensaje)}: ${String(doc.error.detalle)}`);
    const series = isRecord(doc.bmx) ? doc.bmx.series : undefined;
    if (!Array.isArray(series)) fail(`${payload.name} has no bmx.series array`);
    const ours = series.map(seriesObservations).filter((o): o is Observation[] => o !== undefined);
    const out = ours.flat();
    // Our series are there, without a figure: the range held weekends, holidays and N/E days only.
    if (out.length === 0 && ours.length > 0) throw new NoPublication(CODE, `${payload.name} holds no rates: no banking day in the range`);
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  requests(window, ctx): FeedRequest[] {
    const base = ctx.base.replace(/\/+$/, '');
    const ids = Object.keys(SIE_SERIES).join(',');
    // The token goes in the Bmx-Token header (never in the URL, which ends up in logs and payload names).
    return [{ url: `${base}/series/${ids}/datos/${window.from}/${window.to}`, headers: ctx.key ? { 'Bmx-Token': ctx.key } : {} }];
  },
};
