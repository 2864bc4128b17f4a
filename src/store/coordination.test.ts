// The ingester lock and data notifications on a real PostgreSQL server, with two holders in one
// process on their own connections. Skipped when KURS_TEST_DATABASE_URL is not set.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { PG_TEST_URL, tempPgDatabase, type TempPg } from '../../test/support/pg.js';
import { PgCoordination } from './coordination.js';
import { openPostgres } from './open.js';
import type { Store } from './store.js';

const TICK_MS = 200;

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function holder(url: string, contend = true) {
  const events = { leader: false, changes: [] as boolean[], data: 0 };
  const c = new PgCoordination(url, TICK_MS, 2_000, contend);
  c.start({ onData: () => void events.data++, onLeader: (l) => { events.leader = l; events.changes.push(l); } });
  return { c, events };
}

describe('PostgreSQL coordination: one ingester, data notifications', { skip: PG_TEST_URL ? false : 'KURS_TEST_DATABASE_URL is not set' }, () => {
  let db: TempPg;
  let store: Store;
  before(async () => {
    db = await tempPgDatabase();
    store = openPostgres(db.url, { poolSize: 2 });
    await store.migrate();
  });
  after(async () => {
    await store.close();
    await db.drop();
  });

  test('exactly one holder leads; when it stops another takes over', async () => {
    const a = holder(db.url);
    await until('a leader', () => a.events.leader);
    const b = holder(db.url);
    await new Promise((r) => setTimeout(r, TICK_MS * 4));
    assert.equal(b.events.leader, false, 'a second holder must not lead while the first holds the lock');
    await a.c.stop();
    assert.deepEqual(a.events.changes, [true, false]);
    await until('b to take over', () => b.events.leader, TICK_MS * 10);
    await b.c.stop();
  });

  test('a leader whose session is killed steps down, and again exactly one leads', async () => {
    const a = holder(db.url);
    await until('a leader', () => a.events.leader);
    const b = holder(db.url);
    await new Promise((r) => setTimeout(r, TICK_MS * 2));
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    // The lock holder is the session holding an advisory lock in this database.
    const { rows } = await admin.query(`select pid from pg_locks where locktype = 'advisory' and granted`);
    assert.equal(rows.length, 1);
    await admin.query('select pg_terminate_backend($1)', [rows[0].pid]);
    await admin.end();
    await until('a to step down', () => a.events.changes.includes(false), TICK_MS * 15);
    // Either may win the lock next (a reconnects too), but there is again exactly one leader.
    await until('a new leader', () => a.events.leader || b.events.leader, TICK_MS * 15);
    await new Promise((r) => setTimeout(r, TICK_MS * 4));
    assert.equal(Number(a.events.leader) + Number(b.events.leader), 1);
    await a.c.stop();
    await b.c.stop();
  });

  test('an instance that does not ingest only listens: it never takes the lock', async () => {
    const quiet = holder(db.url, false);
    await until('listening', () => quiet.events.data > 0);
    await new Promise((r) => setTimeout(r, TICK_MS * 4));
    assert.deepEqual(quiet.events.changes, []);
    const a = holder(db.url);
    await until('the contender to lead', () => a.events.leader);
    await a.c.stop();
    await quiet.c.stop();
  });

  test('a stored snapshot notifies every listener; a rolled-back one does not', async () => {
    const a = holder(db.url);
    const b = holder(db.url);
    await until('both listening', () => a.events.data > 0 && b.events.data > 0);
    const [da, dbb] = [a.events.data, b.events.data];
    const snapshot = { source: 'ECBF', name: 'x.xml', sha256: 'c'.repeat(64), at: '2026-04-14T12:00:00.000Z', rows: [{ quote: 'USD', date: '2026-04-13', rate: '1.1684', direction: 'indirect' as const, unit: 1, table: '' }] };
    await assert.rejects(store.storeSnapshot({ ...snapshot, rows: [...snapshot.rows, { ...snapshot.rows[0]!, rate: null as unknown as string }] }));
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual([a.events.data, b.events.data], [da, dbb]);
    await store.storeSnapshot(snapshot);
    await until('both notified', () => a.events.data > da && b.events.data > dbb, 5_000);
    await a.c.stop();
    await b.c.stop();
  });
});
