// The rates worker (D31) opens its own connection with the operator's PostgreSQL settings, not
// built-in ones: KURS_DB_QUERY_TIMEOUT_MS reaches its builds as it does the server's queries (the
// worker once opened with the defaults, a 15 s query timeout whatever was set). Shown on a real
// server: the figures' table is locked, so the build's first read waits; with a 100 ms timeout the
// build fails while the read waits. The lock goes once the build has answered, or once PostgreSQL
// shows the read waiting for 5 s (its own clock, pg_stat_activity): with the built-in 15 s the build
// would then go on and succeed, and the test fail. Skipped when KURS_TEST_DATABASE_URL is not set.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { RatesThread } from '../src/rates/rates-thread.js';
import { enabledSources } from '../src/sources/enabled.js';
import { SOURCES } from '../src/sources/index.js';
import { openPostgres, PG_DEFAULTS } from '../src/store/open.js';
import { SEED_TODAY } from './helpers.js';
import { pgSchema, pgTestUrl } from './support/pg-schema.js';

test('PostgreSQL: the rates worker\'s queries time out as the operator set', { skip: pgTestUrl ? false : 'KURS_TEST_DATABASE_URL is not set' }, async () => {
  const schema = await pgSchema(pgTestUrl!);
  const store = openPostgres(schema.url, { poolSize: 1 });
  const locker = new pg.Client({ connectionString: schema.url });
  // Another client watches: a transaction sees pg_stat_activity as it was at its first look.
  const watcher = new pg.Client({ connectionString: schema.url });
  const thread = new RatesThread({ databaseUrl: schema.url, pg: { ...PG_DEFAULTS, queryTimeoutMs: 100 } });
  try {
    await store.migrate();
    await locker.connect();
    await watcher.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE observations IN ACCESS EXCLUSIVE MODE');
    let answered = false;
    const outcome = thread.build(enabledSources(SOURCES, []), SEED_TODAY, 0).then(
      () => 'built',
      (err: Error) => err.message,
    );
    void outcome.then(() => (answered = true));
    const waitedLong = async () => {
      const { rows } = await watcher.query(`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and clock_timestamp() - query_start > interval '5 seconds' and query ilike '%observations%'`);
      return (rows[0] as { n: number }).n > 0;
    };
    while (!answered && !(await waitedLong())) await new Promise((r) => setTimeout(r, 50));
    await locker.query('ROLLBACK');
    assert.match(await outcome, /timeout/i, 'the build read past the operator\'s 100 ms');
  } finally {
    await locker.end().catch(() => undefined);
    await watcher.end().catch(() => undefined);
    await thread.close();
    await store.close();
    await schema.drop();
  }
});
