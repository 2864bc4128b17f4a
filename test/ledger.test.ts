// The points ledger end to end (issue 17): the admin API's ledger route, `kurs accounts history`
// and `kurs audit` on a real SQLite file, including an account whose balance was changed behind
// the ledger's back.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { testApp, type TestApp } from './helpers.js';
import { BIN } from './support/server-process.js';

const TOKEN = 'ledger-test-token-0123456789';
const AUTH = { authorization: `Bearer ${TOKEN}` };

interface LedgerBody {
  account_id: string;
  entries: { kind: string; amount: number; balance: number; actor: string; requests: number; detail: string | null }[];
}

describe('points ledger over the admin API and the command line', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp({ adminToken: TOKEN });
  });
  after(() => t.close());

  const kurs = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, KURS_DATABASE_URL: `sqlite:${t.dbPath}` }, encoding: 'utf8' });

  test('GET /admin/v1/accounts/{id}/ledger lists every balance change with its actor; charges are one row per day', async () => {
    const created = (await t.app.inject({ method: 'POST', url: '/admin/v1/accounts', headers: AUTH, payload: { plan: 'starter', points: 20 } })).json() as { key: string; account_id: string };
    const id = created.account_id;
    for (let i = 0; i < 3; i++) assert.equal((await t.app.inject({ method: 'GET', url: '/v1/EUR/latest', headers: { authorization: created.key } })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'POST', url: `/admin/v1/accounts/${id}/topup`, headers: AUTH, payload: { points: 10 } })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'PATCH', url: `/admin/v1/accounts/${id}`, headers: AUTH, payload: { plan: 'business' } })).statusCode, 200);
    const res = await t.app.inject({ method: 'GET', url: `/admin/v1/accounts/${id}/ledger`, headers: AUTH });
    assert.equal(res.statusCode, 200);
    const body = res.json() as LedgerBody;
    assert.equal(body.account_id, id);
    assert.deepEqual(body.entries.map((e) => [e.kind, e.amount, e.actor, e.requests]), [
      ['open', 20, 'admin-api', 0],
      ['key_create', 0, 'admin-api', 0],
      ['charge', -3, 'charge', 3],
      ['topup', 10, 'admin-api', 0],
      ['plan_change', 0, 'admin-api', 0],
    ]);
    assert.deepEqual(body.entries.map((e) => e.balance), [20, 20, 17, 27, 27]);
    const edited = await t.app.inject({ method: 'PATCH', url: `/admin/v1/accounts/${id}`, headers: AUTH, payload: { points: 5 } });
    assert.equal(edited.json().points, 5);
    const last = (await t.app.inject({ method: 'GET', url: `/admin/v1/accounts/${id}/ledger?limit=1`, headers: AUTH })).json() as LedgerBody;
    assert.deepEqual(last.entries.map((e) => [e.kind, e.amount, e.balance, e.actor]), [['admin_edit', -22, 5, 'admin-api']]);
    const two = (await t.app.inject({ method: 'GET', url: `/admin/v1/accounts/${id}/ledger?limit=2`, headers: AUTH })).json() as LedgerBody;
    assert.equal(two.entries[0]!.detail, 'starter → business');
    assert.equal((await t.app.inject({ method: 'GET', url: '/admin/v1/accounts/acc_none/ledger', headers: AUTH })).json().error, 'not_found');
    const bad = await t.app.inject({ method: 'GET', url: `/admin/v1/accounts/${id}/ledger?limit=0`, headers: AUTH });
    assert.equal(bad.statusCode, 422);
    assert.equal(bad.json().details[0].field, 'limit');
  });

  test('kurs accounts history prints the ledger; kurs audit is clean, then names an account changed behind its back', async () => {
    const { accountId, key } = await t.key({ plan: 'business', points: 50 });
    assert.equal((await t.app.inject({ method: 'GET', url: '/v1/EUR/latest', headers: { authorization: key } })).statusCode, 200);
    const history = kurs('accounts', 'history', accountId, '--json');
    assert.equal(history.status, 0, history.stderr);
    assert.deepEqual((JSON.parse(history.stdout) as { kind: string; amount: number }[]).map((e) => [e.kind, e.amount]), [['open', 50], ['key_create', 0], ['charge', -1]]);
    assert.match(kurs('accounts', 'history', 'acc_none').stderr, /no account acc_none/);

    const clean = kurs('audit');
    assert.equal(clean.status, 0, clean.stderr);
    assert.match(clean.stdout, /0 not reconciled/);

    const raw = new BetterSqlite3(t.dbPath);
    raw.prepare('update accounts set points = points + 7 where id = ?').run(accountId);
    raw.close();
    const off = kurs('audit');
    assert.equal(off.status, 1);
    assert.match(off.stdout, new RegExp(`${accountId} .*OFF BY 7`));
    assert.match(off.stderr, new RegExp(`1 account\\(s\\) do not reconcile: ${accountId} \\(ledger 49, balance 56\\)`));
  });
});
