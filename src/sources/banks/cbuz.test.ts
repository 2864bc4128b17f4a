import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './cbuz.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('CBUZ');
const FILES = ['json-all-2026-04-01.json', 'json-all-2026-04-02.json'];

const parse = (body: string) => source.parse({ name: 'en/arkhiv-kursov-valyut/json/all/2026-04-02/', body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const quoted = (obs: Observation[], quote: string) => {
  const o = obs.find((x) => x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};

const CCY = ('AED AFN AMD ARS AUD AZN BDT BGN BHD BND BRL BYN CAD CHF CNY CUP CZK DKK DZD EGP EUR GBP GEL HKD HUF IDR ILS INR IQD IRR ' +
  'ISK JOD JPY KGS KHR KRW KWD KZT LAK LBP LYD MAD MDL MMK MNT MXN MYR NOK NZD OMR PHP PKR PLN QAR RON RSD RUB SAR SDG SEK ' +
  'SGD SYP THB TJS TMT TND TRY UAH USD UYU VES VND XDR YER ZAR').split(' ');

describe('CBUZ recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), FILES);
  });

  test('rates valid on 2026-04-01: 75 currencies, IDR, IRR and VND per 10', () => {
    const obs = parseFile('json-all-2026-04-01.json');
    assert.ok(obs.every((o) => o.date === '2026-04-01' && o.direction === 'direct'));
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY);
    assert.deepEqual(obs.filter((o) => o.unit !== 1).map((o) => `${o.quote}/${o.unit}`).sort(), ['IDR/10', 'IRR/10', 'VND/10']);
    assert.equal(quoted(obs, 'USD'), '12194.21/1');
    assert.equal(quoted(obs, 'EUR'), '13984.32/1');
    assert.equal(quoted(obs, 'RUB'), '149.97/1');
    assert.equal(quoted(obs, 'IDR'), '7.18/10');
    assert.equal(quoted(obs, 'IRR'), '0.09/10');
    assert.equal(quoted(obs, 'VND'), '4.63/10');
    assert.equal(quoted(obs, 'XDR'), '16557.42/1');
    assert.equal(quoted(obs, 'BGN'), '7323.85/1');
  });

  test('rates valid on 2026-04-02: the same 75, published digits kept', () => {
    const obs = parseFile('json-all-2026-04-02.json');
    assert.ok(obs.every((o) => o.date === '2026-04-02'));
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY);
    assert.equal(quoted(obs, 'USD'), '12142.10/1');
    assert.equal(quoted(obs, 'EUR'), '14079.98/1');
    assert.equal(quoted(obs, 'JPY'), '76.50/1');
    assert.equal(quoted(obs, 'KRW'), '8.06/1');
    assert.equal(quoted(obs, 'IDR'), '7.15/10');
    assert.equal(quoted(obs, 'XDR'), '16469.42/1');
  });
});

describe('CBUZ edge cases', () => {
  const entry = (ccy: string, nominal: string, rate: string, date = '02.04.2026') =>
    `{"id":69,"Code":"840","Ccy":"${ccy}","CcyNm_RU":"\\u0414\\u043e\\u043b\\u043b\\u0430\\u0440 \\u0421\\u0428\\u0410","CcyNm_UZ":"AQSH dollari","CcyNm_UZC":"x","CcyNm_EN":"US Dollar","Nominal":"${nominal}","Rate":"${rate}","Diff":"-52.11","Date":"${date}"}`;

  test('reads nominal and rate as published', () => {
    assert.deepEqual(parse(`[${entry('USD', '1', '12142.10')},${entry('IDR', '10', '7.15')}]`), [
      { date: '2026-04-02', quote: 'USD', rate: '12142.10', unit: 1, direction: 'direct' },
      { date: '2026-04-02', quote: 'IDR', rate: '7.15', unit: 10, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html lang="en"><head><title>404 - Page not found</title></head><body></body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    const full = `[${entry('USD', '1', '12142.10')},${entry('EUR', '1', '14079.98')}]`;
    assert.throws(() => parse(full.slice(0, full.lastIndexOf('"Rate"'))), /not JSON/);
  });

  test('rejects an empty table and malformed entries', () => {
    assert.throws(() => parse('[]'), /holds no rates/);
    assert.throws(() => parse('{"error":"not found"}'), /not an array/);
    assert.throws(() => parse(`[${entry('USD', '0', '12142.10')}]`), /bad USD Nominal/);
    assert.throws(() => parse(`[${entry('USD', '1', '12,142.10')}]`), /bad USD Rate/);
    assert.throws(() => parse(`[${entry('USD', '1', '12142.10', '2026-04-02')}]`), /bad Date/);
  });

  test('accepts the JSON archive only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://cbu.uz/en/arkhiv-kursov-valyut/json/USD/2026-04-02/'));
    assert.ok(!source.accepts('https://cbu.uz/en/arkhiv-kursov-valyut/xml/'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('CBUZ requests', () => {
  test('one GET per calendar day of the window', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests.map((r) => r.url), ['02', '03', '04', '05', '06'].map((d) => `http://127.0.0.1:1/en/arkhiv-kursov-valyut/json/all/2026-03-${d}/`));
    assert.ok(requests.every((r) => source.accepts(r.name ?? r.url) && r.method === undefined));
    assert.equal(source.requests({ from: '2026-02-27', to: '2026-03-02' }, { base: 'http://h' }).length, 4);
  });

  test('round trip through the local feed server', async () => {
    const [first, second] = FILES.map((f) => readFileSync(new URL(f, DIR)));
    // Recorded replies served under the window's dates (2 March gets 1 April's, the rest 2 April's).
    const server = await startFeedServer((path) =>
      path.startsWith('/en/arkhiv-kursov-valyut/json/all/2026-03-') ? { body: path.endsWith('-02/') ? first! : second!, contentType: 'application/json' } : undefined,
    );
    try {
      const window = { from: '2026-03-02', to: '2026-03-06' };
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 5);
      assert.equal(server.requests[0]!.url, '/en/arkhiv-kursov-valyut/json/all/2026-03-02/');
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILES[0]!));
      assert.deepEqual(source.parse(payloads[4]!), parseFile(FILES[1]!));
    } finally {
      await server.close();
    }
  });
});
