import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Market } from '../src/rates/market.js';
import { SOURCES } from '../src/sources/index.js';
import { testApp, type TestApp } from './helpers.js';

describe('/healthz and /readyz', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
  });
  after(() => t.close());

  test('healthz: the process is up, no key needed, no points', async () => {
    const res = await t.app.inject({ url: '/healthz' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { code: 200, message: 'up' });
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.headers['x-points-cost'], undefined);
  });

  test('readyz: ready when the database answers and rates are loaded', async () => {
    const res = await t.app.inject({ url: '/readyz' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { code: 200, message: 'ready' });
  });

  test('readyz: 503 in the envelope while rates are not loaded yet', async () => {
    const empty = new Market(t.store, SOURCES, 0);
    const original = t.market.current;
    t.market.current = empty.current;
    try {
      const res = await t.app.inject({ url: '/readyz' });
      assert.equal(res.statusCode, 503);
      assert.deepEqual(res.json(), { code: 503, message: 'not ready: rates are not loaded yet', error: 'unavailable' });
    } finally {
      t.market.current = original;
    }
  });

  test('other methods get 405 with Allow', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/readyz' });
    assert.equal(res.statusCode, 405);
    assert.equal(res.headers.allow, 'GET, HEAD');
  });
});
