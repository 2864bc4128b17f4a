import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { msToNextMonth, refillAccounts } from '../src/access/refill.js';
import { openSqlite } from '../src/store/open.js';
import { tempDb } from './helpers.js';

const BIN = fileURLToPath(new URL('../bin/kurs', import.meta.url));

describe('monthly refill (D12)', () => {
  test('the period is the UTC calendar month; the next one starts at midnight UTC on the 1st', () => {
    assert.equal(msToNextMonth(new Date('2026-12-31T23:59:59.000Z')), 1_000);
    assert.equal(msToNextMonth(new Date('2026-02-01T00:00:00.000Z')), 28 * 86_400_000);
  });

  test('refillAccounts refills accounts created before the month, once', async () => {
    const db = tempDb();
    const store = openSqlite(db.path);
    try {
      await store.migrate();
      await store.createAccount({ id: 'acc_old', planId: 'starter', points: 3, expiresAt: null, createdAt: '2026-11-30T23:59:59.999Z' });
      await store.createAccount({ id: 'acc_dec', planId: 'starter', points: 3, expiresAt: null, createdAt: '2026-12-01T00:00:00.000Z' });
      const at = new Date('2026-12-31T23:00:00Z');
      assert.deepEqual(await refillAccounts(store, at), { period: '2026-12', refilled: 1 });
      assert.deepEqual(await refillAccounts(store, at), { period: '2026-12', refilled: 0 });
      assert.equal((await store.getAccount('acc_old'))!.points, 1_000);
      assert.equal((await store.getAccount('acc_dec'))!.points, 3);
      assert.deepEqual(await refillAccounts(store, new Date('2027-01-01T00:00:01Z')), { period: '2027-01', refilled: 2 });
      assert.equal((await store.getAccount('acc_dec'))!.points, 1_000);
    } finally {
      await store.close();
      db.cleanup();
    }
  });
});

describe('kurs accounts refill and kurs usage', () => {
  test('refill grants once per month; usage shows today and this month from the database', async () => {
    const db = tempDb();
    const kurs = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, KURS_DATABASE_URL: db.url }, encoding: 'utf8' });
    try {
      assert.equal(kurs('migrate').status, 0);
      const store = openSqlite(db.path);
      const today = new Date().toISOString().slice(0, 10);
      await store.createAccount({ id: 'acc_cli', planId: 'professional', points: 5, expiresAt: null, createdAt: '2020-01-01T00:00:00.000Z' });
      await store.addUsage([
        { accountId: 'acc_cli', day: today, requests: 4, points: 3 },
        { accountId: 'acc_cli', day: `${today.slice(0, 7)}-01`, requests: today.endsWith('-01') ? 0 : 6, points: 0 },
      ]);
      await store.close();

      const first = kurs('accounts', 'refill', '--json');
      assert.equal(first.status, 0, first.stderr);
      assert.deepEqual(JSON.parse(first.stdout), { period: today.slice(0, 7), refilled: 1 });
      const again = kurs('accounts', 'refill');
      assert.equal(again.status, 0);
      assert.match(again.stdout, /^refilled 0 account\(s\) for \d{4}-\d{2} \(nothing left to refill this month\)$/m);

      const usage = kurs('usage', 'acc_cli', '--json');
      assert.equal(usage.status, 0, usage.stderr);
      assert.deepEqual(JSON.parse(usage.stdout), {
        account_id: 'acc_cli', plan: 'professional', points: 100_000, expires_at: null, monthly_points: 100_000, requests_per_minute: 600,
        today: { date: today, requests: 4, points: 3 }, month: { month: today.slice(0, 7), requests: today.endsWith('-01') ? 4 : 10, points: 3 },
      });
      assert.match(kurs('usage', 'acc_cli').stdout, /plan professional\s+points 100000/);
      const missing = kurs('usage', 'acc_nope');
      assert.equal(missing.status, 1);
      assert.equal(missing.stderr, 'kurs: no account acc_nope\n');
    } finally {
      db.cleanup();
    }
  });
});

describe('kurs serve refills at boot', () => {
  test('an account from an earlier month is raised to its allowance before the server listens', async () => {
    const db = tempDb();
    const store = openSqlite(db.path);
    await store.migrate();
    await store.createAccount({ id: 'acc_boot', planId: 'starter', points: 2, expiresAt: null, createdAt: '2020-01-01T00:00:00.000Z' });
    await store.close();
    const env = { ...process.env, KURS_DATABASE_URL: db.url, KURS_PORT: '0', KURS_INGEST: 'off', KURS_SEED: 'off', KURS_LOG_LEVEL: 'warn' };
    const child = spawn(process.execPath, [BIN, 'serve'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      for await (const line of createInterface({ input: child.stdout! })) if (line.startsWith('listening on')) break;
      const reopened = openSqlite(db.path);
      assert.equal((await reopened.getAccount('acc_boot'))!.points, 1_000);
      await reopened.close();
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
      db.cleanup();
    }
  });
});
