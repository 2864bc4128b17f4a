import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from './helpers.js';

const TOKEN = 'admin-token-0123456789abcdef';
const AUTH = { authorization: `Bearer ${TOKEN}` };

describe('admin API off without KURS_ADMIN_TOKEN', () => {
  test('every admin path is 404 not_found in the envelope', async () => {
    const t = await testApp();
    try {
      for (const [method, url] of [['GET', '/admin/v1/accounts'], ['POST', '/admin/v1/accounts'], ['PUT', '/admin/v1/accounts'], ['DELETE', '/admin/v1/keys/key_x']] as const) {
        const res = await t.app.inject({ method, url, headers: AUTH });
        assert.equal(res.statusCode, 404, `${method} ${url}`);
        assert.equal(res.json().error, 'not_found');
      }
    } finally {
      await t.close();
    }
  });
});

describe('admin API (/admin/v1)', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp({ adminToken: TOKEN });
  });
  after(() => t.close());

  const admin = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = AUTH) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const invalid = (res: { statusCode: number; json: () => { error: string; details: { field: string }[] } }, field: string) => {
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().error, 'invalid_body');
    assert.equal(res.json().details[0]?.field, field);
  };

  test('refuses a missing, wrong, unprefixed or customer credential with 401 invalid_key', async () => {
    const { key } = await t.key();
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcdef', TOKEN, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, `Bearer ${key}`, key, 'Bearer ']) {
      const res = await admin('GET', '/admin/v1/accounts', undefined, authorization === undefined ? {} : { authorization });
      assert.equal(res.statusCode, 401, String(authorization));
      assert.equal(res.json().error, 'invalid_key');
      assert.equal(res.headers['www-authenticate'], 'Bearer realm="kurs-admin"');
      assert.equal(res.headers['cache-control'], 'no-store');
    }
    // The token is refused before the body is read: a bad body without a token is still 401.
    assert.equal((await admin('POST', '/admin/v1/accounts', { plan: 7 }, {})).statusCode, 401);
    assert.equal((await admin('GET', '/admin/v1/plans', undefined, { authorization: `bearer ${TOKEN}` })).statusCode, 200);
  });

  test('creates an account with its first key; the key works on /v1 with that plan, balance and expiry', async () => {
    const res = await admin('POST', '/admin/v1/accounts', { plan: 'starter', points: 50, expires_at: '2027-01-31' });
    assert.equal(res.statusCode, 201);
    assert.equal(res.headers['cache-control'], 'no-store');
    const body = res.json();
    assert.deepEqual(Object.keys(body), ['code', 'message', 'key', 'key_id', 'account_id', 'plan', 'points', 'expires_at']);
    assert.equal(body.code, 201);
    assert.match(body.key, /^kurs_[0-9A-Za-z]{32}$/);
    assert.deepEqual([body.plan, body.points, body.expires_at], ['starter', 50, '2027-01-31 23:59:59']);
    const usage = await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: body.key } });
    assert.equal(usage.statusCode, 200);
    assert.deepEqual([usage.json().account_id, usage.json().points, usage.json().expires_at], [body.account_id, 50, '2027-01-31 23:59:59']);
    const defaults = (await admin('POST', '/admin/v1/accounts', {})).json();
    assert.deepEqual([defaults.plan, defaults.points, defaults.expires_at], ['starter', 1000, null]);
  });

  test('validates bodies: 422 naming the field, never a 500', async () => {
    invalid(await admin('POST', '/admin/v1/accounts', { plan: 'gold' }), 'plan');
    invalid(await admin('POST', '/admin/v1/accounts', { points: -1 }), 'points');
    invalid(await admin('POST', '/admin/v1/accounts', { points: '5' }), 'points');
    invalid(await admin('POST', '/admin/v1/accounts', { points: 1.5 }), 'points');
    invalid(await admin('POST', '/admin/v1/accounts', { expires_at: '2026-02-30' }), 'expires_at');
    invalid(await admin('POST', '/admin/v1/accounts', { plan: 'starter', admin: true }), 'body');
    invalid(await admin('POST', '/admin/v1/accounts', [1]), 'body');
    const notJson = await t.app.inject({ method: 'POST', url: '/admin/v1/accounts', headers: { ...AUTH, 'content-type': 'application/json' }, payload: '{"plan":' });
    assert.equal(notJson.statusCode, 422);
    const text = await t.app.inject({ method: 'POST', url: '/admin/v1/accounts', headers: { ...AUTH, 'content-type': 'text/plain' }, payload: 'plan=starter' });
    assert.equal(text.statusCode, 415);
  });

  test('reads, updates and tops up an account; unknown accounts are 404', async () => {
    const { account_id: id } = (await admin('POST', '/admin/v1/accounts', { plan: 'starter', points: 10 })).json();
    const shown = (await admin('GET', `/admin/v1/accounts/${id}`)).json();
    assert.deepEqual([shown.code, shown.account_id, shown.plan, shown.points, shown.expires_at], [200, id, 'starter', 10, null]);
    assert.match(shown.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.ok((await admin('GET', '/admin/v1/accounts')).json().accounts.some((a: { account_id: string }) => a.account_id === id));

    const patched = (await admin('PATCH', `/admin/v1/accounts/${id}`, { plan: 'business', expires_at: '2030-06-01T12:00:00Z' })).json();
    assert.deepEqual([patched.plan, patched.expires_at], ['business', '2030-06-01 12:00:00']);
    assert.equal((await admin('PATCH', `/admin/v1/accounts/${id}`, { expires_at: null })).json().expires_at, null);
    assert.equal((await t.store.getAccount(id))!.planId, 'business');
    invalid(await admin('PATCH', `/admin/v1/accounts/${id}`, {}), 'body');
    invalid(await admin('PATCH', `/admin/v1/accounts/${id}`, { plan: 'gold' }), 'plan');
    assert.equal((await t.store.getAccount(id))!.planId, 'business');

    const topped = await admin('POST', `/admin/v1/accounts/${id}/topup`, { points: 25 });
    assert.equal(topped.statusCode, 200);
    assert.equal(topped.json().points, 35);
    invalid(await admin('POST', `/admin/v1/accounts/${id}/topup`, { points: 0 }), 'points');
    invalid(await admin('POST', `/admin/v1/accounts/${id}/topup`, {}), 'points');

    for (const [method, url, body] of [
      ['GET', '/admin/v1/accounts/acc_nope', undefined], ['PATCH', '/admin/v1/accounts/acc_nope', { plan: 'starter' }],
      ['POST', '/admin/v1/accounts/acc_nope/topup', { points: 1 }], ['GET', '/admin/v1/accounts/acc_nope/usage', undefined],
      ['GET', '/admin/v1/accounts/acc_nope/keys', undefined], ['POST', '/admin/v1/accounts/acc_nope/keys', undefined],
    ] as const) {
      const res = await admin(method, url, body);
      assert.equal(res.statusCode, 404, `${method} ${url}`);
      assert.deepEqual(res.json(), { code: 404, message: 'no account acc_nope', error: 'not_found' });
    }
  });

  test('adds, lists and revokes keys; a revoked key is 401 while the account keeps its balance', async () => {
    const first = (await admin('POST', '/admin/v1/accounts', { plan: 'professional', points: 7 })).json();
    const second = await admin('POST', `/admin/v1/accounts/${first.account_id}/keys`);
    assert.equal(second.statusCode, 201);
    assert.deepEqual([second.json().account_id, second.json().points, second.json().plan], [first.account_id, 7, 'professional']);
    const listed = await admin('GET', `/admin/v1/accounts/${first.account_id}/keys`);
    assert.deepEqual(listed.json().keys.map((k: { key_id: string }) => k.key_id).sort(), [first.key_id, second.json().key_id].sort());
    assert.ok(!listed.body.includes(first.key) && !listed.body.includes(second.json().key), 'a whole key was listed');

    const revoked = await admin('DELETE', `/admin/v1/keys/${first.key_id}`);
    assert.equal(revoked.statusCode, 200);
    assert.equal(revoked.json().key_id, first.key_id);
    assert.equal((await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: first.key } })).statusCode, 401);
    assert.equal((await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: second.json().key } })).json().points, 7);
    const again = await admin('DELETE', `/admin/v1/keys/${first.key_id}`);
    assert.equal(again.statusCode, 404);
    assert.equal(again.json().message, `no live key ${first.key_id}`);
    assert.notEqual((await admin('GET', `/admin/v1/accounts/${first.account_id}/keys`)).json().keys.find((k: { key_id: string }) => k.key_id === first.key_id).revoked_at, null);
  });

  test('reads an account\'s usage, unwritten counts included', async () => {
    const { key, account_id: id } = (await admin('POST', '/admin/v1/accounts', { plan: 'business', points: 9 })).json();
    for (let i = 0; i < 3; i++) assert.equal((await t.app.inject({ method: 'GET', url: '/v1/EUR/latest', headers: { authorization: key } })).statusCode, 200);
    const res = await admin('GET', `/admin/v1/accounts/${id}/usage`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), {
      code: 200, message: `usage of account ${id}`, account_id: id, plan: 'business', points: 6, expires_at: null, monthly_points: 1_000_000, requests_per_minute: null,
      today: { date: '2026-04-14', requests: 3, points: 3 }, month: { month: '2026-04', requests: 3, points: 3 },
    });
  });

  test('runs the monthly refill, once per month', async () => {
    await t.store.createAccount({ id: 'acc_march', planId: 'starter', points: 1, expiresAt: null, createdAt: '2026-03-01T00:00:00.000Z' });
    const res = await admin('POST', '/admin/v1/refill');
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().period, '2026-04');
    assert.ok(res.json().refilled >= 1);
    assert.equal((await t.store.getAccount('acc_march'))!.points, 1000);
    assert.equal((await admin('POST', '/admin/v1/refill')).json().refilled, 0);
  });

  test('wrong methods are 405 with Allow; plans are listed', async () => {
    const res = await admin('PUT', '/admin/v1/accounts');
    assert.equal(res.statusCode, 405);
    assert.equal(res.headers.allow, 'GET, HEAD, POST');
    assert.equal((await admin('GET', '/admin/v1/keys/key_1')).headers.allow, 'DELETE');
    const plans = (await admin('GET', '/admin/v1/plans')).json().plans;
    assert.deepEqual(plans.map((p: { plan: string }) => p.plan), ['starter', 'professional', 'business']);
  });

  test('neither the admin token nor a created key reaches the logs', async () => {
    const created = (await admin('POST', '/admin/v1/accounts', {})).json();
    const logs = t.logs.join('');
    assert.ok(logs.includes('/admin/v1/accounts'), 'admin requests were not logged at all');
    assert.ok(!logs.includes(TOKEN), 'the admin token leaked into the logs');
    assert.ok(!logs.includes(created.key), 'a created key leaked into the logs');
  });
});
