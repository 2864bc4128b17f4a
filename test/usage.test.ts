import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { after, before, describe, test } from 'node:test';
import { UsageRecorder } from '../src/access/usage.js';
import { openSqlite } from '../src/store/open.js';
import type { SqlStore } from '../src/store/sql-store.js';
import { SEED_TODAY, tempDb, testApp, type TestApp } from './helpers.js';

/** Reads until the usage flush (every USAGE_FLUSH_MS) has written something: a busy machine flushes late. */
async function flushed<T>(read: () => Promise<T[]>): Promise<T[]> {
  const deadline = Date.now() + 30_000;
  let rows = await read();
  while (rows.length === 0 && Date.now() < deadline) rows = await (await sleep(50), read());
  return rows;
}

describe('GET /v1/usage', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
  });
  after(() => t.close());

  const get = (url: string, key?: string) => t.app.inject({ method: 'GET', url, headers: key ? { authorization: key } : {} });

  test('needs a valid key: 401 in the envelope without one', async () => {
    const res = await get('/v1/usage');
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().error, 'invalid_key');
    assert.equal((await get('/v1/usage', 'kurs_00000000000000000000000000000000')).statusCode, 401);
  });

  test('reports plan, balance, expiry and every keyed request today and this month, at no cost', async () => {
    const { key, accountId, keyId } = await t.key({ plan: 'starter', points: 50, expiresAt: '2026-12-31T23:59:59.999Z' });
    assert.equal((await get('/v1/EUR/latest', key)).statusCode, 200);
    assert.equal((await get('/v1/rate/EUR/USD', key)).statusCode, 200);
    assert.equal((await get('/v1/rate/EUR/ZZZ', key)).statusCode, 422);
    assert.equal((await get('/v1/bank/ECBF', key)).statusCode, 403);
    // Earlier this month and last month, as another instance might have flushed them.
    await t.store.addUsage([
      { accountId, day: '2026-04-02', requests: 10, points: 9 },
      { accountId, day: '2026-03-31', requests: 100, points: 100 },
    ]);

    const res = await get('/v1/usage', key);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-points-cost'], '0');
    assert.equal(res.headers['x-points-remaining'], '48');
    assert.equal(res.headers['cache-control'], 'private');
    assert.deepEqual(res.json(), {
      code: 200,
      message: `usage of account ${accountId}`,
      account_id: accountId,
      plan: 'starter',
      points: 48,
      expires_at: '2026-12-31 23:59:59',
      monthly_points: 1000,
      requests_per_minute: 60,
      today: { date: '2026-04-14', requests: 4, points: 2 },
      month: { month: '2026-04', requests: 14, points: 11 },
      // The counts flushed without a key belong to the account, not to this key.
      key: { key_id: keyId, today: { requests: 4, points: 2 }, month: { requests: 4, points: 2 } },
    });
    // The usage request itself counts as a request, and costs nothing.
    const again = (await get('/v1/usage', key)).json();
    assert.deepEqual(again.today, { date: '2026-04-14', requests: 5, points: 2 });
    assert.equal(again.points, 48);
  });

  test('counts an expired account\'s refused requests but charges nothing', async () => {
    const { key, accountId } = await t.key({ plan: 'business', points: 5, expiresAt: '2026-01-01T00:00:00.000Z' });
    assert.equal((await get('/v1/usage', key)).statusCode, 402);
    assert.equal((await get('/v1/EUR/latest', key)).statusCode, 402);
    const rows = await flushed(() => t.store.usageDays(accountId, '2026-04-01', '2026-04-30'));
    assert.deepEqual(rows, [{ accountId, day: '2026-04-14', requests: 2, points: 0 }]);
  });

  test('writes no row per request: counts reach the database in the next flush', async () => {
    const { key, accountId } = await t.key({ plan: 'business', points: 5 });
    assert.equal((await get('/v1/currencies', key)).statusCode, 200);
    assert.deepEqual(await t.store.usageDays(accountId, '2026-04-14', '2026-04-14'), []);
    assert.deepEqual(await flushed(() => t.store.usageDays(accountId, '2026-04-14', '2026-04-14')), [{ accountId, day: '2026-04-14', requests: 1, points: 1 }]);
  });

  test('rejects unknown query parameters with 422', async () => {
    const { key } = await t.key({ plan: 'business', points: 5 });
    const res = await get('/v1/usage?foo=1', key);
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().error, 'invalid_parameter');
  });

  test('POST is 405 with Allow', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/usage' });
    assert.equal(res.statusCode, 405);
    assert.equal(res.headers.allow, 'GET, HEAD');
  });
});

describe('UsageRecorder', () => {
  test('keeps counts through a failed flush and writes them once on the next; stop() flushes', async () => {
    const db = tempDb();
    const store = openSqlite(db.path) as SqlStore;
    await store.migrate();
    const usage = new UsageRecorder(store, () => undefined);
    try {
      usage.record('acc_1', 'key_1', SEED_TODAY, 1);
      usage.record('acc_1', 'key_1', SEED_TODAY, 0);
      await sql`alter table usage_daily rename to usage_away`.execute(store.db);
      await assert.rejects(usage.flush());
      usage.record('acc_1', 'key_1', SEED_TODAY, 1);
      await sql`alter table usage_away rename to usage_daily`.execute(store.db);
      assert.deepEqual((await usage.days('acc_1', '2026-04-14', '2026-04-14')).map((u) => [u.requests, u.points]), [[3, 2]]);
      await usage.flush();
      await usage.flush();
      usage.record('acc_1', 'key_1', new Date('2026-04-15T00:00:01Z'), 4);
      await usage.stop();
      assert.deepEqual(await store.usageDays('acc_1', '2026-04-01', '2026-04-30'), [
        { accountId: 'acc_1', day: '2026-04-14', requests: 3, points: 2 },
        { accountId: 'acc_1', day: '2026-04-15', requests: 1, points: 4 },
      ]);
      assert.deepEqual((await usage.days('acc_1', '2026-04-14', '2026-04-15')).length, 2);
    } finally {
      await store.close();
      db.cleanup();
    }
  });
});
