import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Decimal } from '../src/money/decimal.js';
import { enabledSources } from '../src/sources/enabled.js';
import { SOURCES } from '../src/sources/index.js';
import { testApp, type TestApp } from './helpers.js';
import { NEWEST_PUBLICATION, NEWEST_PUBLICATION_HTTP, datasetApp, datasetRows } from './support/dataset.js';

describe('bank, banks and currencies endpoints, on the written test dataset', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await datasetApp();
    ({ key } = await t.key({ plan: 'professional', points: 10_000 }));
  });
  after(() => t.close());
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: key } });
  const ecbOn = (date: string) => new Map(datasetRows('ECBF').filter((r) => r[0] === date).map((r) => [r[1], r[2]]));

  test('bank: a simple map of the base per 1 unit of each currency, with meta', async () => {
    const res = await get('/v1/bank/ecbf');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(Object.keys(body), ['code', 'message', 'meta', 'rates']);
    assert.deepEqual(body.meta, { country_code: 'EU', bank_name: 'European Central Bank', base_currency: 'EUR', last_update: NEWEST_PUBLICATION });
    const published = ecbOn('2026-06-09');
    assert.deepEqual(Object.keys(body.rates).sort(), [...published.keys()].sort());
    // The ECB publishes USD per EUR; the default direction is EUR per USD, computed to 8 digits.
    assert.equal(String(body.rates.USD), new Decimal(1).div(published.get('USD')!).toSignificantDigits(8).toString());
    assert.equal(res.headers['last-modified'], NEWEST_PUBLICATION_HTTP);
  });

  test('bank: reciprocal=true gives the direction the ECB published, with its own digits', async () => {
    const published = ecbOn('2026-06-09');
    for (const flag of ['true', '1']) {
      const body = (await get(`/v1/bank/ECBF?reciprocal=${flag}`)).json();
      for (const [code, text] of published) assert.equal(String(body.rates[code]), new Decimal(text).toString(), code);
    }
    assert.deepEqual((await get('/v1/bank/ECBF?reciprocal=0')).json(), (await get('/v1/bank/ECBF')).json());
  });

  test('bank: format=full gives rows with currency, rate, last_update and bank_update', async () => {
    const body = (await get('/v1/bank/CNBA?format=full')).json();
    assert.ok(Array.isArray(body.rates));
    assert.equal(body.meta.base_currency, 'CZK');
    const jpy = body.rates.find((r: { currency: string }) => r.currency === 'JPY');
    assert.deepEqual(Object.keys(jpy), ['currency', 'rate', 'last_update', 'bank_update']);
    // CNB publishes CZK per 100 JPY; the row is per 1 JPY, divided in decimal.
    const cnbJpy = datasetRows('CNBA').filter((r) => r[1] === 'JPY').at(-1)!;
    assert.equal(cnbJpy[3], 100);
    assert.equal(String(jpy.rate), new Decimal(cnbJpy[2]).div(100).toString());
    assert.equal(jpy.bank_update, `${cnbJpy[0]} 13:30:00`);
    assert.match(jpy.last_update, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  test('bank: NBP rows carry different dates for tables A and B', async () => {
    const rows = (await get('/v1/bank/NBPL?format=full')).json().rates as { currency: string; bank_update: string }[];
    const dateOf = (c: string) => rows.find((r) => r.currency === c)!.bank_update.slice(0, 10);
    assert.equal(dateOf('USD'), '2026-06-09');
    assert.equal(dateOf('AFN'), '2026-05-20');
  });

  test('bank: bad format or reciprocal is 422, an unknown bank 404, a malformed code 422', async () => {
    const format = await get('/v1/bank/ECBF?format=short');
    assert.equal(format.statusCode, 422);
    assert.equal(format.json().details[0].field, 'format');
    const recip = await get('/v1/bank/ECBF?reciprocal=yes');
    assert.equal(recip.statusCode, 422);
    assert.equal(recip.json().details[0].field, 'reciprocal');
    const unknown = await get('/v1/bank/ZZZZ');
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().error, 'not_found');
    assert.equal(unknown.headers['x-points-cost'], '0');
    assert.equal((await get('/v1/bank/EC')).statusCode, 422);
  });

  test('banks: every adapter in code order with the spec fields', async () => {
    const body = (await get('/v1/banks')).json();
    assert.deepEqual(body.banks.map((b: { bank_code: string }) => b.bank_code), enabledSources(SOURCES, []).map((s) => s.code).sort(), 'every source a default start uses (D22)');
    assert.deepEqual(body.banks.find((b: { bank_code: string }) => b.bank_code === 'NBPL'), {
      country_code: 'PL', country_name: 'Poland', bank_code: 'NBPL', currency: 'PLN', bank_name: 'Narodowy Bank Polski',
    });
  });

  test('currencies: one record per quotable currency with its country (D4)', async () => {
    const body = (await get('/v1/currencies')).json();
    const latest = (await get('/v1/USD/latest')).json();
    assert.deepEqual(body.currencies.map((c: { currency: string }) => c.currency), Object.keys(latest.rates).sort());
    const byCode = new Map(body.currencies.map((c: { currency: string }) => [c.currency, c]));
    assert.deepEqual(byCode.get('EUR'), { country_code: 'EU', country_name: 'Euro area', currency: 'EUR' });
    assert.deepEqual(byCode.get('JPY'), { country_code: 'JP', country_name: 'Japan', currency: 'JPY' });
    for (const c of body.currencies) assert.match(c.country_code, /^[A-Z]{2}$/);
  });

  test('unknown routes are 404 and wrong methods 405, both in the envelope', async () => {
    const missing = await get('/v2/nothing');
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().error, 'not_found');
    assert.equal(missing.json().code, 404);
    const method = await t.app.inject({ method: 'DELETE', url: '/v1/EUR/latest', headers: { authorization: key } });
    assert.equal(method.statusCode, 405);
    assert.equal(method.json().error, 'method_not_allowed');
    assert.equal(method.headers.allow, 'GET, HEAD');
    const getConvert = await get('/v1/rates/convert');
    assert.equal(getConvert.statusCode, 405);
    assert.equal(getConvert.headers.allow, 'POST');
  });
});

describe('the currency list on the bundled seed (this follows a seed refresh)', () => {
  test('XDR, quoted by the IMF in the seed, is listed under the IMF (D4)', async () => {
    const t = await testApp();
    try {
      const { key } = await t.key({ plan: 'professional', points: 10 });
      const body = (await t.app.inject({ method: 'GET', url: '/v1/currencies', headers: { authorization: key } })).json();
      assert.deepEqual(body.currencies.find((c: { currency: string }) => c.currency === 'XDR'), { country_code: 'ZZ', country_name: 'International Monetary Fund', currency: 'XDR' });
    } finally {
      await t.close();
    }
  });
});
