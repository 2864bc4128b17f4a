import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Decimal } from '../src/money/decimal.js';
import type { TestApp } from './helpers.js';
import { NEWEST_PUBLICATION, datasetApp } from './support/dataset.js';

describe('POST /v1/rates/convert, on the written test dataset', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await datasetApp();
    ({ key } = await t.key({ plan: 'business', points: 10_000 }));
  });
  after(() => t.close());
  const post = (payload: unknown, contentType = 'application/json') =>
    t.app.inject({
      method: 'POST',
      url: '/v1/rates/convert',
      headers: { authorization: key, 'content-type': contentType },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  test('converts to each fresh target with rate, converted and last_update', async () => {
    const res = await post({ base: 'eur', amount: '1234.56', targets: ['usd', 'JPY', 'CHF'] });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(Object.keys(body), ['code', 'message', 'base', 'amount', 'rates', 'missing']);
    assert.equal(body.base, 'EUR');
    assert.equal(body.amount, 1234.56);
    assert.deepEqual(Object.keys(body.rates), ['USD', 'JPY', 'CHF']);
    assert.deepEqual(body.missing, []);
    for (const v of Object.values(body.rates as Record<string, { rate: number; converted: number; last_update: string }>)) {
      assert.deepEqual(Object.keys(v), ['rate', 'converted', 'last_update']);
      assert.equal(String(v.converted), new Decimal('1234.56').times(String(v.rate)).toDecimalPlaces(6).toString());
      assert.equal(v.last_update, NEWEST_PUBLICATION);
    }
    const pair = await t.app.inject({ method: 'GET', url: '/v1/rate/EUR/USD', headers: { authorization: key } });
    assert.equal(body.rates.USD.rate, pair.json().rate);
  });

  test('unknown and stale targets land in missing, as sent upper-cased, in order, once', async () => {
    const body = (await post({ base: 'EUR', amount: 2, targets: ['xyz', 'USD', 'AFN', 'usd', 'XYZ', 'hrk'] })).json();
    assert.deepEqual(Object.keys(body.rates), ['USD']);
    assert.deepEqual(body.missing, ['XYZ', 'AFN', 'HRK']);
    assert.equal(body.amount, 2);
  });

  test('amount defaults to 1 and may be a JSON number or a numeric string', async () => {
    assert.equal((await post({ base: 'EUR', targets: ['USD'] })).json().amount, 1);
    assert.equal((await post({ base: 'EUR', amount: 0.1, targets: ['USD'] })).json().amount, 0.1);
    assert.equal((await post({ base: 'EUR', amount: '1e3', targets: ['USD'] })).json().amount, 1000);
  });

  const invalid = async (payload: unknown, field: string, contentType?: string) => {
    const res = await post(payload, contentType);
    assert.equal(res.statusCode, 422, JSON.stringify(payload));
    const body = res.json();
    assert.equal(body.error, 'invalid_body');
    assert.ok(body.details.some((d: { field: string }) => d.field === field), `${JSON.stringify(body)} does not name ${field}`);
    assert.equal(res.headers['x-points-cost'], '0');
  };

  test('bad amounts are 422 naming amount', async () => {
    for (const amount of [0, -1, 'abc', '', '1e999', true, null, [1], { v: 1 }]) await invalid({ base: 'EUR', amount, targets: ['USD'] }, 'amount');
  });

  test('targets empty, too long, not an array or holding non-strings or malformed codes are 422', async () => {
    await invalid({ base: 'EUR', targets: [] }, 'targets');
    await invalid({ base: 'EUR', targets: Array(501).fill('USD') }, 'targets');
    await invalid({ base: 'EUR', targets: 'USD' }, 'targets');
    await invalid({ base: 'EUR', targets: ['USD', 5] }, 'targets[1]');
    await invalid({ base: 'EUR', targets: ['USD', 'US'] }, 'targets[1]');
    await invalid({ base: 'EUR' }, 'targets');
    assert.equal((await post({ base: 'EUR', targets: Array(500).fill('USD') })).statusCode, 200);
  });

  test('base missing, malformed or unknown is 422 naming base', async () => {
    await invalid({ targets: ['USD'] }, 'base');
    await invalid({ base: 'EURO', targets: ['USD'] }, 'base');
    await invalid({ base: 'XYZ', targets: ['USD'] }, 'base');
    await invalid({ base: 7, targets: ['USD'] }, 'base');
  });

  test('bodies that are not a JSON object are 422 invalid_body', async () => {
    await invalid('{"base": "EUR", ', 'body');
    await invalid([{ base: 'EUR', targets: ['USD'] }], 'body');
    await invalid('"EUR"', 'body');
    await invalid('{"__proto__": {"x": 1}, "base": "EUR", "targets": ["USD"]}', 'body');
    const empty = await t.app.inject({ method: 'POST', url: '/v1/rates/convert', headers: { authorization: key, 'content-type': 'application/json' } });
    assert.equal(empty.statusCode, 422);
    assert.equal(empty.json().error, 'invalid_body');
  });

  test('a body that is not JSON by Content-Type is 415 in the envelope', async () => {
    const res = await post('base=EUR', 'text/plain');
    assert.equal(res.statusCode, 415);
    assert.equal(res.json().error, 'unsupported_media_type');
    assert.equal(res.json().code, 415);
  });

  test('an oversized body is 413 in the envelope', async () => {
    const res = await post({ base: 'EUR', targets: ['USD'], pad: 'x'.repeat(100_000) });
    assert.equal(res.statusCode, 413);
    assert.deepEqual(res.json(), { code: 413, message: 'request body is too large', error: 'payload_too_large' });
  });
});
