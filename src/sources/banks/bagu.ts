// Banco de Guatemala reference rate (tipo de cambio de referencia): GTQ per US dollar, from the
// TipoCambio SOAP 1.1 web service, whose TipoCambioRango operation answers every calendar day of a
// range (weekends repeat Friday's figure, as the bank states it).
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor, fromDmy, parseXml, toDmy, xmlParser } from '../read.js';

const CODE = 'BAGU';
const PATH = '/variables/ws/TipoCambio.asmx';
const NS = 'http://www.banguat.gob.gt/variables/ws/';
// Banguat numbers its currencies; the range operation answers for the dollar (2) only. Another
// number is a change of the service to be looked at, not a currency to guess.
const MONEDAS: Readonly<Record<string, string>> = { '2': 'USD' };
// …/TipoCambio.asmx (live: the operation is in the body) or recorded banguat-TipoCambio-soap-….xml.
const NAME = /\/TipoCambio\.asmx$|(^|\/)banguat-TipoCambio-soap-[^/]*\.xml$/;

const fail: (message: string) => never = failFor(CODE);
const parser = xmlParser({ isArray: (name) => name === 'Var' });

type Node = Record<string, unknown>;
const child = (node: unknown, name: string): unknown => (typeof node === 'object' && node !== null ? (node as Node)[name] : undefined);

function observation(v: unknown): Observation {
  const moneda = String(child(v, 'moneda') ?? '');
  const quote = MONEDAS[moneda];
  if (quote === undefined) fail(`unknown moneda ${JSON.stringify(moneda)}`);
  const fecha = String(child(v, 'fecha') ?? '');
  // fecha is DD/MM/YYYY.
  const date = fromDmy(fecha) ?? fail(`bad fecha ${JSON.stringify(fecha)}`);
  const venta = decimalOf(fail, child(v, 'venta'), `venta on ${date}`);
  const compra = decimalOf(fail, child(v, 'compra'), `compra on ${date}`);
  // The reference rate is one figure, written into both fields. Should they ever differ, which one
  // is the reference is a question for the bank, not something to pick here.
  if (venta !== compra) fail(`venta ${venta} and compra ${compra} differ on ${date}`);
  return { date, quote, rate: venta, unit: 1, direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Banco de Guatemala',
  countryCode: 'GT',
  countryName: 'Guatemala',
  currency: 'GTQ',
  cadence: 'daily',
  // Every calendar day has a rate, so the poll runs every day.
  schedule: '*/30 6-8 * * *',
  // No release time is documented, and every calendar day carries its own rate: we take the start of
  // the day the rate applies to in Guatemala City (CST, UTC-6, no daylight saving), 06:00 UTC.
  publishedAtUtc: '06:00:00',
  feedUrl: `https://www.banguat.gob.gt${PATH}`,
  baseUrl: 'https://www.banguat.gob.gt',
  // SOURCE.md names no terms page; this is the page the bank publishes the rate on.
  termsUrl: 'https://www.banguat.gob.gt/tipo_cambio/',
  terms: 'unknown',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseXml(CODE, payload.name, decodeText(payload.body), parser);
    const body = child(child(doc, 'Envelope'), 'Body');
    const fault = child(body, 'Fault');
    if (fault !== undefined) fail(`SOAP fault: ${String(child(fault, 'faultstring') ?? JSON.stringify(fault))}`);
    const result = child(child(body, 'TipoCambioRangoResponse'), 'TipoCambioRangoResult');
    if (result === undefined) fail(`${payload.name} is not a TipoCambioRango response`);
    const vars = child(child(result, 'Vars'), 'Var');
    if (!Array.isArray(vars) || vars.length === 0) fail(`${payload.name} holds no rates`);
    return vars.map(observation);
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One call covers the whole range; the service wants DD/MM/YYYY.
    const body =
      '<?xml version="1.0" encoding="utf-8"?>' +
      '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
      `<TipoCambioRango xmlns="${NS}"><fechainit>${toDmy(window.from, '/')}</fechainit><fechafin>${toDmy(window.to, '/')}</fechafin></TipoCambioRango>` +
      '</soap:Body></soap:Envelope>';
    return [
      {
        url: `${ctx.base}${PATH}`,
        method: 'POST',
        headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}TipoCambioRango"` },
        body,
      },
    ];
  },
};
