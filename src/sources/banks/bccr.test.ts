// BCCR, Banco Central de Costa Rica: grade A (complete VCR recording, SOURCES-2.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './bccr.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BCCR');
const FILE = 'bccr-ObtenerDatosCuadro-IdGrupoVariable1-2026-03-21_2026-03-24.json';
const PATH = '/Bccr.GE.SDDE.IndicadoresSitioExterno.GrupoVariables.API/CuadroGrupoVariables/ObtenerDatosCuadro';
const fromFile = () => source.parse({ name: FILE, body: readFileSync(new URL(FILE, DIR)) }) as Observation[];
const fromText = (text: string) => source.parse({ name: `https://apim.bccr.fi.cr/SDDE/api${PATH}?IdGrupoVariable=1&FechaFin=2026-03-24`, body: Buffer.from(text) }) as Observation[];
const mid = (obs: Observation[], date: string) => obs.find((o) => o.date === date)?.rate;

/** The API's pivot table, cut down to the given day columns ([field, Spanish title, English title, buy, sell]). */
function table(days: [string, string, string, string, string][]): string {
  const columnas = [{ field: 'nombre', tituloEspanol: 'Indicadores', tituloIngles: 'Indicators' }, ...days.map(([field, es, en]) => ({ field, tituloEspanol: es, tituloIngles: en, format: '{0:N2}' }))];
  const series = (i: 3 | 4) => Object.fromEntries(days.flatMap((d) => [[d[0], d[i].replace('.', ',')], [`${d[0]}Ingles`, d[i]]]));
  const indicadoresRaiz = [
    { id: 1, idIndicador: 317, nombreEspanol: 'Compra', nombreIngles: 'Buy', series: series(3) },
    { id: 2, idIndicador: 318, nombreEspanol: 'Venta', nombreIngles: 'Sell', series: series(4) },
  ];
  return JSON.stringify({ informacionDelCuadro: { codGrupoVariablePublicado: 1, decimales: 2 }, columnas, indicadoresRaiz, notas: [], enlaces: [] });
}
const DAY: [string, string, string, string, string] = ['serie1', '25 mar 2026', '25 mar 2026', '463.50', '468.30'];

describe('BCCR recorded payload', () => {
  test('every recorded file but SOURCE.md is accepted', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('100 calendar days of USD, 15 Dec 2025 to 24 Mar 2026, each the buy/sell midpoint', () => {
    const obs = fromFile();
    assert.equal(obs.length, 100);
    assert.equal(obs[0]!.date, '2025-12-15');
    assert.equal(obs.at(-1)!.date, '2026-03-24');
    assert.equal(new Set(obs.map((o) => o.date)).size, 100);
    assert.ok(obs.every((o) => o.quote === 'USD' && o.unit === 1 && o.direction === 'direct'));
    // 494.34 / 500.49, 464.54 / 469.69, 463.50 / 468.29 (buy / sell in the payload).
    assert.equal(mid(obs, '2025-12-15'), '497.415');
    assert.equal(mid(obs, '2026-03-20'), '467.115');
    assert.equal(mid(obs, '2026-03-24'), '465.895');
    // The weekend and Monday 23 March carry 463.24 / 469.49, as published.
    for (const d of ['2026-03-21', '2026-03-22', '2026-03-23']) assert.equal(mid(obs, d), '466.365', d);
    assert.equal(mid(obs, '2026-01-01'), obs.find((o) => o.date === '2025-12-31')!.rate);
  });

  test('gets a CSRF token, then asks for at most 100 days a call with it, and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const base = 'http://127.0.0.1:1';
    const TOKEN_PATH = '/Bccr.GE.SDDE.IndicadoresSitioExterno.ServiciosUsuario.API/Token/GenereCSRF';
    assert.deepEqual(source.requests(window, { base, key: 'k' }), [{ url: `${base}${TOKEN_PATH}`, follow: true }]);
    const answer = readFileSync(new URL('./testdata/BCCR-GenereCSRF.json', import.meta.url));
    const jwt = JSON.parse(answer.toString()) as string;
    const page = { name: 'token', url: `${base}${TOKEN_PATH}`, body: answer };
    const requests = source.follow!(page, window, { base });
    const url = `${base}${PATH}?IdGrupoVariable=1&FechaInicio=2026-03-02T00:00:00&FechaFin=2026-03-06&CantidadSeriesAMostrar=100`;
    assert.deepEqual(requests, [{ url, headers: { token_csrf: jwt } }]);
    assert.ok(source.accepts(url));
    // A bare token reads the same; anything else is not a token.
    assert.deepEqual(source.follow!({ ...page, body: Buffer.from(`${jwt}\n`), cookie: 'a=1' }, window, { base }), [{ url, headers: { token_csrf: jwt, cookie: 'a=1' } }]);
    assert.throws(() => source.follow!({ ...page, body: Buffer.from('<html>Service Unavailable</html>') }, window, { base }), /not a CSRF token/);
    assert.deepEqual(
      source.follow!(page, { from: '2026-01-01', to: '2026-06-30' }, { base: source.baseUrl }).map((r) => /FechaInicio=([\d-]+).*FechaFin=([\d-]+)/.exec(r.url)!.slice(1).join('..')),
      ['2026-01-01..2026-04-10', '2026-04-11..2026-06-30'],
    );

    const server = await startFeedServer((path, req) =>
      path === TOKEN_PATH
        ? { body: answer, contentType: 'application/json; charset=utf-8' }
        : req.headers.token_csrf === jwt
          ? { body: readFileSync(new URL(FILE, DIR)), contentType: 'application/json; charset=utf-8' }
          : { status: 401, body: '{"mensaje":"token csrf"}' },
    );
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p) as Observation[]), fromFile());
      assert.deepEqual(server.requests.map((r) => r.url), [TOKEN_PATH, url.slice(base.length)]);
    } finally {
      await server.close();
    }
  });
});

describe('BCCR edge cases', () => {
  test('reads the English figures and computes the midpoint exactly', () => {
    assert.deepEqual(fromText(table([DAY])), [{ date: '2026-03-25', quote: 'USD', rate: '465.9', unit: 1, direction: 'direct' }]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => fromText('<!DOCTYPE html><html><head><title>401 - Unauthorized</title></head><body>CSRF token missing</body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    const full = table([DAY]);
    assert.throws(() => fromText(full.slice(0, full.indexOf('indicadoresRaiz') + 40)), /not JSON/);
  });

  test('rejects an empty table, a missing indicator and a missing figure', () => {
    assert.throws(() => fromText(table([])), /holds no rates/);
    assert.throws(() => fromText('{"message":"Unauthorized"}'), /not an indicator table/);
    assert.throws(() => fromText(table([DAY]).replace('"idIndicador":318', '"idIndicador":319')), /no indicator 318/);
    assert.throws(() => fromText(table([DAY]).replace('"serie1Ingles":"463.50"', '"serie1Ingles":""')), /buy on 2026-03-25: not a number/);
  });

  test('rejects a column title that is not an English day', () => {
    assert.throws(() => fromText(table([['serie1', '25 mar 2026', '25 mars 2026', '1', '2']])), /bad column title/);
  });

  test('accepts group 1 of ObtenerDatosCuadro only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts(`https://apim.bccr.fi.cr/SDDE/api${PATH}?IdGrupoVariable=12&FechaFin=2026-03-24`));
    assert.ok(!source.accepts('https://apim.bccr.fi.cr/SDDE/api/Bccr.GE.SDDE.IndicadoresSitioExterno.ServiciosUsuario.API/Token/GenereCSRF'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
