// The verified-key cache (KURS_KEY_CACHE_MS): what another instance changes takes effect within the
// TTL, what this instance's admin API changes at once, and charges always see the real balance.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hashKey } from '../src/access/keys.js';
import { KeyCache, MAX_KNOWN_KEYS, MAX_UNKNOWN_KEYS } from '../src/access/key-cache.js';
import type { KeyLookup } from '../src/store/store.js';
import { testApp, type TestApp } from './helpers.js';

const TTL = 2_000;
const TOKEN = 'admin-token-0123456789abcdef';
const ADMIN = { authorization: `Bearer ${TOKEN}` };

describe('verified keys are cached for KURS_KEY_CACHE_MS', () => {
  let t: TestApp;
  let clock = 0;
  before(async () => {
    t = await testApp({ adminToken: TOKEN, keyCache: { ttlMs: TTL, clock: () => clock } });
  });
  after(() => t.close());
  const get = (key: string, url = '/v1/USD/latest') => t.app.inject({ url, headers: { authorization: key } });

  test('a key revoked by another instance keeps working until the TTL, then is refused', async () => {
    const { key, keyId } = await t.key();
    assert.equal((await get(key)).statusCode, 200);
    await t.store.revokeKey(keyId); // straight in the database, as another instance or `kurs keys revoke` does
    clock += TTL - 1;
    assert.equal((await get(key)).statusCode, 200, 'still cached within the TTL');
    clock += 1;
    const res = await get(key);
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), { code: 401, message: 'API key invalid or revoked', error: 'invalid_key' });
  });

  test('a key revoked through this instance is refused at once', async () => {
    const { key, keyId } = await t.key();
    assert.equal((await get(key)).statusCode, 200);
    const revoked = await t.app.inject({ method: 'DELETE', url: `/admin/v1/keys/${keyId}`, headers: ADMIN });
    assert.equal(revoked.statusCode, 200);
    assert.equal((await get(key)).statusCode, 401);
  });

  test('a plan change or an expiry set elsewhere applies after the TTL; through this instance at once', async () => {
    const { key, accountId } = await t.key();
    assert.equal((await get(key, '/v1/bank/ECBF')).statusCode, 200);
    await t.store.updateAccount(accountId, { planId: 'starter' }); // starter has no bank endpoint
    assert.equal((await get(key, '/v1/bank/ECBF')).statusCode, 200, 'still cached within the TTL');
    clock += TTL;
    const forbidden = await get(key, '/v1/bank/ECBF');
    assert.equal(forbidden.statusCode, 403);
    assert.equal(forbidden.json().error, 'plan_forbidden');

    const patched = await t.app.inject({ method: 'PATCH', url: `/admin/v1/accounts/${accountId}`, headers: ADMIN, payload: { plan: 'business', expires_at: '2020-01-01' } });
    assert.equal(patched.statusCode, 200, patched.body);
    const expired = await get(key);
    assert.equal(expired.statusCode, 402);
    assert.equal(expired.json().error, 'plan_expired');
  });

  test('charged responses report the balance the meter returned, not the cached one', async () => {
    const { key, accountId } = await t.key({ plan: 'business', points: 50 });
    assert.equal((await get(key)).headers['x-points-remaining'], '49');
    await t.store.topUp(accountId, 100); // elsewhere: the cached lookup still says 50
    const res = await get(key);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-points-remaining'], '148');
    assert.equal((await t.store.getAccount(accountId))!.points, 148);
  });

  test('a key never seen is refused on every request', async () => {
    const wrong = `kurs_${'x'.repeat(32)}`;
    for (let i = 0; i < 3; i++) assert.equal((await get(wrong)).statusCode, 401);
  });
});

describe('KeyCache bounds and failures', () => {
  const lookupFor = (hash: string): KeyLookup => ({
    keyId: `key_${hash}`,
    account: { id: `acc_${hash}`, planId: 'business', points: 1, expiresAt: null, createdAt: '2026-01-01T00:00:00.000Z' } as KeyLookup['account'],
    plan: { id: 'business', name: 'Business', monthlyPoints: 1, requestsPerMinute: null, endpoints: ['latest'] } as unknown as KeyLookup['plan'],
  });

  test('guessed keys cannot grow memory nor push a real key out', async () => {
    let queries = 0;
    const cache = new KeyCache(async (hash) => (queries++, hash === 'real' ? lookupFor(hash) : undefined), { ttlMs: 60_000, clock: () => 0 });
    assert.equal((await cache.lookup('real'))?.keyId, 'key_real');
    for (let i = 0; i < MAX_UNKNOWN_KEYS * 3; i++) assert.equal(await cache.lookup(hashKey(`guess${i}`)), undefined);
    assert.deepEqual(cache.size, { known: 1, unknown: MAX_UNKNOWN_KEYS });
    const before = queries;
    assert.equal((cache.lookup('real') as KeyLookup).keyId, 'key_real', 'answered from memory, without a query');
    assert.equal(queries, before);
    assert.ok(MAX_KNOWN_KEYS > MAX_UNKNOWN_KEYS);
  });

  test('concurrent misses share one query; a failed query is not cached; a cached key needs no database', async () => {
    let up = true;
    let queries = 0;
    const cache = new KeyCache(async (hash) => {
      queries++;
      if (!up) throw new Error('connection refused');
      return lookupFor(hash);
    }, { ttlMs: 1_000, clock: () => 0 });
    const all = await Promise.all(Array.from({ length: 20 }, () => cache.lookup('a')));
    assert.equal(queries, 1);
    assert.ok(all.every((f) => f?.keyId === 'key_a'));
    up = false;
    assert.equal((cache.lookup('a') as KeyLookup).keyId, 'key_a');
    await assert.rejects(Promise.resolve(cache.lookup('b')), /connection refused/);
    up = true;
    assert.equal((await cache.lookup('b'))?.keyId, 'key_b');
  });

  test('a TTL of 0 asks the database every time', async () => {
    let queries = 0;
    const cache = new KeyCache(async (hash) => (queries++, lookupFor(hash)), { ttlMs: 0 });
    for (let i = 0; i < 3; i++) await cache.lookup('a');
    assert.equal(queries, 3);
  });
});
