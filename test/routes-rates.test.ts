import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Decimal } from '../src/money/decimal.js';
import { SEED_TODAY, testApp, type TestApp } from './helpers.js';
import { DATASET_CURRENCIES, NEWEST_PUBLICATION, NEWEST_PUBLICATION_HTTP, datasetApp, datasetRows } from './support/dataset.js';

/** At most 8 significant digits and nothing that looks like float noise (D6). */
const sigDigits = (n: number) => new Decimal(String(n)).sd();

describe('rates endpoints, on the written test dataset', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await datasetApp();
    ({ key } = await t.key({ plan: 'business', points: 10_000 }));
  });
  after(() => t.close());
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: key } });

  test('latest: every quoted currency, the base at 1, 8 significant digits, Last-Modified of the newest publication', async () => {
    const res = await get('/v1/USD/latest');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(Object.keys(body), ['code', 'message', 'rates']);
    assert.equal(body.message, 'success');
    assert.equal(body.rates.USD, 1);
    assert.deepEqual(DATASET_CURRENCIES.filter((c) => !(c in body.rates)), []);
    for (const [code, rate] of Object.entries(body.rates as Record<string, number>)) {
      assert.match(code, /^[A-Z]{3}$/);
      assert.ok(rate > 0 && sigDigits(rate) <= 8, `${code} ${rate}`);
    }
    assert.equal(res.headers['last-modified'], NEWEST_PUBLICATION_HTTP);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  });

  test('latest accepts lower-case codes and answers as upper case', async () => {
    assert.equal((await get('/v1/eur/latest')).body, (await get('/v1/EUR/latest')).body);
  });

  test('latest with amount gives rate and converted, computed exactly from the shown rate', async () => {
    const body = (await get('/v1/EUR/latest?amount=1234.56')).json();
    const plain = (await get('/v1/EUR/latest')).json();
    assert.deepEqual(Object.keys(body.rates), Object.keys(plain.rates));
    for (const [code, v] of Object.entries(body.rates as Record<string, { rate: number; converted: number }>)) {
      assert.deepEqual(Object.keys(v), ['rate', 'converted']);
      assert.equal(v.rate, plain.rates[code]);
      const expected = new Decimal('1234.56').times(String(v.rate)).toDecimalPlaces(6, Decimal.ROUND_HALF_EVEN);
      assert.equal(String(v.converted), expected.toString(), code);
    }
    assert.equal(body.rates.EUR.converted, 1234.56);
  });

  test('no binary-float noise: 0.1 × 3-style products come out exact', async () => {
    const res = await get('/v1/USD/latest?amount=0.1');
    assert.ok(!/\d{12,}/.test(res.body.replace(/"[A-Z]{3}"/g, '')), 'a number has float-noise length');
    assert.ok(!res.body.includes('e-'), 'exponent notation in a response');
  });

  test('amounts that are not positive finite numbers up to 1e15 are 422 naming amount', async () => {
    for (const bad of ['0', '-1', 'abc', '1e999', '', 'NaN', 'Infinity', '1e16', '0x10', '1,5']) {
      const res = await get(`/v1/EUR/latest?amount=${encodeURIComponent(bad)}`);
      assert.equal(res.statusCode, 422, `amount=${bad}`);
      const body = res.json();
      assert.equal(body.error, 'invalid_parameter');
      assert.deepEqual(body.details.map((d: { field: string }) => d.field), ['amount']);
      assert.match(body.message, /^amount must be a positive number/);
    }
    for (const good of ['12', '12.50', '1e3', '1e15', '0.000001']) {
      assert.equal((await get(`/v1/EUR/latest?amount=${good}`)).statusCode, 200, `amount=${good}`);
    }
  });

  test('a repeated amount parameter is 422', async () => {
    const res = await get('/v1/EUR/latest?amount=1&amount=2');
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().details[0].field, 'amount');
  });

  test('malformed and unknown base codes are 422 naming base_currency', async () => {
    for (const bad of ['EU', 'EURO', 'E1R', 'XYZ', 'HRK']) {
      const res = await get(`/v1/${bad}/latest`);
      assert.equal(res.statusCode, 422, bad);
      assert.equal(res.json().details[0].field, 'base_currency');
    }
  });

  test('pair: the fresh EUR/USD rate with the spec fields, consistent with /latest', async () => {
    const res = await get('/v1/rate/EUR/USD?amount=1234.56');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(Object.keys(body), ['code', 'message', 'base', 'target', 'rate', 'amount', 'converted', 'last_update']);
    assert.equal(body.base, 'EUR');
    assert.equal(body.target, 'USD');
    assert.equal(body.rate, (await get('/v1/EUR/latest')).json().rates.USD);
    assert.equal(body.amount, 1234.56);
    assert.equal(String(body.converted), new Decimal('1234.56').times(String(body.rate)).toDecimalPlaces(6).toString());
    assert.match(body.last_update, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // EUR's freshest contributor is the ECB of 9 June.
    assert.equal(body.last_update, NEWEST_PUBLICATION);
  });

  test('pair: the ECB-published EUR/USD is matched within 0.5%', async () => {
    const ecbUsd = datasetRows('ECBF').filter((r) => r[1] === 'USD').at(-1)!;
    const rate = (await get('/v1/rate/EUR/USD')).json().rate;
    assert.ok(Math.abs(rate / Number(ecbUsd[2]) - 1) < 0.005, `${rate} vs ECB ${ecbUsd[2]}`);
  });

  test('pair: amount defaults to 1, USD/USD is 1, and reciprocals agree to 8 digits', async () => {
    const body = (await get('/v1/rate/usd/usd')).json();
    assert.equal(body.rate, 1);
    assert.equal(body.amount, 1);
    const ab = (await get('/v1/rate/EUR/JPY')).json().rate;
    const ba = (await get('/v1/rate/JPY/EUR')).json().rate;
    assert.ok(Math.abs(new Decimal(String(ab)).times(String(ba)).minus(1).toNumber()) < 2e-7);
  });

  test('pair: a known currency without a fresh rate is 404 no_fresh_rate', async () => {
    // AFN comes only from NBP table B of 20 May: weeks old on the test day.
    const res = await get('/v1/rate/EUR/AFN');
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().error, 'no_fresh_rate');
    assert.equal(res.headers['x-points-cost'], '0');
    // …while /latest still lists it: latest available, relative to the data (D10).
    assert.ok((await get('/v1/EUR/latest')).json().rates.AFN > 0);
  });

  test('pair: malformed target is 422 naming target_currency', async () => {
    const res = await get('/v1/rate/EUR/US');
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().details[0].field, 'target_currency');
  });
});

describe('rates endpoints on the bundled seed (these follow a seed refresh)', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await testApp();
    ({ key } = await t.key({ plan: 'business', points: 100 }));
  });
  after(() => t.close());

  test('the seed quotes more than 100 currencies, the newest publication on the day before SEED_TODAY', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/USD/latest', headers: { authorization: key } });
    assert.ok(Object.keys(res.json().rates).length > 100, `only ${Object.keys(res.json().rates).length} currencies`);
    assert.equal(new Date(String(res.headers['last-modified'])).toISOString().slice(0, 10), new Date(SEED_TODAY.getTime() - 86_400_000).toISOString().slice(0, 10));
  });
});
