import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fixtureDir } from '../../../test/support/fixtures.js';
import { planBackfill } from '../../ingest/backfill.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { source } from './cbtt.js';

const DIR = fixtureDir('CBTT');
// The recorded payloads (SOURCE.md describes them and is not one).
const FILES = [
  'forex-rate-2026-2026.json',
];
const RECORDED = readFileSync(new URL(FILES[0]!, DIR));
const PATH = '/wp-json/rates/v1/forex-rate';

const parse = (body: string) => source.parse({ name: FILES[0]!, body: Buffer.from(body) });
const all = (): Observation[] => source.parse({ name: FILES[0]!, body: RECORDED });
const on = (obs: Observation[], date: string) => Object.fromEntries(obs.filter((o) => o.date === date).map((o) => [o.quote, o.rate]));
const NULLS = { USD_Buying: null, USD_Selling: null, Euro_Buying: null, Euro_Selling: null };

describe('CBTT recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const names = readdirSync(DIR).sort();
    assert.deepEqual(names.filter((f) => source.accepts(f)), FILES);
  });

  test('2026: 169 trading days of 251 rows, TTD per unit, the exact mean of buying and selling', () => {
    const obs = all();
    assert.equal(obs.length, 169 * 7 + 19);
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'direct'));
    assert.equal(new Set(obs.map((o) => o.date)).size, 169);
    // 2026-01-02: "USD_Buying":"6.7017","USD_Selling":"6.7992" …; CHF had no trades; `Euro` is EUR.
    assert.deepEqual(on(obs, '2026-01-02'), { USD: '6.75045', CAD: '5.125', GBP: '9.395', EUR: '8.18065', BBD: '3.40305', GYD: '0.032', JMD: '0.04185' });
  });

  test('buying above selling is kept as published (USD 6.7559 / 6.7552 on 2026-06-15); CHF only with both legs', () => {
    const obs = all();
    assert.equal(on(obs, '2026-06-15').USD, '6.75555');
    assert.equal(on(obs, '2026-07-14').CAD, '5.31035');
    assert.equal(on(obs, '2026-01-29').CHF, '9.0918');
    // Only one CHF leg on these days (selling, buying): no CHF figure.
    assert.equal(on(obs, '2026-09-08').CHF, undefined);
    assert.equal(on(obs, '2026-09-07').CHF, undefined);
    assert.equal(obs.filter((o) => o.quote === 'CHF').length, 19);
    assert.equal(on(obs, '2026-09-08').USD, '6.75145');
  });

  test('weekends and Trinidad and Tobago holidays are all-null rows: no figure', () => {
    const dates = new Set(all().map((o) => o.date));
    for (const day of ['2026-01-01', '2026-02-16', '2026-02-17', '2026-03-20', '2026-03-30', '2026-04-03', '2026-04-06', '2026-06-04', '2026-06-19', '2026-08-31', '2026-01-03', '2026-09-06']) {
      assert.ok(!dates.has(day), day);
    }
  });
});

describe('CBTT edge cases', () => {
  test('an HTML error page and a truncated payload are ParseErrors', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><body>Service unavailable</body></html>'), ParseError);
    assert.throws(() => source.parse({ name: FILES[0]!, body: RECORDED.subarray(0, RECORDED.length >> 1) }), /is not JSON/);
  });

  test('a span without rows (one all-null object) and a span of holidays only are no publication', () => {
    assert.throws(() => parse(JSON.stringify({ cbttdailyforexrates: { famedate: null, ...NULLS } })), NoPublication);
    assert.throws(() => parse(JSON.stringify({ cbttdailyforexrates: [{ famedate: '2026-01-01', ...NULLS }] })), NoPublication);
  });

  test('rejects an unknown column, a bad date and a bad figure', () => {
    const row = { famedate: '2026-01-02', USD_Buying: '6.7017', USD_Selling: '6.7992' };
    assert.deepEqual(parse(JSON.stringify({ cbttdailyforexrates: [row] })), [{ date: '2026-01-02', quote: 'USD', rate: '6.75045', unit: 1, direction: 'direct' }]);
    assert.throws(() => parse(JSON.stringify({ cbttdailyforexrates: [{ ...row, USD_Middle: '6.75' }] })), /unknown column "USD_Middle"/);
    assert.throws(() => parse(JSON.stringify({ cbttdailyforexrates: [{ ...row, famedate: '02/01/2026' }] })), /bad famedate/);
    assert.throws(() => parse(JSON.stringify({ cbttdailyforexrates: [{ ...row, USD_Selling: 'n/a' }] })), /USD selling on 2026-01-02: not a number/);
    assert.throws(() => parse(JSON.stringify({ rates: [row] })), /no cbttdailyforexrates list/);
  });
});

describe('CBTT requests', () => {
  test('one request for the years of the window; backfill plans one request for decades', () => {
    const ctx = { base: 'http://127.0.0.1:1' };
    assert.deepEqual(source.requests({ from: '2026-09-01', to: '2026-09-08' }, ctx), [{ url: `http://127.0.0.1:1${PATH}/2026-2026` }]);
    assert.deepEqual(source.requests({ from: '1991-01-01', to: '2026-09-08' }, ctx), [{ url: `http://127.0.0.1:1${PATH}/1991-2026` }]);
    assert.ok(source.accepts(`http://127.0.0.1:1${PATH}/1991-2026`));
    assert.ok(!source.accepts('SOURCE.md'));
    const { plans } = planBackfill([source], { from: '1991-01-01', to: '2026-09-08' }, { sourceUrls: { CBTT: 'http://127.0.0.1:1' }, sourceKeys: {} });
    assert.deepEqual(plans.map((p) => [p.requests, p.perDay]), [[1, false]]);
  });

  test('round trip through the local feed server', async () => {
    const server = await startFeedServer({ [`${PATH}/2026-2026`]: { body: RECORDED, contentType: 'application/json; charset=UTF-8' } });
    try {
      const payloads = await fetchSource(source, { from: '2026-09-01', to: '2026-09-08' }, { base: server.url }, createHttpClient({ retries: 0 }));
      assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url}`), [`GET ${PATH}/2026-2026`]);
      assert.equal(payloads.length, 1);
      assert.deepEqual(source.parse(payloads[0]!), all());
    } finally {
      await server.close();
    }
  });
});
