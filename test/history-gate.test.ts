// While the bundled seed's history is still loading (a first start), dated and range requests are
// 503 `unavailable` with Retry-After and cost nothing; undated ones are served. Once the rows are
// in, a bank's figures answer, and a blended day or range as soon as History has each of its days
// (issue 26: a day not materialised yet answered a wrong 404); once settled, everything answers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HISTORY_RETRY_SECONDS } from '../src/http/history-gate.js';
import { HistoryReadiness } from '../src/ingest/seed-history.js';
import { testApp, type TestApp } from './helpers.js';

const DATED = [
  { method: 'GET' as const, url: '/v1/EUR/2026-04-10' },
  { method: 'GET' as const, url: '/v1/rate/EUR/USD?date=2026-04-10' },
  { method: 'GET' as const, url: '/v1/bank/ECBF?date=2026-04-10' },
  { method: 'GET' as const, url: '/v1/timeseries/EUR?start=2026-04-01&end=2026-04-10&symbols=USD' },
  { method: 'GET' as const, url: '/v1/fluctuation/EUR?start=2026-04-01&end=2026-04-10&symbols=USD' },
  { method: 'GET' as const, url: '/v1/bank/ECBF/timeseries?start=2026-04-01&end=2026-04-10' },
  { method: 'POST' as const, url: '/v1/rates/convert', payload: { base: 'EUR', amount: 10, targets: ['USD'], date: '2026-04-10' } },
];

describe('dated requests while the seed history loads', () => {
  let t: TestApp;
  let key: string;
  const readiness = new HistoryReadiness();
  before(async () => {
    t = await testApp({ history: true, historyLoaded: readiness });
    key = (await t.key()).key;
  });
  after(() => t.close());
  const send = (r: (typeof DATED)[number]) => t.app.inject({ method: r.method, url: r.url, headers: { authorization: key }, ...('payload' in r ? { payload: r.payload } : {}) });

  test('every dated or range request is 503 unavailable with Retry-After, and free', async () => {
    for (const r of DATED) {
      const res = await send(r);
      assert.equal(res.statusCode, 503, `${r.method} ${r.url}: ${res.body}`);
      assert.equal(res.json().error, 'unavailable', r.url);
      assert.match(res.json().message, /history is still loading/, r.url);
      assert.equal(res.headers['retry-after'], String(HISTORY_RETRY_SECONDS), r.url);
      assert.equal(res.headers['x-points-cost'], '0', r.url);
    }
  });

  test('undated requests are served meanwhile, and bad input is still 422 first', async () => {
    const latest = await t.app.inject({ url: '/v1/EUR/latest', headers: { authorization: key } });
    assert.equal(latest.statusCode, 200);
    assert.equal(latest.json().rates.EUR, 1);
    const bad = await t.app.inject({ url: '/v1/rate/EUR/USD?date=2026-02-30', headers: { authorization: key } });
    assert.equal(bad.statusCode, 422);
  });

  test("once the rows are in, a bank's figures answer, and a blended day or range only where History has every day", async () => {
    readiness.markLoaded();
    const bank = await send(DATED[2]!);
    assert.equal(bank.statusCode, 200, bank.body);
    // ECB's figures of that day: its last publication on or before 2026-04-10.
    assert.match(bank.json().meta.last_update, /^2026-04-(0\d|10) /, bank.body);
    assert.ok(Number(bank.json().rates.USD) > 0, bank.body);
    assert.equal((await send(DATED[5]!)).statusCode, 200);
    // Materialised through the app's today: these days are ready, so they answer (the same as below).
    const day = await send(DATED[0]!);
    assert.equal(day.statusCode, 200, day.body);
    // A snapshot touching 2026-04-10 that History has not materialised yet: that day waits, and so
    // does every range over it; a day the snapshot cannot reach still answers.
    const rows = [{ quote: 'USD', date: '2026-04-10', rate: '1.2000', direction: 'direct' as const, unit: 1, table: '' }];
    await t.store.storeSnapshot({ source: 'ECBF', name: 'late.xml', sha256: 'f'.repeat(64), rows, at: '2026-04-14T12:00:00.000Z' });
    await t.history!.sync();
    for (const r of [DATED[0]!, DATED[1]!, DATED[3]!, DATED[4]!, DATED[6]!]) {
      const res = await send(r);
      assert.equal(res.statusCode, 503, `${r.method} ${r.url}: ${res.body}`);
      assert.equal(res.headers['retry-after'], String(HISTORY_RETRY_SECONDS), r.url);
      assert.equal(res.headers['x-points-cost'], '0', r.url);
    }
    const early = await send({ method: 'GET', url: '/v1/EUR/2026-03-01' });
    assert.equal(early.statusCode, 200, early.body);
    assert.equal(early.json().date, '2026-03-01');
    await t.history!.materialise('2026-04-14');
    const after = await send(DATED[0]!);
    assert.equal(after.statusCode, 200, after.body);
    assert.notDeepEqual(after.json().rates, day.json().rates, 'the late figure is in the answer');
  });

  test('once settled, the same requests answer from history', async () => {
    readiness.markSettled();
    for (const r of DATED) {
      const res = await send(r);
      assert.equal(res.statusCode, 200, `${r.method} ${r.url}: ${res.body.slice(0, 200)}`);
      assert.equal(res.headers['x-points-cost'], '1', r.url);
    }
    assert.equal((await send(DATED[0]!)).json().date, '2026-04-10');
  });
});
