import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './bdem.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BDEM');
const FILE = 'sie-series-SF43718-SF46410-SF46407-SF46406-SF60632-2026-03-01_2026-03-15.json';

const NAME = 'https://www.banxico.org.mx/SieAPIRest/service/v1/series/SF43718,SF46410,SF46407,SF46406,SF60632/datos/2026-03-02/2026-03-06';
const parse = (body: string) => source.parse({ name: NAME, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote)?.rate;
const dates = (obs: Observation[]) => [...new Set(obs.map((o) => o.date))];

describe('BDEM recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('two weeks of FIX and four other currencies, MXN per 1 unit', () => {
    const obs = parseFile(FILE);
    assert.deepEqual(dates(obs), ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13']);
    assert.equal(obs.length, 50);
    assert.deepEqual([...new Set(obs.map((o) => o.quote))].sort(), ['CAD', 'EUR', 'GBP', 'JPY', 'USD']);
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'direct'));
    assert.equal(rate(obs, '2026-03-02', 'USD'), '17.3485');
    // Published as the string "17.6770": the trailing zero is kept.
    assert.equal(rate(obs, '2026-03-05', 'USD'), '17.6770');
    assert.equal(rate(obs, '2026-03-13', 'USD'), '17.9218');
    assert.equal(rate(obs, '2026-03-02', 'JPY'), '0.1105');
    assert.equal(rate(obs, '2026-03-02', 'EUR'), '20.3541');
    assert.equal(rate(obs, '2026-03-03', 'GBP'), '23.5580');
    assert.equal(rate(obs, '2026-03-06', 'CAD'), '13.0787');
  });
});

describe('BDEM edge cases', () => {
  const series = (id: string, datos: string) => `{"idSerie":"${id}","titulo":"Tipo de cambio   Pesos por dólar E.U.A.",${datos}}`;
  const bmx = (...s: string[]) => `{"bmx":{"series":[${s.join(',')}]}}`;

  test('skips N/E days, series without datos and series it does not map', () => {
    const obs = parse(bmx(
      series('SF43718', '"datos":[{"fecha":"06/03/2026","dato":"17.7962"},{"fecha":"09/03/2026","dato":"N/E"}]'),
      series('SF46410', '"x":0'),
      series('SF60653', '"datos":[{"fecha":"06/03/2026","dato":"17.5100"}]'),
    ));
    assert.deepEqual(obs, [{ date: '2026-03-06', quote: 'USD', rate: '17.7962', unit: 1, direction: 'direct' }]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<html><head><title>Error 503 - Service Unavailable</title></head><body>Banco de México</body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    const full = bmx(series('SF43718', '"datos":[{"fecha":"06/03/2026","dato":"17.7962"}]'));
    assert.throws(() => parse(full.slice(0, -30)), /not JSON/);
  });

  test('rejects an empty table, an API error and a range of N/E only', () => {
    assert.throws(() => parse(bmx()), /holds no rates/);
    assert.throws(() => parse(bmx(series('SF43718', '"datos":[{"fecha":"07/03/2026","dato":"N/E"}]'))), /holds no rates/);
    assert.throws(() => parse('{"error":{"mensaje":"Token inválido","detalle":"El token no es válido"}}'), /Token inválido/);
    assert.throws(() => parse('{"bmx":{}}'), /no bmx.series/);
  });

  test('a range without a figure (N/E, no datos) is no publication; no series, or others only, is a fault', () => {
    assert.throws(() => parse(bmx(series('SF43718', '"datos":[{"fecha":"07/03/2026","dato":"N/E"}]'), series('SF46410', '"x":0'))), NoPublication);
    const fault = (err: unknown) => err instanceof ParseError && !(err instanceof NoPublication);
    assert.throws(() => parse(bmx()), fault);
    assert.throws(() => parse(bmx(series('SF60653', '"datos":[{"fecha":"06/03/2026","dato":"17.5100"}]'))), fault);
  });

  test('rejects bad dates and values', () => {
    assert.throws(() => parse(bmx(series('SF43718', '"datos":[{"fecha":"2026-03-06","dato":"17.7962"}]'))), /bad fecha/);
    assert.throws(() => parse(bmx(series('SF43718', '"datos":[{"fecha":"06/03/2026","dato":"17,79x"}]'))), /bad dato/);
  });

  test('accepts the SIE series feed only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts(NAME));
    assert.ok(!source.accepts('https://www.banxico.org.mx/SieAPIRest/service/v1/doc/catalogoSeries'));
    assert.ok(!source.accepts('SOURCE.md'));
  });

  test('builds one request for the five series with the token in Bmx-Token', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/series/SF43718,SF46410,SF46407,SF46406,SF60632/datos/2026-03-02/2026-03-06', headers: { 'Bmx-Token': 'k' } }]);
    assert.ok(requests.every((r) => source.accepts(r.url)));
  });
});

describe('BDEM round trip through the local feed server', () => {
  test('sends the token and reads the served payload like the recorded file', async () => {
    const path = '/series/SF43718,SF46410,SF46407,SF46406,SF60632/datos/2026-03-01/2026-03-15';
    const server = await startFeedServer({ [path]: { body: readFileSync(new URL(FILE, DIR)), contentType: 'application/json' } });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-01', to: '2026-03-15' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 1);
      assert.equal(server.requests[0]?.url, path);
      assert.equal(server.requests[0]?.headers['bmx-token'], 'k');
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILE));
    } finally {
      await server.close();
    }
  });
});
