// On PostgreSQL the one ingester materialises and the other instances read (issue 14): two stores
// on one database, one History each; the follower reloads exactly what the ingester wrote, and sees
// days a new snapshot touches as pending until the ingester has rebuilt them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dayBody } from '../src/http/bodies/day.js';
import { History } from '../src/history/history.js';
import { loadSeed } from '../src/ingest/seed.js';
import { SOURCES } from '../src/sources/index.js';
import { openPostgres } from '../src/store/open.js';
import { seed, SEED_TODAY } from './helpers.js';
import { pgSchema, pgTestUrl } from './support/pg-schema.js';

const TODAY = SEED_TODAY.toISOString().slice(0, 10);

test('PostgreSQL: the ingester materialises, another instance reads the same answers', { skip: pgTestUrl ? false : 'KURS_TEST_DATABASE_URL is not set' }, async () => {
  const schema = await pgSchema(pgTestUrl!);
  const ingester = openPostgres(schema.url, { poolSize: 3 });
  const reader = openPostgres(schema.url, { poolSize: 3 });
  try {
    await ingester.migrate();
    await loadSeed(ingester, SOURCES, seed(), SEED_TODAY);
    const leader = new History(ingester, SOURCES, 0);
    const follower = new History(reader, SOURCES, 0);
    await follower.load();
    assert.equal(await follower.range('2026-04-01', '2026-04-10'), undefined, 'nothing materialised yet');
    await leader.load();
    await leader.materialise(TODAY);
    await follower.sync();
    assert.ok(await follower.range('2026-04-01', '2026-04-10'));
    for (const day of ['2026-04-10', '2026-04-11', '2026-03-02', '2019-02-01']) {
      const a = dayBody(await leader.day(day), 'USD', day, undefined)?.body;
      assert.equal(dayBody(await follower.day(day), 'USD', day, undefined)?.body, a, day);
    }
    // A backfill of one source: the follower sees the touched days pending until the ingester is done.
    const row = { quote: 'USD', date: '2026-04-08', rate: '1.2', direction: 'indirect' as const, unit: 1, table: '' };
    await ingester.storeSnapshot({ source: 'ECBF', name: 'revision', sha256: 'e'.repeat(64), rows: [row], at: SEED_TODAY.toISOString() });
    await follower.sync();
    assert.equal(follower.isReady('2026-04-08'), false);
    assert.equal(follower.isReady('2026-04-06'), true, 'a day before the touched ones stays');
    const done = await leader.materialise(TODAY);
    assert.deepEqual(done.ranges, [{ from: '2026-04-07', to: TODAY }]);
    await follower.sync();
    assert.equal(follower.isReady('2026-04-08'), true);
    assert.equal(dayBody(await follower.day('2026-04-08'), 'EUR', '2026-04-08', undefined)?.body, dayBody(await leader.day('2026-04-08'), 'EUR', '2026-04-08', undefined)?.body);
  } finally {
    await ingester.close();
    await reader.close();
    await schema.drop();
  }
});
