// Banco Central de la República Argentina: the day's table of the Estadísticas Cambiarias API
// ({status, results: {fecha, detalle[{codigoMoneda, descripcion, tipoPase, tipoCotizacion}]}}), one
// request per business day. tipoCotizacion is ARS per unit (direct); tipoPase (USD per unit) is read
// only for the metals, which have no ARS figure.
import { NoPublication, type FeedRequest, type Observation, type Payload, type SyncSource } from '../types.js';
import { Decimal } from '../../money/decimal.js';
import { decimalOf, failFor, isIsoDate, isRecord, parseJsonKeepingDigits, windowDays } from '../read.js';

const CODE = 'BCRA';
// …/estadisticascambiarias/v1.0/Cotizaciones[?fecha=…] (live) or …-Cotizaciones-fecha-….json (recorded).
// The per-currency series (Cotizaciones/USD?fechadesde=…) has another shape and is not read here.
const NAME = /estadisticascambiarias[/-]v1\.0[/-]Cotizaciones(\?fecha=\d{4}-\d{2}-\d{2}|-fecha-[^/]*\.json)?$/;
// Rows that are not an ARS rate of an ISO currency: the peso itself (0), BCRA's own reference-dollar row
// (Com. A 3500, "REF"; the USD row already carries the dollar) and the offshore yuan (CNH is no ISO
// code; CNY is listed with it).
const NOT_RATES = new Set(['ARS', 'REF', 'CNH']);
// Gold and silver have no ARS figure (tipoCotizacion 0), only a dollar price per troy ounce in tipoPase
// ("ORO FINO (1 ONZA)" 4615.33, "PLATA - ONZA TROY"), which is what XAU and XAG denote (D19). Every
// other row's ARS figure is its tipoPase times the dollar's (EUR 1612.042 = 1.156 × 1394.5): a metal is
// stated the same way, exactly and unrounded, so that rebased to USD (as the blend does inside a
// table) it is BCRA's own dollar price.
const IN_DOLLARS = new Set(['XAU', 'XAG']);
// BCRA keeps the Mexican peso under MXP, the pre-1993 code; since 2000 (the API's history) its figure is
// the current peso (78.44 ARS, i.e. 17.78 per USD on 2026-03-19), so it is reported as MXN.
const RENAMED: Readonly<Record<string, string>> = { MXP: 'MXN' };
// VEB (the bolívar code retired in 2008) is skipped: BCRA has carried it across three redenominations
// (VEF 2008, VES 2018, the 2021 scale) and the payload does not say which bolívar a row is in.
const AMBIGUOUS = new Set(['VEB']);
// Hidden multiplier in the description: "DONG VIETNAM (C/1.000 UNIDADES)" is ARS per 1,000 VND
// (53.04 ARS per 1,000 VND is 26,290 VND per USD). The dot is a thousands separator.
const PER_UNITS = /\bC\/\s*([\d.]+)\s*UNIDADES\b/i;

const fail: (message: string) => never = failFor(CODE);


/** The multiplier hidden in the description; a plain one means per 1 unit. */
function perUnits(description: unknown): number {
  const m = typeof description === 'string' ? PER_UNITS.exec(description) : null;
  return m ? Number(m[1]!.replaceAll('.', '')) : 1;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Banco Central de la República Argentina',
  countryCode: 'AR',
  countryName: 'Argentina',
  currency: 'ARS',
  cadence: 'daily',
  schedule: '*/30 16-18 * * 1-5',
  // No publication time is documented. The table follows the wholesale FX session, which closes at
  // 15:00 Buenos Aires time (UTC-3 all year, no DST).
  publishedAtUtc: '18:00:00',
  feedUrl: 'https://api.bcra.gob.ar/estadisticascambiarias/v1.0/Cotizaciones',
  baseUrl: 'https://api.bcra.gob.ar',
  termsUrl: 'https://www.bcra.gob.ar/BCRAyVos/catalogo-de-APIs-banco-central.asp',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    // Rates are JSON numbers whose trailing zeros are the bank's digits (0.70550000): kept as sent.
    const doc = parseJsonKeepingDigits(CODE, payload.name, payload.body.toString('utf8'), ['tipoCotizacion', 'tipoPase']);
    if (!isRecord(doc)) fail(`${payload.name} is not a JSON object`);
    // Errors are JSON too: {"status": 400, "errorMessages": […]}.
    if (Array.isArray(doc.errorMessages)) fail(`BCRA says ${doc.errorMessages.join('; ')}`);
    const results = doc.results;
    if (!isRecord(results)) fail(`${payload.name} has no results object`);
    const { fecha: date, detalle } = results;
    // A day without a table (a holiday: the requests skip weekends only) is answered with fecha null.
    if (date === null && (detalle === undefined || (Array.isArray(detalle) && detalle.length === 0))) {
      throw new NoPublication(CODE, `${payload.name} holds no rates: no table that day`);
    }
    if (!isIsoDate(date)) fail(`bad fecha ${JSON.stringify(date)}`);
    if (!Array.isArray(detalle)) fail(`${date} has no detalle array`);
    const out: Observation[] = [];
    const inDollars: [string, string][] = [];
    for (const row of detalle as unknown[]) {
      if (!isRecord(row)) fail(`${date} has a detalle entry that is not an object`);
      const { codigoMoneda, descripcion, tipoCotizacion: raw } = row;
      const code = typeof codigoMoneda === 'string' ? codigoMoneda.trim() : '';
      if (!/^[A-Z]{3}$/.test(code)) fail(`${date} has bad codigoMoneda ${JSON.stringify(codigoMoneda)}`);
      if (NOT_RATES.has(code) || AMBIGUOUS.has(code)) continue;
      if (IN_DOLLARS.has(code)) {
        inDollars.push([code, decimalOf(fail, row.tipoPase, `${code} has bad tipoPase on ${date}`)]);
        continue;
      }
      const rate = decimalOf(fail, raw, `${code} has bad tipoCotizacion on ${date}`);
      // BCRA writes 0 where it has no ARS figure for a currency that day; 0 is not a rate.
      if (Number(rate) === 0) continue;
      out.push({ date, quote: RENAMED[code] ?? code, rate, unit: perUnits(descripcion), direction: 'direct' });
    }
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    const usd = out.find((o) => o.quote === 'USD')?.rate;
    for (const [quote, price] of inDollars) {
      if (usd === undefined) fail(`${quote} on ${date}: a price in dollars, and no dollar rate in the table`);
      if (Number(price) > 0) out.push({ date, quote, rate: new Decimal(price).times(usd).toString(), unit: 1, direction: 'direct' });
    }
    return out;
  },
  requests(window, ctx): FeedRequest[] {
    const base = ctx.base.replace(/\/+$/, '');
    // The table endpoint takes one date; the ranged endpoint is per currency (≈37 requests a window).
    return windowDays(window, { weekdaysOnly: true }).map((date) => ({ url: `${base}/estadisticascambiarias/v1.0/Cotizaciones?fecha=${date}` }));
  },
};
