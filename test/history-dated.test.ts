// `date` on /v1/rate, /v1/bank/{code} and POST /v1/rates/convert (D14): the same meaning as
// /v1/{base}/{date}; malformed or future dates are 422.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seed, testApp, type TestApp } from './helpers.js';

describe('date on rate, bank and convert', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await testApp();
    key = (await t.key()).key;
  });
  after(() => t.close());
  const get = async (url: string) => {
    const res = await t.app.inject({ url, headers: { authorization: key } });
    return { res, body: JSON.parse(res.body) as Record<string, unknown> };
  };
  const convert = async (payload: Record<string, unknown>) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/rates/convert', headers: { authorization: key }, payload });
    return { res, body: JSON.parse(res.body) as { rates: Record<string, { rate: number; converted: number; last_update: string }>; missing: string[]; error?: string } };
  };

  test('rate?date= answers the pair of that day, as /v1/{base}/{date} does', async () => {
    const day = (await get('/v1/EUR/2026-03-13')).body as { rates: Record<string, number> };
    const { res, body } = await get('/v1/rate/EUR/USD?date=2026-03-13&amount=10');
    assert.equal(res.statusCode, 200);
    assert.equal(body.rate, day.rates.USD);
    assert.match(String(body.last_update), /^2026-03-13 /);
    const now = (await get('/v1/rate/EUR/USD')).body;
    assert.notEqual(now.last_update, body.last_update);
  });

  test('rate?date= with a defunct currency on a day it was current; 404 when not fresh then', async () => {
    const { res, body } = await get('/v1/rate/USD/PTE?date=1998-12-30');
    assert.equal(res.statusCode, 200);
    assert.ok(Number(body.rate) > 100);
    const late = await get('/v1/rate/USD/PTE?date=2005-06-01');
    assert.equal(late.res.statusCode, 404);
    assert.equal(late.body.error, 'no_fresh_rate');
  });

  test('bank?date= answers the bank\'s own figures of that day, a Saturday the Friday ones', async () => {
    const ecb = seed().sources.find((s) => s.source === 'ECBF')!.rows.filter((r) => r[0] === '2026-03-13');
    for (const date of ['2026-03-13', '2026-03-14']) {
      const { res, body } = await get(`/v1/bank/ECBF?date=${date}&format=full&reciprocal=true`);
      assert.equal(res.statusCode, 200, date);
      const rows = body.rates as { currency: string; rate: number; bank_update: string }[];
      assert.equal(rows.length, ecb.length);
      for (const r of ecb) {
        const row = rows.find((x) => x.currency === r[1])!;
        assert.equal(String(row.rate), String(Number(r[2])), `${date} ${r[1]}`);
        assert.match(row.bank_update, /^2026-03-13 /);
      }
    }
    const before = await get('/v1/bank/ECBF?date=1990-01-02');
    assert.equal(before.res.statusCode, 404);
    assert.equal(before.body.error, 'no_fresh_rate');
  });

  test('convert with a date converts at that day\'s rates', async () => {
    const { res, body } = await convert({ base: 'EUR', amount: 100, targets: ['USD', 'DEM', 'XYZ'], date: '2026-03-13' });
    assert.equal(res.statusCode, 200);
    const pair = (await get('/v1/rate/EUR/USD?date=2026-03-13')).body;
    assert.equal(body.rates.USD!.rate, pair.rate);
    assert.match(body.rates.USD!.last_update, /^2026-03-13 /);
    assert.deepEqual(body.missing, ['DEM', 'XYZ']);
    const old = await convert({ base: 'USD', targets: ['PTE', 'DEM'], date: '1998-12-30' });
    assert.equal(old.res.statusCode, 200);
    assert.ok(old.body.rates.PTE!.rate > 100);
  });

  test('malformed and future dates are 422 on every dated endpoint, and cost nothing', async () => {
    for (const date of ['2026-04-15', '2026-13-01', 'today', '']) {
      for (const url of [`/v1/rate/EUR/USD?date=${date}`, `/v1/bank/ECBF?date=${date}`]) {
        const { res, body } = await get(url);
        assert.equal(res.statusCode, 422, url);
        assert.equal(body.error, 'invalid_parameter');
        assert.equal(res.headers['x-points-cost'], '0');
      }
      const c = await convert({ base: 'EUR', targets: ['USD'], date });
      assert.equal(c.res.statusCode, 422, `convert ${date}`);
      assert.equal(c.body.error, 'invalid_body');
    }
  });
});
