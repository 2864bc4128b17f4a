import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { enabledSources } from '../src/sources/enabled.js';
import { SOURCES as REGISTRY } from '../src/sources/index.js';
import { tempDb } from './helpers.js';

/** The sources of a default start: those whose terms allow commercial use (D22). */
const SOURCES = enabledSources(REGISTRY, []);

const BIN = fileURLToPath(new URL('../bin/kurs', import.meta.url));

describe('the kurs command line (DESIGN contracts)', () => {
  let db: ReturnType<typeof tempDb>;
  before(() => {
    db = tempDb();
  });
  after(() => db.cleanup());

  const kurs = (...args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, KURS_DATABASE_URL: db.url }, encoding: 'utf8' });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const json = (...args: string[]) => {
    const r = kurs(...args);
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  };

  test('migrate, then plans list --json shows the default plans', () => {
    assert.equal(kurs('migrate').status, 0);
    const plans = json('plans', 'list', '--json');
    assert.deepEqual(plans.map((p: { plan: string }) => p.plan), ['starter', 'professional', 'business']);
    assert.deepEqual(plans[0], { plan: 'starter', name: 'Starter', monthly_points: 1000, requests_per_minute: 60, endpoints: ['latest', 'rate', 'convert', 'banks', 'currencies', 'history'] });
  });

  test('keys create --json prints the contract fields; the plan allowance is the default balance', () => {
    const created = json('keys', 'create', '--plan', 'professional', '--json');
    assert.deepEqual(Object.keys(created), ['key', 'key_id', 'account_id', 'plan', 'points', 'expires_at']);
    assert.match(created.key, /^kurs_[0-9A-Za-z]{32}$/);
    assert.equal(created.plan, 'professional');
    assert.equal(created.points, 100_000);
    assert.equal(created.expires_at, null);
  });

  test('--expires with a date means the end of that day, UTC; --account adds a key to an account', () => {
    const created = json('keys', 'create', '--plan', 'starter', '--points', '50', '--expires', '2027-01-31', '--json');
    assert.equal(created.expires_at, '2027-01-31T23:59:59.999Z');
    assert.equal(created.points, 50);
    const second = json('keys', 'create', '--account', created.account_id, '--plan', 'business', '--points', '9', '--json');
    assert.equal(second.account_id, created.account_id);
    assert.equal(second.plan, 'starter');
    assert.equal(second.points, 50);
    const keys = json('keys', 'list', '--account', created.account_id, '--json');
    assert.deepEqual(keys.map((k: { key_id: string }) => k.key_id).sort(), [created.key_id, second.key_id].sort());
    assert.ok(!JSON.stringify(keys).includes(created.key), 'keys list shows a whole key');
  });

  test('accounts show, topup, update and list', () => {
    const { account_id: id } = json('keys', 'create', '--plan', 'starter', '--points', '10', '--json');
    assert.deepEqual(json('accounts', 'show', id, '--json'), { account_id: id, plan: 'starter', points: 10, expires_at: null, created_at: json('accounts', 'show', id, '--json').created_at });
    const topup = kurs('accounts', 'topup', id, '--points', '25');
    assert.equal(topup.status, 0);
    assert.match(topup.stdout, /35 points/);
    assert.equal(kurs('accounts', 'update', id, '--plan', 'business', '--expires', '2030-06-01T12:00:00Z').status, 0);
    let shown = json('accounts', 'show', id, '--json');
    assert.equal(shown.plan, 'business');
    assert.equal(shown.points, 35);
    assert.equal(shown.expires_at, '2030-06-01T12:00:00.000Z');
    assert.equal(kurs('accounts', 'update', id, '--no-expiry').status, 0);
    shown = json('accounts', 'show', id, '--json');
    assert.equal(shown.expires_at, null);
    assert.ok(json('accounts', 'list', '--json').some((a: { account_id: string }) => a.account_id === id));
  });

  test('keys revoke revokes once', () => {
    const { key_id: keyId } = json('keys', 'create', '--json');
    assert.equal(kurs('keys', 'revoke', keyId).status, 0);
    const again = kurs('keys', 'revoke', keyId);
    assert.equal(again.status, 1);
    assert.equal(again.stderr, `kurs: no live key ${keyId}\n`);
  });

  test('bad arguments exit non-zero with one line saying what is wrong', () => {
    const cases: [string[], RegExp][] = [
      [['keys', 'create', '--plan', 'gold'], /^kurs: no plan gold/],
      [['keys', 'create', '--points', '-5'], /--points must be a whole number/],
      [['keys', 'create', '--expires', '2026-02-30'], /--expires must be a date/],
      [['keys', 'create', '--expires', '2020-01-01'], /^kurs: --expires 2020-01-01 is in the past: the key would be expired from the start; give a later date, or leave --expires out for no expiry$/],
      [['keys', 'create', '--expires', '2020-01-01T00:00:00Z', '--json'], /^kurs: --expires 2020-01-01T00:00:00Z is in the past/],
      [['accounts', 'show', 'acc_nope'], /^kurs: no account acc_nope$/],
      [['accounts', 'topup', 'acc_nope'], /required option '--points <n>' not specified/],
      [['keys', 'frobnicate'], /unknown command 'frobnicate'/],
      [['ingest', '--from-dir', '/nonexistent/dir'], /^kurs: cannot read \/nonexistent\/dir/],
      [['ingest', 'QQQQ', '--from-dir', '/tmp'], /^kurs: no adapter for QQQQ/],
    ];
    for (const [args, message] of cases) {
      const r = kurs(...args);
      assert.notEqual(r.status, 0, args.join(' '));
      assert.match(r.stderr.split('\n')[0]!, message, args.join(' '));
    }
  });

  test('a key born expired is refused and nothing is created', () => {
    const before = json('accounts', 'list', '--json').length;
    assert.equal(kurs('keys', 'create', '--plan', 'starter', '--expires', '2020-01-01').status, 1);
    assert.equal(json('accounts', 'list', '--json').length, before);
  });

  test('--version prints the version of package.json', () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const r = kurs(flag);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, `${version}\n`);
    }
  });

  test('every command has --help', () => {
    for (const args of [[], ['serve'], ['migrate'], ['ingest'], ['keys'], ['keys', 'create'], ['keys', 'revoke'], ['keys', 'list'], ['accounts'], ['accounts', 'show'], ['accounts', 'list'], ['accounts', 'topup'], ['accounts', 'update'], ['plans', 'list']]) {
      const r = kurs(...args, '--help');
      assert.equal(r.status, 0, args.join(' '));
      assert.match(r.stdout, /^Usage: kurs/, args.join(' '));
    }
  });

  test('invalid configuration stops with every problem listed', () => {
    const r = spawnSync(process.execPath, [BIN, 'migrate'], {
      env: { ...process.env, KURS_DATABASE_URL: 'mysql://x', KURS_PORT: 'eighty', KURS_SEED: 'maybe' },
      encoding: 'utf8',
    });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /KURS_DATABASE_URL/);
    assert.match(r.stderr, /KURS_PORT/);
    assert.match(r.stderr, /KURS_SEED/);
  });
  test('sources --json: one row per adapter with its health (shared with /status and /metrics)', () => {
    const rows = json('sources', '--json');
    // One row per registered adapter, whatever their number (the registry is the count's one home).
    assert.deepEqual(rows.map((r: { source: string }) => r.source).sort(), SOURCES.map((s) => s.code).sort());
    assert.deepEqual(Object.keys(rows[0]), ['source', 'name', 'cadence', 'period_rates', 'schedule', 'feed_url', 'terms_url', 'terms', 'newest_observation', 'newest_valid_to', 'missed_publications', 'last_success', 'seeded', 'last_error_at', 'last_error', 'failing', 'rejections']);
    const ecb = rows.find((r: { source: string }) => r.source === 'ECBF');
    assert.deepEqual([ecb.newest_observation, ecb.missed_publications, ecb.failing, ecb.rejections], [null, null, false, 0]);
  });
});
