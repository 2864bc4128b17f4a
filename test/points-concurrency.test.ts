import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from './helpers.js';

describe('points under concurrency (D2)', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await testApp();
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => t.close());

  test('many concurrent requests on a small balance: exactly the balance is served and charged', async () => {
    const balance = 37;
    const { key, accountId } = await t.key({ plan: 'business', points: balance });
    const paths = ['/v1/USD/latest', '/v1/rate/EUR/USD?amount=3', '/v1/banks', '/v1/currencies', '/v1/bank/ECBF'];
    const responses = await Promise.all(
      Array.from({ length: 300 }, (_, i) => fetch(`${base}${paths[i % paths.length]}`, { headers: { authorization: key } }).then(async (r) => ({
        status: r.status,
        cost: r.headers.get('x-points-cost'),
        remaining: Number(r.headers.get('x-points-remaining')),
        body: await r.json(),
      }))),
    );
    const served = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 402);
    assert.equal(served.length, balance);
    assert.equal(refused.length, 300 - balance);
    for (const r of served) assert.equal(r.cost, '1');
    for (const r of refused) {
      assert.equal(r.body.error, 'points_exhausted');
      assert.equal(r.cost, '0');
    }
    // Each success saw a distinct balance after its own charge: no two shared one decrement.
    assert.deepEqual(served.map((r) => r.remaining).sort((a, b) => a - b), Array.from({ length: balance }, (_, i) => i));
    assert.equal((await t.store.getAccount(accountId))!.points, 0);
  });
});
