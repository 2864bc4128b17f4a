// Backups while serving (issue 17). SQLite: `kurs backup` taken during charged traffic opens, passes
// its integrity check, its ledger reconciles with its balances, and Kurs serves from it. PostgreSQL:
// one pg_dump / pg_restore round trip keeps balances, ledger and the charge function; when
// KURS_TEST_DATABASE_URL is set, missing pg_dump or pg_restore binaries fail the test, never skip it.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { createKey } from '../src/access/accounts.js';
import { openPostgres } from '../src/store/open.js';
import { tempDb } from './helpers.js';
import { PG_TEST_URL, tempPgDatabase } from './support/pg.js';
import { BIN, kursJson, startServer, stopServer } from './support/server-process.js';

const run = promisify(execFile);
const START = 1_000_000;
const COST = 3;

interface Audit {
  accounts: number;
  unreconciled: unknown[];
}
const balances = (url: string) => Object.fromEntries(kursJson<{ account_id: string; points: number }[]>(['accounts', 'list'], url).map((a) => [a.account_id, a.points]));

describe('backups while serving', () => {
  test('SQLite: kurs backup during charged traffic is consistent and restorable', async () => {
    const db = tempDb();
    const env = { KURS_DATABASE_URL: db.url, KURS_SEED: 'off', KURS_BOOTSTRAP_KEY: 'off', KURS_POINTS_COST: `banks=${COST}` };
    try {
      const keys = [0, 1].map(() => kursJson<{ key: string; account_id: string }>(['keys', 'create', '--plan', 'business', '--points', String(START)], db.url));
      const server = await startServer(env);
      let running = true;
      let served = 0;
      const loops = Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; running && i < 20_000; i++) {
          const res = await fetch(`${server.url}/v1/banks`, { headers: { authorization: keys[(w + i) % 2]!.key } });
          await res.arrayBuffer();
          if (res.status === 200) served++;
        }
      });
      // Traffic before and after the backup, counted rather than slept for (a busy machine is slow).
      const servedAtLeast = async (n: number) => {
        while (served < n) await sleep(10);
      };
      await servedAtLeast(50);
      // A folder that does not exist yet is made.
      const file = join(db.path, '..', 'backups', 'new', 'backup.db');
      const backup = await run(process.execPath, [BIN, 'backup', file, '--json'], { env: { ...process.env, KURS_DATABASE_URL: db.url } });
      // At most 8 requests were in flight when the copy was taken: 50 more answers include charges after it.
      await servedAtLeast(served + 50);
      running = false;
      await Promise.all(loops);
      assert.equal(await stopServer(server.child), 0);

      assert.equal((JSON.parse(backup.stdout) as { integrity: string }).integrity, 'ok');
      const copy = `sqlite:${file}`;
      assert.deepEqual(kursJson<Audit>(['audit'], copy), { accounts: 2, unreconciled: [] });
      const [atBackup, atEnd] = [balances(copy), balances(db.url)];
      for (const k of keys) {
        // Taken mid-traffic: after some charges, before others, and at a whole-charge boundary.
        assert.ok(atBackup[k.account_id]! <= START && atBackup[k.account_id]! >= atEnd[k.account_id]!, `${atBackup[k.account_id]} vs ${atEnd[k.account_id]}`);
        assert.equal((START - atBackup[k.account_id]!) % COST, 0);
      }
      const spentBefore = keys.reduce((t, k) => t + START - atBackup[k.account_id]!, 0);
      const spentAfter = keys.reduce((t, k) => t + atBackup[k.account_id]! - atEnd[k.account_id]!, 0);
      assert.ok(spentBefore > 0 && spentAfter > 0, `backup not taken during traffic: ${spentBefore} before, ${spentAfter} after, ${served} served`);

      // Restoring is starting Kurs on the file.
      const restored = await startServer({ ...env, KURS_DATABASE_URL: copy });
      try {
        const res = await fetch(`${restored.url}/v1/banks`, { headers: { authorization: keys[0]!.key } });
        assert.equal(res.status, 200);
        assert.equal(Number(res.headers.get('x-points-remaining')), atBackup[keys[0]!.account_id]! - COST);
      } finally {
        await stopServer(restored.child);
      }
      const again = spawnSync(process.execPath, [BIN, 'backup', file], { env: { ...process.env, KURS_DATABASE_URL: db.url }, encoding: 'utf8' });
      assert.equal(again.status, 1);
      assert.match(again.stderr, /exists already/);
    } finally {
      db.cleanup();
    }
  });

  test('PostgreSQL: a pg_dump / pg_restore round trip keeps balances, the ledger and charging', { skip: PG_TEST_URL ? false : 'KURS_TEST_DATABASE_URL is not set' }, async () => {
    for (const bin of ['pg_dump', 'pg_restore']) {
      assert.equal(spawnSync(bin, ['--version']).status, 0, `${bin} is not installed: CI must install the PostgreSQL client (postgresql-client)`);
    }
    const [from, to] = [await tempPgDatabase(), await tempPgDatabase()];
    const dir = tempDb();
    try {
      const store = openPostgres(from.url, { poolSize: 2 });
      await store.migrate();
      const a = await createKey(store, { plan: 'business', points: 100 }, new Date());
      const b = await createKey(store, { plan: 'starter', points: 10 }, new Date());
      await store.chargeBatch([{ accountId: a.account_id, cost: 7 }, { accountId: b.account_id, cost: 4 }, { accountId: a.account_id, cost: 1 }]);
      await store.topUp(b.account_id, 5, 'cli');
      await store.close();

      const dump = join(dir.path, '..', 'kurs.dump');
      await run('pg_dump', ['--format=custom', '--file', dump, from.url]);
      await run('pg_restore', ['--no-owner', '--dbname', to.url, dump]);

      assert.deepEqual(balances(to.url), { [a.account_id]: 92, [b.account_id]: 11 });
      assert.deepEqual(kursJson<Audit>(['audit'], to.url), { accounts: 2, unreconciled: [] });
      const restored = openPostgres(to.url, { poolSize: 2 });
      try {
        await restored.migrate();
        assert.deepEqual(await restored.chargeBatch([{ accountId: a.account_id, cost: 2 }]), [{ ok: true, remaining: 90 }]);
        const c = await createKey(restored, { plan: 'starter', points: 1 }, new Date());
        assert.ok(c.account_id);
        assert.equal((await restored.ledgerSums()).length, 3);
      } finally {
        await restored.close();
      }
    } finally {
      dir.cleanup();
      await from.drop();
      await to.drop();
    }
  });
});
