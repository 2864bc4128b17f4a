// Banco Central de Costa Rica reference rate for the US dollar, from the SDDE indicator API: a pivot
// table with one column per calendar day ("24 mar 2026") and two rows, buy (indicator 317) and sell
// (318), CRC per USD. Weekends and holidays carry the previous day's figures, as the bank states them.
import { Decimal } from '../../money/decimal.js';
import { type FeedRequest, type FetchWindow, type FollowedPage, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, parseJson, windowDays } from '../read.js';
import { monthNumber } from '../months.js';

const CODE = 'BCCR';
const PATH = '/Bccr.GE.SDDE.IndicadoresSitioExterno.GrupoVariables.API/CuadroGrupoVariables/ObtenerDatosCuadro';
const TOKEN_PATH = '/Bccr.GE.SDDE.IndicadoresSitioExterno.ServiciosUsuario.API/Token/GenereCSRF';
const JWT = /^[\w-]+\.[\w-]+\.[\w-]+$/;
const BUY = 317;
const SELL = 318;
// The API answers at most this many day columns, the last ones up to FechaFin.
const MAX_COLUMNS = 100;
// …/ObtenerDatosCuadro?IdGrupoVariable=1&… (live) or bccr-ObtenerDatosCuadro-IdGrupoVariable1-….json (recorded).
const NAME = /\/ObtenerDatosCuadro\?(?:[^#]*&)?IdGrupoVariable=1(?:&|$)|(?:^|\/)bccr-ObtenerDatosCuadro-IdGrupoVariable1-[^/]*\.json$/;

const fail: (message: string) => never = failFor(CODE);

type Row = Record<string, unknown>;
const asRow = (x: unknown): Row => (typeof x === 'object' && x !== null ? (x as Row) : {});

/** An English column title, "15 dec 2025", as 2025-12-15. */
function dayOf(title: unknown): string {
  const m = typeof title === 'string' ? /^(\d{2}) ([a-z]{3}) (\d{4})$/.exec(title.trim()) : null;
  const month = m ? monthNumber(m[2]!) : 0;
  if (!m || month === 0) fail(`bad column title ${JSON.stringify(title)}`);
  return `${m[3]}-${String(month).padStart(2, '0')}-${m[1]}`;
}

/** The series of one indicator: { serie1: "494,34", serie1Ingles: "494.34", … }. */
function seriesOf(indicators: unknown[], id: number): Row {
  const row = indicators.map(asRow).find((r) => r.idIndicador === id);
  if (row === undefined) fail(`no indicator ${id}`);
  return asRow(row.series);
}

export const source: SyncSource = {
  code: CODE,
  name: 'Banco Central de Costa Rica',
  countryCode: 'CR',
  countryName: 'Costa Rica',
  currency: 'CRC',
  cadence: 'daily',
  schedule: '*/30 18-20 * * 1-5',
  // No release time is documented; the observed polling window opens at 18:00 UTC (12:00 in San José,
  // CST = UTC-6 all year), so a day's figures are taken as published by then.
  publishedAtUtc: '18:00:00',
  feedUrl: `https://apim.bccr.fi.cr/SDDE/api${PATH}?IdGrupoVariable=1&CantidadSeriesAMostrar=100`,
  baseUrl: 'https://apim.bccr.fi.cr/SDDE/api',
  termsUrl: 'https://sdd.bccr.fi.cr/es/IndicadoresEconomicos/Inicio/TerminosDeUso',
  terms: 'unknown',
  // The API answers the bank's own site, which a browser names in Origin (the peer, since 2026-04).
  headers: { origin: 'https://sdd.bccr.fi.cr' },
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = asRow(parseJson(CODE, payload.name, payload.body.toString('utf8')));
    const { columnas, indicadoresRaiz } = doc;
    if (!Array.isArray(columnas) || !Array.isArray(indicadoresRaiz)) fail(`${payload.name} is not an indicator table`);
    const buy = seriesOf(indicadoresRaiz, BUY);
    const sell = seriesOf(indicadoresRaiz, SELL);
    // The first column holds the row names ("nombre"); every other one is a day.
    const days = columnas.map(asRow).filter((c) => c.field !== 'nombre');
    if (days.length === 0) fail(`${payload.name} holds no rates`);
    return days.map((c): Observation => {
      const date = dayOf(c.tituloIngles);
      // Each figure is there twice: "494,34" and, under …Ingles, "494.34"; the English one is read.
      const key = `${String(c.field)}Ingles`;
      const b = new Decimal(decimalOf(fail, buy[key], `buy on ${date}`));
      const s = new Decimal(decimalOf(fail, sell[key], `sell on ${date}`));
      // The BCCR publishes a buying and a selling reference rate and defines no mid. The rate kept is
      // their exact midpoint: our reading, not the bank's (463.24 and 469.49 give 466.365).
      return { date, quote: 'USD', rate: b.plus(s).div(2).toString(), unit: 1, direction: 'direct' };
    });
  },
  // The CSRF token first: the indicator API wants a fresh JWT from GenereCSRF in a token_csrf header.
  requests(_window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return [{ url: `${ctx.base}${TOKEN_PATH}`, follow: true }];
  },
  follow(page: FollowedPage, window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // The token's answer was not recorded (SOURCE.md): a bare JWT and a JSON string are both read.
    const text = page.body.toString('utf8').trim();
    const token = /^"[^"]*"$/.test(text) ? (JSON.parse(text) as string) : text;
    if (!JWT.test(token)) fail(`${page.name} is not a CSRF token (a JWT)`);
    const headers = { token_csrf: token, ...(page.cookie ? { cookie: page.cookie } : {}) };
    // The API returns the last 100 day columns up to FechaFin whatever FechaInicio says, so a long
    // window is asked for in pieces of at most 100 days.
    const days = windowDays(window);
    const requests: FeedRequest[] = [];
    for (let i = 0; i < days.length; i += MAX_COLUMNS) {
      const from = days[i]!;
      const to = days[Math.min(i + MAX_COLUMNS, days.length) - 1]!;
      requests.push({ url: `${ctx.base}${PATH}?IdGrupoVariable=1&FechaInicio=${from}T00:00:00&FechaFin=${to}&CantidadSeriesAMostrar=${MAX_COLUMNS}`, headers });
    }
    return requests;
  },
};
