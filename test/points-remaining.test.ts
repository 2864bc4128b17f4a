// X-Points-Remaining on answers that cost nothing (a 304, an error) is the newest balance this
// instance knows (src/access/balances.ts), not the balance read when the key was cached: it agrees
// with a charged answer sent a moment before, and a newer lookup (a top-up) replaces it. /v1/usage's
// body says the same balance as its header (issue 27), on SQLite and on PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startKurs, stop } from '../bench/servers.js';
import { createKey } from '../src/access/accounts.js';
import { openPostgres } from '../src/store/open.js';
import { PG_TEST_URL, tempPgDatabase } from './support/pg.js';
import { testApp, type TestApp } from './helpers.js';

/** Three charged requests, then /v1/usage: its body's balance, its header's, and what they should be. */
async function usageAfterCharges(get: (url: string) => Promise<{ status: number; header: string | undefined; json: () => unknown }>): Promise<{ body: number; header: number }> {
  for (let i = 0; i < 3; i++) assert.equal((await get('/v1/USD/latest')).status, 200);
  const usage = await get('/v1/usage');
  assert.equal(usage.status, 200);
  return { body: (usage.json() as { points: number }).points, header: Number(usage.header) };
}

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

  test('/v1/usage: the body\'s points are the X-Points-Remaining of the same response, not the cached lookup\'s', async () => {
    const { key } = await t.key({ plan: 'business', points: 100 });
    const seen = await usageAfterCharges(async (url) => {
      const res = await get(key, url);
      return { status: res.statusCode, header: res.headers['x-points-remaining'] as string | undefined, json: () => res.json() };
    });
    assert.deepEqual(seen, { body: 97, header: 97 });
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

test('/v1/usage on PostgreSQL (a real server, its batching meter and key cache): body and header agree', { skip: PG_TEST_URL ? false : 'KURS_TEST_DATABASE_URL is not set' }, async () => {
  const db = await tempPgDatabase();
  const server = await startKurs({ KURS_DATABASE_URL: db.url, KURS_BOOTSTRAP_KEY: 'off', KURS_INGEST: 'off', KURS_LOG_LEVEL: 'error' });
  const store = openPostgres(db.url, { poolSize: 1 });
  try {
    const { key } = await createKey(store, { plan: 'business', points: 50 }, new Date());
    const seen = await usageAfterCharges(async (url) => {
      const res = await fetch(`${server.url}${url}`, { headers: { authorization: key } });
      const text = await res.text();
      return { status: res.status, header: res.headers.get('x-points-remaining') ?? undefined, json: () => JSON.parse(text) };
    });
    assert.deepEqual(seen, { body: 47, header: 47 });
  } finally {
    await stop(server);
    await store.close();
    await db.drop();
  }
});
