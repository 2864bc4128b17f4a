import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from './helpers.js';

describe('authentication and plan checks (D2, D3)', () => {
  let t: TestApp;
  let key: string;
  let accountId: string;
  before(async () => {
    t = await testApp();
    ({ key, accountId } = await t.key({ plan: 'professional', points: 100 }));
  });
  after(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  test('GET / answers without a key, in the envelope', async () => {
    const res = await get('/');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.code, 200);
    assert.match(body.message, /Welcome to Kurs/);
  });

  test('rejects a request without any key with 401 invalid_key', async () => {
    const res = await get('/v1/EUR/latest');
    assert.equal(res.statusCode, 401);
    assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'error', 'message']);
    assert.equal(res.json().error, 'invalid_key');
    assert.equal(res.json().code, 401);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.headers['x-points-cost'], undefined);
  });

  test('rejects a Bearer-prefixed key with 401', async () => {
    const res = await get('/v1/EUR/latest', { authorization: `Bearer ${key}` });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().error, 'invalid_key');
  });

  test('rejects keys with whitespace, changed case or one character off', async () => {
    const flipped = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
    for (const bad of [` ${key}`, `${key} `, key.toUpperCase(), flipped, 'kurs_', 'nonsense']) {
      const res = await get('/v1/EUR/latest', { authorization: bad });
      assert.equal(res.statusCode, 401, `accepted ${JSON.stringify(bad)}`);
    }
  });

  test('accepts the key as the api_key query parameter', async () => {
    const res = await get(`/v1/EUR/latest?api_key=${key}`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().rates.EUR, 1);
  });

  test('a present header wins over the query, even when the header is wrong', async () => {
    const res = await get(`/v1/EUR/latest?api_key=${key}`, { authorization: 'kurs_wrongwrongwrongwrongwrongwrong12' });
    assert.equal(res.statusCode, 401);
  });

  test('a blank header counts as absent, so the query key is used', async () => {
    const res = await get(`/v1/EUR/latest?api_key=${key}`, { authorization: '   ' });
    assert.equal(res.statusCode, 200);
  });

  test('a revoked key is 401 while a second key of the same account still works', async () => {
    const first = await t.key({ plan: 'business', points: 10 });
    const second = await t.key({ accountId: first.accountId });
    assert.equal((await t.store.listKeys(first.accountId)).length, 2);
    assert.ok(await t.store.revokeKey(first.keyId));
    assert.equal((await get('/v1/banks', { authorization: first.key })).statusCode, 401);
    const ok = await get('/v1/banks', { authorization: second.key });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.headers['x-points-remaining'], '9');
  });

  test('an expired plan is 402 plan_expired and costs nothing', async () => {
    const { key: expired, accountId: id } = await t.key({ plan: 'business', points: 5, expiresAt: '2026-04-01T00:00:00.000Z' });
    const res = await get('/v1/EUR/latest', { authorization: expired });
    assert.equal(res.statusCode, 402);
    assert.equal(res.json().error, 'plan_expired');
    assert.equal(res.headers['x-points-cost'], '0');
    assert.equal(res.headers['x-points-remaining'], '5');
    assert.equal((await t.store.getAccount(id))!.points, 5);
  });

  test('the bank endpoint is 403 plan_forbidden on starter, before validation, at no cost', async () => {
    const { key: starter } = await t.key({ plan: 'starter', points: 3 });
    const res = await get('/v1/bank/ECBF?format=bogus', { authorization: starter });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().error, 'plan_forbidden');
    assert.equal(res.headers['x-points-cost'], '0');
    assert.equal(res.headers['x-points-remaining'], '3');
    assert.equal((await get('/v1/banks', { authorization: starter })).statusCode, 200);
  });

  test('every 2xx costs one point and reports the balance; a 422 costs nothing', async () => {
    const before = (await t.store.getAccount(accountId))!.points;
    const ok = await get('/v1/currencies', { authorization: key });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.headers['x-points-cost'], '1');
    assert.equal(ok.headers['x-points-remaining'], String(before - 1));
    assert.equal(ok.headers['cache-control'], 'private, no-cache');
    const bad = await get('/v1/EUR/latest?amount=0', { authorization: key });
    assert.equal(bad.statusCode, 422);
    assert.equal(bad.headers['x-points-cost'], '0');
    assert.equal(bad.headers['x-points-remaining'], String(before - 1));
    assert.equal((await t.store.getAccount(accountId))!.points, before - 1);
  });

  test('an empty balance is 402 points_exhausted and the balance stays at zero', async () => {
    const { key: poor, accountId: id } = await t.key({ plan: 'business', points: 1 });
    assert.equal((await get('/v1/banks', { authorization: poor })).statusCode, 200);
    const res = await get('/v1/banks', { authorization: poor });
    assert.equal(res.statusCode, 402);
    assert.equal(res.json().error, 'points_exhausted');
    assert.equal(res.headers['x-points-remaining'], '0');
    assert.equal((await t.store.getAccount(id))!.points, 0);
  });

  test('the starter plan is limited to 60 requests a minute with 429 and Retry-After', async () => {
    const { key: starter, accountId: id } = await t.key({ plan: 'starter', points: 1000 });
    const statuses: number[] = [];
    let limited;
    for (let i = 0; i < 61; i++) {
      const res = await get('/v1/banks', { authorization: starter });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) limited = res;
    }
    assert.equal(statuses.filter((s) => s === 200).length, 60);
    assert.ok(limited, 'the 61st request was not limited');
    assert.equal(limited.json().error, 'rate_limited');
    assert.match(String(limited.headers['retry-after']), /^\d+$/);
    assert.equal(limited.headers['x-points-cost'], '0');
    assert.equal((await t.store.getAccount(id))!.points, 940);
  });

  test('keys never appear in the logs, neither from the header nor from the query', async () => {
    await get(`/v1/EUR/latest?api_key=${key}&amount=2`);
    await get('/v1/EUR/latest', { authorization: key });
    const logs = t.logs.join('');
    assert.ok(logs.includes('/v1/EUR/latest'), 'requests were not logged at all');
    assert.ok(!logs.includes(key), 'a key leaked into the logs');
    assert.ok(logs.includes('api_key=[redacted]'));
  });
});
