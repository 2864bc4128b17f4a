// Three `kurs serve` processes started at the same moment on an empty PostgreSQL database (issue 17):
// the seeding lock lets one load the seed and create the first-start account while the others wait
// and then find both done. Without the lock, in both of two tries, one of the three exited at boot
// on the others' writes. Skipped when KURS_TEST_DATABASE_URL is not set.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import pg from 'pg';
import { startKurs } from '../bench/servers.js';
import { PG_TEST_URL, tempPgDatabase } from './support/pg.js';
import { enabledSources } from '../src/sources/enabled.js';
import { SOURCES as REGISTRY } from '../src/sources/index.js';
import { seed } from './helpers.js';

describe('seeding an empty PostgreSQL database', { skip: PG_TEST_URL ? false : 'KURS_TEST_DATABASE_URL is not set' }, () => {
  test('three instances started together load the seed once and create one first-start account', async () => {
    const db = await tempPgDatabase();
    const env = { KURS_DATABASE_URL: db.url, KURS_INGEST: 'off', KURS_LOG_LEVEL: 'warn', KURS_SEED: 'on', KURS_BOOTSTRAP_KEY: 'on' };
    const both = await Promise.allSettled([startKurs(env), startKurs(env), startKurs(env)]);
    try {
      const running = both.map((r) => {
        assert.equal(r.status, 'fulfilled', r.status === 'rejected' ? String(r.reason) : '');
        return (r as PromiseFulfilledResult<Awaited<ReturnType<typeof startKurs>>>).value;
      });
      const lines = running.flatMap((r) => r.lines);
      assert.deepEqual(lines.filter((l) => l.startsWith('seed:')), [], 'a seed payload failed to load');
      assert.equal(lines.filter((l) => l.startsWith('First start')).length, 1, lines.join('\n'));
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      try {
        const counts = (await c.query<{ accounts: string; snapshots: string }>("select (select count(*) from accounts) as accounts, (select count(*) from snapshots where name = 'seed') as snapshots")).rows[0]!;
        assert.equal(Number(counts.accounts), 1);
        // The recent seed, once per source a default start uses (D22: sources off by default load no
        // seed); the history batches that load after listening are named apart.
        const on = new Set(enabledSources(REGISTRY, []).map((s) => s.code));
        const expected = seed().sources.filter((s) => on.has(s.source)).length;
        assert.ok(expected < seed().sources.length, 'some seeded source is off by default');
        assert.equal(Number(counts.snapshots), expected);
      } finally {
        await c.end();
      }
      for (const r of running) {
        const res = await fetch(`${r.url}/v1/EUR/latest`, { headers: { authorization: 'kurs_' + '0'.repeat(32) } });
        assert.equal(res.status, 401);
      }
    } finally {
      for (const r of both) {
        if (r.status !== 'fulfilled') continue;
        r.value.child.kill('SIGTERM');
        if (r.value.child.exitCode === null) await once(r.value.child, 'exit');
      }
      await db.drop();
    }
  });
});
