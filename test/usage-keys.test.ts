// Usage per key and retention (issue 17): two keys of one account are counted apart in
// GET /v1/usage and `kurs usage --by-key`; pruning keeps the retention window and nothing older.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { pruneOld } from '../src/access/retention.js';
import { DEFAULT_USAGE_RETENTION_DAYS, loadConfig } from '../src/config.js';
import { SEED_TODAY, testApp, type TestApp } from './helpers.js';
import { BIN } from './support/server-process.js';

interface UsageBody {
  today: { requests: number; points: number };
  key: { key_id: string; today: { requests: number; points: number }; month: { requests: number; points: number } };
}

describe('usage per key', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
  });
  after(() => t.close());

  test('GET /v1/usage gives the account totals and the calling key its own counts; kurs usage --by-key splits them', async () => {
    const first = await t.key({ plan: 'business', points: 100 });
    const second = await t.key({ accountId: first.accountId });
    const get = (key: string, url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: key } });
    for (let i = 0; i < 3; i++) assert.equal((await get(first.key, '/v1/EUR/latest')).statusCode, 200);
    assert.equal((await get(second.key, '/v1/EUR/latest')).statusCode, 200);
    assert.equal((await get(second.key, '/v1/rate/EUR/XXX')).statusCode, 422);

    // A usage request counts as a request of its key (free) once answered, so not in its own answer.
    const mine = (await get(second.key, '/v1/usage')).json() as UsageBody;
    assert.deepEqual(mine.key, { key_id: second.keyId, today: { requests: 2, points: 1 }, month: { requests: 2, points: 1 } });
    assert.deepEqual(mine.today, { date: '2026-04-14', requests: 5, points: 4 });
    const theirs = (await get(first.key, '/v1/usage')).json() as UsageBody;
    assert.deepEqual(theirs.key.today, { requests: 3, points: 3 });
    assert.equal(theirs.today.requests, 6);

    // The CLI reads what the server has written; it runs on today's date, so only check the split.
    await t.app.close();
    const run = spawnSync(process.execPath, [BIN, 'usage', first.accountId, '--by-key', '--json'], { env: { ...process.env, KURS_DATABASE_URL: `sqlite:${t.dbPath}` }, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const rows = spawnSync(process.execPath, [BIN, 'usage', first.accountId, '--by-key'], { env: { ...process.env, KURS_DATABASE_URL: `sqlite:${t.dbPath}` }, encoding: 'utf8' });
    assert.match(rows.stdout, /KEY_ID\s+TODAY REQUESTS/);
    const byKey = (await t.store.usageByKey(first.accountId, '2026-04-14', '2026-04-14')).map((u) => [u.keyId, u.requests, u.points]);
    assert.deepEqual(byKey.sort(), [[first.keyId, 4, 3], [second.keyId, 3, 1]].sort());
    assert.ok('keys' in (JSON.parse(run.stdout) as object));
  });
});

describe('retention', () => {
  test('KURS_USAGE_RETENTION_DAYS defaults to 400 and is validated', () => {
    assert.equal(DEFAULT_USAGE_RETENTION_DAYS, 400);
    assert.equal(loadConfig({}).usageRetentionDays, 400);
    assert.equal(loadConfig({ KURS_USAGE_RETENTION_DAYS: '30' }).usageRetentionDays, 30);
    assert.throws(() => loadConfig({ KURS_USAGE_RETENTION_DAYS: '0' }), /KURS_USAGE_RETENTION_DAYS/);
  });

  test('pruning deletes usage older than the retention and request windows that stopped counting', async () => {
    const t = await testApp({ seeded: false });
    try {
      const day = (d: string, keyId: string) => ({ accountId: 'acc_1', day: d, keyId, requests: 1, points: 1 });
      await t.store.addUsage([day('2025-03-09', 'k'), day('2025-03-10', 'k'), day('2026-04-14', 'k'), day('2026-04-14', 'j')]);
      const now = SEED_TODAY.getTime();
      await t.store.hitRequestWindow('acc_idle', now - 5 * 60_000);
      await t.store.hitRequestWindow('acc_busy', Math.floor(now / 60_000) * 60_000);
      assert.deepEqual(await pruneOld(t.store, SEED_TODAY, 400), { before_day: '2025-03-10', usage_rows: 1, window_rows: 1 });
      assert.deepEqual((await t.store.usageDays('acc_1', '2000-01-01', '2100-01-01')).map((u) => u.day), ['2025-03-10', '2026-04-14']);
      assert.equal(await t.store.hitRequestWindow('acc_busy', Math.floor(now / 60_000) * 60_000), 2);
      assert.deepEqual(await pruneOld(t.store, SEED_TODAY, 400), { before_day: '2025-03-10', usage_rows: 0, window_rows: 0 });
    } finally {
      await t.close();
    }
  });
});
