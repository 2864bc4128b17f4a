import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createKey } from '../src/access/accounts.js';
import { BatchMeter } from '../src/access/meter.js';
import { ENDPOINT_IDS, type EndpointId } from '../src/config.js';
import { buildApp } from '../src/http/app.js';
import { Market } from '../src/rates/market.js';
import { SOURCES } from '../src/sources/index.js';
import { openPostgres } from '../src/store/open.js';
import type { SqlStore } from '../src/store/sql-store.js';
import { SEED_TODAY, testApp } from './helpers.js';
import { pgSchema, pgTestUrl } from './support/pg-schema.js';

const POLICY = '"minute";q=60;w=60';

describe('per-plan request limits (one instance, in memory)', () => {
  const clock = new Date(SEED_TODAY);
  const t = testApp({ now: clock });
  after(async () => (await t).close());

  test('every limited response carries RateLimit-Policy and RateLimit; the 61st is 429 at no cost', async () => {
    const { app, key, store } = await t;
    clock.setTime(Date.parse('2026-04-14T12:00:15Z'));
    const { key: starter, accountId } = await key({ plan: 'starter', points: 1000 });
    const first = await app.inject({ method: 'GET', url: '/v1/banks', headers: { authorization: starter } });
    assert.equal(first.statusCode, 200);
    assert.equal(first.headers['ratelimit-policy'], POLICY);
    assert.equal(first.headers.ratelimit, '"minute";r=59;t=45');
    for (let i = 0; i < 59; i++) assert.equal((await app.inject({ method: 'GET', url: '/v1/banks', headers: { authorization: starter } })).statusCode, 200);
    clock.setTime(Date.parse('2026-04-14T12:00:50.200Z'));
    const limited = await app.inject({ method: 'GET', url: '/v1/banks', headers: { authorization: starter } });
    assert.equal(limited.statusCode, 429);
    assert.deepEqual(limited.json(), { code: 429, message: 'request limit of 60 per minute reached', error: 'rate_limited' });
    assert.equal(limited.headers['retry-after'], '10');
    assert.equal(limited.headers['ratelimit-policy'], POLICY);
    assert.equal(limited.headers.ratelimit, '"minute";r=0;t=10');
    assert.equal(limited.headers['x-points-cost'], '0');
    assert.equal(limited.headers['cache-control'], 'no-store');
    assert.equal((await store.getAccount(accountId))!.points, 940);
    // A 422 within the limit is still limited first (D2: limit before validation).
    assert.equal((await app.inject({ method: 'GET', url: '/v1/rate/EUR/ZZZ', headers: { authorization: starter } })).statusCode, 429);
    // The next minute starts a fresh window.
    clock.setTime(Date.parse('2026-04-14T12:01:00Z'));
    const next = await app.inject({ method: 'GET', url: '/v1/banks', headers: { authorization: starter } });
    assert.equal(next.statusCode, 200);
    assert.equal(next.headers.ratelimit, '"minute";r=59;t=60');
  });

  test('a plan without a limit sends no RateLimit fields', async () => {
    const { app, key } = await t;
    const { key: business } = await key({ plan: 'business', points: 10 });
    const res = await app.inject({ method: 'GET', url: '/v1/banks', headers: { authorization: business } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['ratelimit-policy'], undefined);
    assert.equal(res.headers.ratelimit, undefined);
  });
});

describe('per-plan request limits across instances on PostgreSQL', { skip: pgTestUrl ? false : 'KURS_TEST_DATABASE_URL is not set' }, () => {
  test('two app instances on one database share one starter account\'s 60 a minute', async () => {
    const schema = await pgSchema(pgTestUrl!);
    const stores = [openPostgres(schema.url, { poolSize: 5 }), openPostgres(schema.url, { poolSize: 5 })];
    const pointsCost = Object.fromEntries(ENDPOINT_IDS.map((id) => [id, 1])) as Record<EndpointId, number>;
    const apps = stores.map((store) => buildApp({ store, meter: new BatchMeter(store), market: new Market(store, SOURCES, 0), sources: SOURCES, pointsCost, now: () => SEED_TODAY, logLevel: 'silent' }));
    try {
      await stores[0]!.migrate();
      const { key } = await createKey(stores[0]!, { plan: 'starter', points: 1000 }, SEED_TODAY);
      // 90 concurrent requests, alternating between the instances: exactly 60 pass in total.
      const responses = await Promise.all(
        Array.from({ length: 90 }, (_, i) => apps[i % 2]!.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: key } })),
      );
      const statuses = responses.map((r) => r.statusCode);
      assert.equal(statuses.filter((s) => s === 200).length, 60, `statuses: ${statuses.join(',')}`);
      assert.equal(statuses.filter((s) => s === 429).length, 30);
      const byInstance = [0, 1].map((k) => responses.filter((r, i) => i % 2 === k && r.statusCode === 200).length);
      assert.ok(byInstance.every((n) => n > 0 && n < 60), `each instance served part of the quota: ${byInstance}`);
      const remaining = responses.filter((r) => r.statusCode === 200).map((r) => Number(/r=(\d+)/.exec(String(r.headers.ratelimit))![1]));
      assert.deepEqual(remaining.sort((a, b) => a - b), Array.from({ length: 60 }, (_, i) => i));
      // Once an instance has seen the limit passed, it refuses without counting again this minute.
      // Which instance got the 30 refusals is a race, so instance 0 first sees one for itself.
      const counted = async () => Number((await (stores[0] as SqlStore).db.selectFrom('request_windows').select('count').executeTakeFirstOrThrow()).count);
      assert.equal((await apps[0]!.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: key } })).statusCode, 429);
      const before = await counted();
      assert.equal((await apps[0]!.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: key } })).statusCode, 429);
      assert.equal(await counted(), before);
    } finally {
      for (const app of apps) await app.close();
      for (const store of stores) await store.close();
      await schema.drop();
    }
  });
});
