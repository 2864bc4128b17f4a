import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DirectMeter } from '../src/access/meter.js';
import { testApp, type TestApp } from './helpers.js';

describe('a points ledger that cannot be reached fails closed', () => {
  let t: TestApp;
  let reachable = false;
  before(async () => {
    // The real store, behind a meter whose database connection is gone until `reachable`.
    t = await testApp({
      meter: (store) =>
        new DirectMeter({
          charge: (accountId, cost) => (reachable ? store.chargeBatch([{ accountId, cost }]).then((r) => r[0]!) : Promise.reject(new Error('Connection terminated unexpectedly'))),
        }),
    });
  });
  after(() => t.close());

  test('the charge failing answers 503 unavailable in the envelope, never the body, never a 500', async () => {
    const { key, accountId } = await t.key({ plan: 'business', points: 10 });
    for (const url of ['/v1/USD/latest', '/v1/currencies', '/v1/rate/EUR/USD']) {
      const res = await t.app.inject({ url, headers: { authorization: key } });
      assert.equal(res.statusCode, 503, url);
      assert.deepEqual(res.json(), { code: 503, message: 'the service cannot reach its database; try again shortly', error: 'unavailable' });
      assert.equal(res.headers['retry-after'], '1');
      assert.equal(res.headers['x-points-cost'], '0');
      assert.equal(res.headers['cache-control'], 'no-store');
    }
    assert.equal((await t.store.getAccount(accountId))!.points, 10);
    reachable = true;
    const res = await t.app.inject({ url: '/v1/USD/latest', headers: { authorization: key } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-points-remaining'], '9');
  });
});
