// X-Points-Remaining on answers that cost nothing (a 304, an error) is the newest balance this
// instance knows (src/access/balances.ts), not the balance read when the key was cached: it agrees
// with a charged answer sent a moment before, and a newer lookup (a top-up) replaces it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from './helpers.js';

describe('X-Points-Remaining on free answers', () => {
  let t: TestApp;
  let clock = 0;
  before(async () => {
    // A long key cache, so that the cached lookup's balance would be stale for the whole test.
    t = await testApp({ keyCache: { ttlMs: 60_000, clock: () => clock } });
  });
  after(() => t.close());
  const get = (key: string, url = '/v1/USD/latest', headers: Record<string, string> = {}) => t.app.inject({ url, headers: { authorization: key, ...headers } });

  test('a 304 right after charged answers shows the balance they left, not the cached lookup', async () => {
    const { key } = await t.key({ plan: 'business', points: 1000 });
    const first = await get(key);
    assert.equal(first.statusCode, 200);
    assert.equal(first.headers['x-points-remaining'], '999');
    const second = await get(key);
    assert.equal(second.headers['x-points-remaining'], '998');
    const unchanged = await get(key, '/v1/USD/latest', { 'if-none-match': String(first.headers.etag) });
    assert.equal(unchanged.statusCode, 304);
    assert.equal(unchanged.headers['x-points-cost'], '0');
    assert.equal(unchanged.headers['x-points-remaining'], '998');
  });

  test('an error answer shows the balance the last charge left', async () => {
    const { key } = await t.key({ plan: 'business', points: 50 });
    assert.equal((await get(key)).headers['x-points-remaining'], '49');
    const bad = await get(key, '/v1/XYZ/latest');
    assert.equal(bad.statusCode, 422);
    assert.equal(bad.json().error, 'invalid_parameter', bad.body);
    assert.equal(bad.headers['x-points-cost'], '0');
    assert.equal(bad.headers['x-points-remaining'], '49');
  });

  test('a 402 shows the balance the meter refused, and the next free answer agrees', async () => {
    const { key } = await t.key({ plan: 'business', points: 1 });
    assert.equal((await get(key)).headers['x-points-remaining'], '0');
    const refused = await get(key);
    assert.equal(refused.statusCode, 402);
    assert.equal(refused.headers['x-points-remaining'], '0');
    const bad = await get(key, '/v1/XYZ/latest');
    assert.equal(bad.headers['x-points-remaining'], '0');
  });

  test('a top-up read by a later lookup replaces the balance of an earlier charge', async () => {
    const { key, accountId } = await t.key({ plan: 'business', points: 10 });
    assert.equal((await get(key)).headers['x-points-remaining'], '9');
    assert.equal(await t.store.topUp(accountId, 100), 109);
    clock += 60_000; // the cached lookup expires: the next request reads the key (and balance) again
    const bad = await get(key, '/v1/XYZ/latest');
    assert.equal(bad.statusCode, 422);
    assert.equal(bad.headers['x-points-remaining'], '109');
  });
});
