// Nepal Rastra Bank. Recorded payload grade C (SOURCES-2.md): a real body in a hand-assembled
// cassette, its figures corroborated against ECB crosses.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './nrbl.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('NRBL');
const FILE = 'nrb-forex-v1-rates-2026-04-01_2026-04-05.json';
const API = 'https://www.nrb.org.np/api/forex/v1/rates?from=2026-04-01&to=2026-04-01&per_page=100&page=1';

const parse = (body: string) => source.parse({ name: API, body: Buffer.from(body) }) as Observation[];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const at = (obs: Observation[], date: string, quote: string) => {
  const o = obs.find((x) => x.date === date && x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};

const CCY = 'AED AUD BHD CAD CHF CNY DKK EUR GBP HKD INR JPY KRW KWD MYR OMR QAR SAR SEK SGD THB USD'.split(' ');

describe('NRBL recorded payload', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('1-5 April 2026: every calendar day, 22 currencies, midpoints of buy and sell', () => {
    const obs = parseFile(FILE);
    assert.deepEqual([...new Set(obs.map((o) => o.date))], ['2026-04-01', '2026-04-02', '2026-04-03', '2026-04-04', '2026-04-05']);
    assert.equal(obs.length, 5 * 22);
    assert.deepEqual(obs.filter((o) => o.date === '2026-04-05').map((o) => o.quote).sort(), CCY);
    assert.ok(obs.every((o) => o.direction === 'direct' && o.table === undefined));
    assert.deepEqual([...new Set(obs.filter((o) => o.unit !== 1).map((o) => `${o.quote}/${o.unit}`))].sort(), ['INR/100', 'JPY/10', 'KRW/100']);
    // 160.00 / 160.15 per 100 INR, the peg's spread.
    assert.equal(at(obs, '2026-04-01', 'INR'), '160.075/100');
    // 151.44 / 152.04
    assert.equal(at(obs, '2026-04-01', 'USD'), '151.74/1');
    // 9.49 / 9.53 per 10 JPY
    assert.equal(at(obs, '2026-04-01', 'JPY'), '9.51/10');
    // 10.06 / 10.10 per 100 KRW
    assert.equal(at(obs, '2026-04-02', 'KRW'), '10.08/100');
    // 493.37 / 495.32
    assert.equal(at(obs, '2026-04-01', 'KWD'), '494.345/1');
    // 484.50 / 486.46: the weekend repeats Friday's figures.
    assert.equal(at(obs, '2026-04-04', 'KWD'), '485.48/1');
    assert.equal(at(obs, '2026-04-05', 'KWD'), '485.48/1');
    // 171.62 / 172.31
    assert.equal(at(obs, '2026-04-05', 'EUR'), '171.965/1');
  });
});

describe('NRBL edge cases', () => {
  const body = (days: string) =>
    `{"status":{"code":200},"errors":{"validation":null},"params":{"from":"2026-04-01","to":"2026-04-01"},"data":{"payload":[${days}]},"pagination":{"page":1,"pages":1,"per_page":100,"total":1}}`;
  const DAY = '{"date":"2026-04-01","published_on":"2026-04-01 00:00:13","modified_on":"2026-03-31 17:18:39","rates":[{"currency":{"iso3":"USD","name":"U.S. Dollar","unit":1},"buy":"151.44","sell":"152.04"},{"currency":{"iso3":"JPY","name":"Japanese Yen","unit":10},"buy":"9.50","sell":"9.54"}]}';

  test('reads a day, keeping the unit and the exact midpoint', () => {
    assert.deepEqual(parse(body(DAY)), [
      { date: '2026-04-01', quote: 'USD', rate: '151.74', unit: 1, direction: 'direct' },
      { date: '2026-04-01', quote: 'JPY', rate: '9.52', unit: 10, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head><body></body></html>'), /not JSON/);
  });

  test('rejects a truncated payload', () => {
    const whole = body(DAY);
    assert.throws(() => parse(whole.slice(0, whole.indexOf('"JPY"'))), /not JSON/);
  });

  test('rejects an empty answer, a day without rates and refused queries', () => {
    assert.throws(() => parse(body('')), /holds no rates/);
    assert.throws(() => parse(body('{"date":"2026-04-01","rates":[]}')), /2026-04-01 has no rates/);
    assert.throws(() => parse('{"status":{"code":422},"errors":{"validation":{"to":["invalid"]}},"data":null}'), /status 422/);
    assert.throws(() => parse(body(DAY).replace('"validation":null', '"validation":{"from":["required"]}')), /reports/);
  });

  test('rejects bad rows', () => {
    assert.throws(() => parse(body(DAY.replace('"buy":"151.44"', '"buy":"-"'))), /USD on 2026-04-01 buy: not a number/);
    assert.throws(() => parse(body(DAY.replace('"unit":10', '"unit":0'))), /bad unit/);
    assert.throws(() => parse(body(DAY.replace('"iso3":"USD"', '"iso3":"U.S."'))), ParseError);
    assert.throws(() => parse(body(DAY.replace('"date":"2026-04-01"', '"date":"01/04/2026"'))), /bad date/);
  });

  test('accepts the forex API only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts(API));
    assert.ok(!source.accepts('https://www.nrb.org.np/forex/'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('NRBL requests', () => {
  test('one page per 100 days of the window', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/api/forex/v1/rates?from=2026-03-02&to=2026-03-06&per_page=100&page=1' }]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url));
    const year = source.requests({ from: '2025-01-01', to: '2025-12-31' }, { base: source.baseUrl }).map((r) => r.url.split('?')[1]);
    assert.deepEqual(year, [
      'from=2025-01-01&to=2025-04-10&per_page=100&page=1',
      'from=2025-04-11&to=2025-07-19&per_page=100&page=1',
      'from=2025-07-20&to=2025-10-27&per_page=100&page=1',
      'from=2025-10-28&to=2025-12-31&per_page=100&page=1',
    ]);
  });

  test('round trip through a local feed server', async () => {
    const server = await startFeedServer({ '/api/forex/v1/rates': { body: readFileSync(new URL(FILE, DIR)), contentType: 'application/json' } });
    try {
      const payloads = await fetchSource(source, { from: '2026-04-01', to: '2026-04-05' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 1);
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILE));
      assert.deepEqual(server.requests.map((r) => r.url), ['/api/forex/v1/rates?from=2026-04-01&to=2026-04-05&per_page=100&page=1']);
    } finally {
      await server.close();
    }
  });
});
