// GET /v1/{base}/{date} (D14) on the bundled seed: dates, weekends, freshness then, defunct
// currencies, 404/422, amount and points.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seed, testApp, type TestApp } from './helpers.js';

interface DayBody {
  code: number;
  base: string;
  date: string;
  rates: Record<string, number>;
  error?: string;
}

describe('GET /v1/{base}/{date}', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await testApp();
    key = (await t.key()).key;
  });
  after(() => t.close());
  const get = async (url: string, k = key) => {
    const res = await t.app.inject({ url, headers: { authorization: k } });
    return { res, body: JSON.parse(res.body) as DayBody };
  };

  test('answers the blended rates of the day, with base and date, close to the ECB figure', async () => {
    const { res, body } = await get('/v1/eur/2026-04-10');
    assert.equal(res.statusCode, 200);
    assert.equal(body.base, 'EUR');
    assert.equal(body.date, '2026-04-10');
    assert.equal(body.rates.EUR, 1);
    const ecb = seed().sources.find((s) => s.source === 'ECBF')!.rows.find((r) => r[0] === '2026-04-10' && r[1] === 'USD')!;
    const ecbUsdPerEur = Number(ecb[2]);
    assert.ok(Math.abs(body.rates.USD! / ecbUsdPerEur - 1) < 0.005, `${body.rates.USD} vs ECB ${ecbUsdPerEur}`);
    assert.equal(res.headers['x-points-cost'], '1');
    assert.match(String(res.headers['last-modified']), /Apr 2026/);
  });

  test('a Saturday answers the Friday figures', async () => {
    const friday = (await get('/v1/USD/2026-04-10')).body;
    const saturday = (await get('/v1/USD/2026-04-11')).body;
    assert.ok(Object.keys(saturday.rates).length > 10);
    for (const [code, rate] of Object.entries(saturday.rates)) assert.equal(rate, friday.rates[code], code);
    assert.equal(saturday.rates.EUR, friday.rates.EUR);
  });

  test('a currency appears only while fresh on the day (D10 measured from the day)', async () => {
    // The seed's Serbian figures are of 2015-12-31 only: fresh four days later, gone after.
    const within = await get('/v1/USD/2016-01-04');
    assert.equal(within.res.statusCode, 200);
    assert.ok(within.body.rates.RSD! > 50, `RSD ${within.body.rates.RSD}`);
    const later = await get('/v1/USD/2016-01-20');
    assert.equal(later.res.statusCode, 404);
    assert.equal(later.body.error, 'no_fresh_rate');
  });

  test('defunct currencies appear on days they were current', async () => {
    const { res, body } = await get('/v1/USD/1998-12-30');
    assert.equal(res.statusCode, 200);
    assert.ok(body.rates.PTE! > 100, `PTE ${body.rates.PTE}`);
    assert.ok(body.rates.DEM! > 1, `DEM ${body.rates.DEM}`);
    const pte = await get('/v1/PTE/1998-12-30');
    assert.equal(pte.res.statusCode, 200);
    assert.equal(pte.body.rates.PTE, 1);
  });

  test('a day before any data is 404; future and malformed dates are 422 naming date', async () => {
    const early = await get('/v1/USD/1980-01-02');
    assert.equal(early.res.statusCode, 404);
    assert.equal(early.body.error, 'no_fresh_rate');
    for (const date of ['2026-04-15', '2026-02-30', '20260410', '2026-4-10']) {
      const { res, body } = await get(`/v1/USD/${date}`);
      assert.equal(res.statusCode, 422, date);
      assert.equal(body.error, 'invalid_parameter');
      assert.match(JSON.stringify(body), /"field":"date"/);
      assert.equal(res.headers['x-points-cost'], '0');
    }
    assert.equal((await get('/v1/XYZ/2026-04-10')).res.statusCode, 422);
  });

  test('amount gives rate and converted per currency', async () => {
    const res = await t.app.inject({ url: '/v1/EUR/2026-04-10?amount=100', headers: { authorization: key } });
    const body = JSON.parse(res.body) as { rates: Record<string, { rate: number; converted: number }> };
    assert.equal(res.statusCode, 200);
    assert.equal(body.rates.EUR!.converted, 100);
    assert.ok(Math.abs(body.rates.USD!.converted - body.rates.USD!.rate * 100) < 1e-6);
  });

  test('the starter plan includes history', async () => {
    const starter = (await t.key({ plan: 'starter', points: 5 })).key;
    const { res } = await get('/v1/USD/2026-04-10', starter);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-points-remaining'], '4');
  });
});
