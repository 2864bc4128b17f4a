// The growth path end to end (issue 17), with real processes: traffic on SQLite, `kurs copy` to
// PostgreSQL, then two instances on PostgreSQL. The same keys work there (a revoked one does not),
// the balances are the same, the ledger reconciles, and a copy interrupted halfway is finished by
// rerunning it, with nothing duplicated. Skipped when KURS_TEST_DATABASE_URL is not set.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import type { Running } from '../bench/servers.js';
import { ecbDropDir } from './support/ecb-drop.js';
import { tempDb } from './helpers.js';
import { PG_TEST_URL, tempPgDatabase, type TempPg } from './support/pg.js';
import { BIN, kursJson, startServer, stopServer } from './support/server-process.js';

interface Created {
  key: string;
  key_id: string;
  account_id: string;
}
interface TableRow {
  table: string;
  sourceRows: number;
  targetRows: number;
  ok: boolean;
}

const kurs = (databaseUrl: string, ...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, KURS_DATABASE_URL: databaseUrl }, encoding: 'utf8' });
const balances = (url: string) => Object.fromEntries(kursJson<{ account_id: string; points: number }[]>(['accounts', 'list'], url).map((a) => [a.account_id, a.points]));

describe('moving from SQLite to PostgreSQL with kurs copy', { skip: PG_TEST_URL ? false : 'KURS_TEST_DATABASE_URL is not set' }, () => {
  const sqlite = tempDb();
  let pgDb: TempPg;
  const keys: Created[] = [];
  let revoked: Created;
  before(async () => {
    pgDb = await tempPgDatabase();
    const ingest = kurs(sqlite.url, 'ingest', 'ECBF', '--from-dir', ecbDropDir('2026-04-13', { USD: '1.1684', JPY: '187.10', GBP: '0.8712' }));
    assert.equal(ingest.status, 0, ingest.stderr);
    for (const points of [500, 80, 1_000_000]) keys.push(kursJson<Created>(['keys', 'create', '--plan', 'business', '--points', String(points)], sqlite.url));
    revoked = kursJson<Created>(['keys', 'create', '--account', keys[0]!.account_id], sqlite.url);
    keys.push(kursJson<Created>(['keys', 'create', '--account', keys[0]!.account_id], sqlite.url));
    assert.equal(kurs(sqlite.url, 'accounts', 'topup', keys[1]!.account_id, '--points', '20').status, 0);

    // Traffic on SQLite: every key, a few hundred charged requests, then a clean stop.
    const server = await startServer({ KURS_DATABASE_URL: sqlite.url, KURS_SEED: 'off', KURS_BOOTSTRAP_KEY: 'off' });
    const statuses = await Promise.all(Array.from({ length: 300 }, async (_, i) => (await fetch(`${server.url}/v1/EUR/latest`, { headers: { authorization: [...keys, revoked][i % 5]!.key } })).status));
    assert.ok(statuses.filter((s) => s === 200).length >= 200, statuses.join());
    assert.equal(kurs(sqlite.url, 'keys', 'revoke', revoked.key_id).status, 0);
    assert.equal(await stopServer(server.child), 0);
  });
  after(async () => {
    sqlite.cleanup();
    await pgDb.drop();
  });

  test('copies every table with equal counts and checksums; refuses to copy over accounts without --force', () => {
    const copied = kurs(sqlite.url, 'copy', '--to', pgDb.url, '--json');
    assert.equal(copied.status, 0, copied.stderr);
    const tables = JSON.parse(copied.stdout) as TableRow[];
    for (const name of ['plans', 'accounts', 'api_keys', 'ledger', 'usage_daily', 'observations', 'snapshots', 'source_health']) {
      const row = tables.find((t) => t.table === name);
      assert.ok(row?.ok, `${name}: ${JSON.stringify(row)}`);
    }
    assert.deepEqual(tables.find((t) => t.table === 'accounts')!.targetRows, 3);
    assert.ok(tables.find((t) => t.table === 'usage_daily')!.targetRows >= 4);
    const again = kurs(sqlite.url, 'copy', '--to', pgDb.url);
    assert.equal(again.status, 1);
    assert.match(again.stderr, /already holds accounts; give --force/);
    assert.deepEqual(balances(pgDb.url), balances(sqlite.url));
  });

  test('a copy interrupted halfway is finished by rerunning it, with nothing duplicated', async () => {
    // What a crash mid-copy leaves: the marker unfinished, later tables partly or not written.
    const c = new pg.Client({ connectionString: pgDb.url });
    await c.connect();
    await c.query(`update copy_runs set finished_at = null`);
    await c.query(`delete from ledger where id > (select min(id) from ledger)`);
    await c.query(`delete from observations where quote <> 'USD'`);
    await c.end();
    const rerun = kurs(sqlite.url, 'copy', '--to', pgDb.url, '--json');
    assert.equal(rerun.status, 0, rerun.stderr);
    assert.ok((JSON.parse(rerun.stdout) as TableRow[]).every((t) => t.ok && t.sourceRows === t.targetRows));
    assert.match(rerun.stderr, /resuming the unfinished copy/);
  });

  test('two instances on PostgreSQL: the same keys work, balances are the same, the ledger reconciles', async () => {
    const before = balances(sqlite.url);
    const env = { KURS_DATABASE_URL: pgDb.url, KURS_SEED: 'off', KURS_BOOTSTRAP_KEY: 'off' };
    const instances: Running[] = [await startServer(env), await startServer(env)];
    try {
      for (const [i, k] of keys.entries()) {
        const res = await fetch(`${instances[i % 2]!.url}/v1/EUR/latest`, { headers: { authorization: k.key } });
        assert.equal(res.status, 200, `key ${i}`);
        const body = (await res.json()) as { rates: Record<string, number> };
        assert.equal(body.rates.USD, 1.1684);
        // Keys 0 and 3 share an account: its balance moved once per request made with either.
        const expected = before[k.account_id]! - (i === 3 ? 2 : 1);
        assert.equal(Number(res.headers.get('x-points-remaining')), expected, `key ${i}`);
      }
      const gone = await fetch(`${instances[1]!.url}/v1/EUR/latest`, { headers: { authorization: revoked.key } });
      assert.equal(gone.status, 401);
    } finally {
      for (const s of instances) await stopServer(s.child);
    }
    const audit = kursJson<{ accounts: number; unreconciled: unknown[] }>(['audit'], pgDb.url);
    assert.deepEqual(audit, { accounts: 3, unreconciled: [] });
  });
});
