// BCCU, Banco Central de Cuba: grade A (complete VCR recordings, SOURCES-2.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './bccu.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BCCU');
const file = (ccy: string) => `bcc-historico-${ccy}-2026-05-19_2026-05-22.json`;
const read = (ccy: string) => source.parse({ name: file(ccy), body: readFileSync(new URL(file(ccy), DIR)) }) as Observation[];
const LIVE = 'https://api.bc.gob.cu/v1/tasas-de-cambio/historico?codigoMoneda=EUR&fechaInicio=2026-05-19&fechaFin=2026-05-22';
const parseLive = (text: string, name = LIVE) => source.parse({ name, body: Buffer.from(text) }) as Observation[];
const DAYS = ['2026-05-19', '2026-05-20', '2026-05-21', '2026-05-22'];

describe('BCCU recorded payloads', () => {
  test('every recorded file but SOURCE.md is accepted', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), ['CNY', 'EUR', 'JPY', 'RUB', 'USD'].map(file));
  });

  test('each file is one currency over four days, taken from tasaEspecial', () => {
    for (const ccy of ['CNY', 'EUR', 'JPY', 'RUB', 'USD']) {
      const obs = read(ccy);
      assert.deepEqual(obs.map((o) => o.date), DAYS, ccy);
      assert.ok(obs.every((o) => o.quote === ccy && o.unit === 1), ccy);
    }
    assert.deepEqual(read('USD').map((o) => o.rate), ['502', '507', '507', '507']);
    assert.deepEqual(read('EUR').map((o) => o.rate), ['584.5288', '588.6777', '589.26075', '589.134']);
    assert.equal(read('CNY')[3]!.rate, '74.5243');
    assert.equal(read('RUB')[1]!.rate, '7.12079');
  });

  test('CUP per unit, except the yen, which is JPY per CUP', () => {
    for (const ccy of ['CNY', 'EUR', 'RUB', 'USD']) assert.ok(read(ccy).every((o) => o.direction === 'direct'), ccy);
    const jpy = read('JPY');
    assert.ok(jpy.every((o) => o.direction === 'indirect'));
    assert.deepEqual(jpy.map((o) => o.rate), ['0.31668', '0.31348', '0.31337', '0.31355']);
  });

  test('requests one history call per currency and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.equal(requests.length, 13);
    assert.deepEqual(requests[0], { url: 'http://127.0.0.1:1/v1/tasas-de-cambio/historico?codigoMoneda=AUD&fechaInicio=2026-03-02&fechaFin=2026-03-06' });
    assert.deepEqual(requests.map((r) => /codigoMoneda=(\w+)/.exec(r.url)![1]), 'AUD CAD CHF CNY DKK EUR GBP JPY MXN NOK RUB SEK USD'.split(' '));
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const body = readFileSync(new URL(file('JPY'), DIR));
    const server = await startFeedServer((u) => (u === '/v1/tasas-de-cambio/historico?codigoMoneda=JPY&fechaInicio=2026-03-02&fechaFin=2026-03-06' ? { body, contentType: 'application/json; charset=utf-8' } : { body: '[]' }));
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 13);
      const jpy = payloads.find((p) => p.name.includes('codigoMoneda=JPY'))!;
      assert.deepEqual(source.parse(jpy), read('JPY'));
      // The other 12 got an empty list: a range without rates is not a success.
      assert.throws(() => source.parse(payloads[0]!), /holds no rates/);
    } finally {
      await server.close();
    }
  });
});

describe('BCCU edge cases', () => {
  const DAY = '{"fecha":"2026-05-19","tasaOficial":27.9456,"tasaPublica":139.728,"tasaEspecial":584.5280}';

  test('keeps the trailing zeros of the JSON numbers', () => {
    assert.deepEqual(parseLive(`[${DAY}]`), [{ date: '2026-05-19', quote: 'EUR', rate: '584.5280', unit: 1, direction: 'direct' }]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parseLive('<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    assert.throws(() => parseLive(`[${DAY},{"fecha":"2026-05-20","tasaOfi`), /not JSON/);
  });

  test('rejects an empty list, an error object and a day without tasaEspecial', () => {
    assert.throws(() => parseLive('[]'), /holds no rates/);
    assert.throws(() => parseLive('{"statusCode":400,"message":"codigoMoneda es requerido"}'), /not an array of days/);
    assert.throws(() => parseLive('[{"fecha":"2026-05-19","tasaOficial":24,"tasaPublica":120,"tasaEspecial":null}]'), /EUR tasaEspecial on 2026-05-19: no rate/);
    assert.throws(() => parseLive(`[${DAY.replace('2026-05-19', '19/05/2026')}]`), /bad EUR fecha/);
  });

  test('needs the currency from the request', () => {
    assert.throws(() => parseLive(`[${DAY}]`, 'https://api.bc.gob.cu/v1/tasas-de-cambio/activas'), /currency is only in the request/);
    assert.ok(!source.accepts('https://api.bc.gob.cu/v1/tasas-de-cambio/activas'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
