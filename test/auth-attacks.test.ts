// Authentication attacks (D2, D3): prefixes, whitespace and case games, revoked keys, expired plans,
// header and query disagreeing, and the timing of a wrong key. Every refusal costs nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from './helpers.js';

/** Tries per candidate key in the timing test, interleaved so drift hits every candidate alike. */
const TIMING_ROUNDS = 600;

describe('authentication attacks', () => {
  let t: TestApp;
  let key: string;
  let accountId: string;
  before(async () => {
    t = await testApp();
    ({ key, accountId } = await t.key({ plan: 'business', points: 100 }));
  });
  after(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const points = async (id = accountId) => (await t.store.getAccount(id))!.points;
  const assertRefused = async (res: Awaited<ReturnType<typeof get>>, what: string) => {
    assert.equal(res.statusCode, 401, `${what} got ${res.statusCode}`);
    assert.deepEqual(res.json(), { code: 401, message: res.json().message, error: 'invalid_key' });
    assert.equal(res.headers['x-points-cost'], undefined, 'a refused key learns no balance');
  };

  test('rejects every prefix scheme with 401 and charges nothing', async () => {
    const basic = Buffer.from(`${key}:`).toString('base64');
    for (const value of [`Bearer ${key}`, `bearer ${key}`, `BEARER ${key}`, `Basic ${basic}`, `Basic ${key}`, `Token ${key}`, `ApiKey ${key}`, `Key=${key}`, `${key},${key}`, `"${key}"`]) {
      await assertRefused(await get('/v1/EUR/latest', { authorization: value }), value);
      await assertRefused(await get(`/v1/EUR/latest?api_key=${encodeURIComponent(value)}`), `query ${value}`);
    }
    assert.equal(await points(), 100);
  });

  test('rejects the key with surrounding whitespace or any change of case', async () => {
    const body = key.slice(5);
    const swapped = body.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
    for (const value of [` ${key}`, `${key} `, `\t${key}`, `${key}\t`, `  ${key}  `, key.toUpperCase(), key.toLowerCase(), `KURS_${body}`, `kurs_${swapped}`]) {
      await assertRefused(await get('/v1/EUR/latest', { authorization: value }), JSON.stringify(value));
      await assertRefused(await get(`/v1/EUR/latest?api_key=${encodeURIComponent(value)}`), `query ${JSON.stringify(value)}`);
    }
    assert.equal(await points(), 100);
  });

  test('a revoked key is refused in the header and in the query, and its account keeps its points', async () => {
    const victim = await t.key({ plan: 'business', points: 50 });
    assert.equal((await get('/v1/banks', { authorization: victim.key })).statusCode, 200);
    assert.ok(await t.store.revokeKey(victim.keyId));
    await assertRefused(await get('/v1/banks', { authorization: victim.key }), 'revoked header');
    await assertRefused(await get(`/v1/banks?api_key=${victim.key}`), 'revoked query');
    assert.equal(await points(victim.accountId), 49);
  });

  test('a key of an expired plan gets 402 plan_expired on every endpoint and costs nothing', async () => {
    const expired = await t.key({ plan: 'business', points: 30, expiresAt: '2026-04-14T11:59:59.000Z' });
    for (const url of ['/v1/EUR/latest', '/v1/rate/EUR/USD', '/v1/bank/ECBF', '/v1/banks', '/v1/currencies']) {
      const res = await get(url, { authorization: expired.key });
      assert.equal(res.statusCode, 402, url);
      assert.equal(res.json().error, 'plan_expired');
      assert.equal(res.headers['x-points-cost'], '0');
      assert.equal(res.headers['x-points-remaining'], '30');
    }
    const post = await t.app.inject({ method: 'POST', url: '/v1/rates/convert', headers: { authorization: expired.key }, payload: { base: 'EUR', targets: ['USD'] } });
    assert.equal(post.statusCode, 402);
    assert.equal(await points(expired.accountId), 30);
  });

  test('header and query disagreeing: the header wins and only its account is charged', async () => {
    const other = await t.key({ plan: 'business', points: 20 });
    const before = await points();
    const res = await get(`/v1/banks?api_key=${other.key}`, { authorization: key });
    assert.equal(res.statusCode, 200);
    assert.equal(await points(), before - 1);
    assert.equal(await points(other.accountId), 20);
    // A wrong header is not rescued by a right query key.
    await assertRefused(await get(`/v1/banks?api_key=${key}`, { authorization: `Bearer ${key}` }), 'wrong header, right query');
    await assertRefused(await get(`/v1/banks?api_key=${key}&api_key=${key}`), 'api_key twice');
    assert.equal(await points(), before - 1);
    assert.equal(await points(other.accountId), 20);
  });

  test("a wrong key's rejection time does not depend on how much of it matched", async (ctx) => {
    // Same length and shape as the real key, so all reach the hash lookup; they share 0, 8, 20 or 31
    // characters of its body with it.
    const body = key.slice(5);
    const other = (c: string) => (c === 'z' ? 'y' : 'z');
    const candidates = [0, 8, 20, 31].map((shared) => `kurs_${body.slice(0, shared)}${[...body.slice(shared)].map(other).join('')}`);
    for (const c of candidates) assert.equal(c.length, key.length);
    const samples: number[][] = candidates.map(() => []);
    for (let round = 0; round < TIMING_ROUNDS; round++) {
      for (let i = 0; i < candidates.length; i++) {
        const started = process.hrtime.bigint();
        const res = await get('/v1/banks', { authorization: candidates[i]! });
        samples[i]!.push(Number(process.hrtime.bigint() - started) / 1e6);
        assert.equal(res.statusCode, 401);
      }
    }
    const medians = samples.map((s) => s.sort((a, b) => a - b)[Math.floor(s.length / 2)]!);
    const fastest = Math.min(...medians);
    ctx.diagnostic(`median rejection ms by shared prefix 0/8/20/31: ${medians.map((x) => x.toFixed(3)).join(' / ')}`);
    // A byte-by-byte comparison would show up as a rise with the shared prefix; a hash lookup shows
    // noise only. The bound is generous (50% or 0.3 ms) so a busy machine does not make it flaky.
    for (const [i, m] of medians.entries()) {
      assert.ok(m - fastest < Math.max(fastest * 0.5, 0.3), `medians ${medians.map((x) => x.toFixed(3)).join(', ')} ms (candidate ${i})`);
    }
  });
});
