// The install-time build a first start copies (src/ingest/first-start.ts, issue 26): used only on a
// new SQLite file, only when complete and made by this code for this freshness grace; otherwise the
// server loads the history itself. A stand-in build (any SQLite file and its sidecar) is enough here:
// test/first-start-server.test.ts starts real servers from a real build.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { firstStartDb, loadConfig } from '../src/config.js';
import { adoptFirstStart, firstStartKey, usableBuild } from '../src/ingest/first-start-adopt.js';

const dir = mkdtempSync(join(tmpdir(), 'kurs-first-start-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A SQLite file with one marked row, and a sidecar saying it was built with `key`. */
function standIn(name: string, key: string): string {
  const path = join(dir, name);
  const db = new BetterSqlite3(path);
  db.exec(`create table marker (name text); insert into marker values ('${name}')`);
  db.close();
  writeFileSync(`${path}.json`, JSON.stringify({ key, builtAt: '2026-04-14T12:00:00.000Z', lastDay: '2026-04-14', observations: 1, days: 1, ms: 1 }));
  return path;
}

const marker = (path: string) => {
  const db = new BetterSqlite3(path, { readonly: true });
  try {
    return (db.prepare('select name from marker').get() as { name: string }).name;
  } finally {
    db.close();
  }
};

describe('the first-start build', () => {
  test('its key follows the freshness grace, and is the same for the same inputs', () => {
    assert.equal(firstStartKey(0), firstStartKey(0));
    assert.notEqual(firstStartKey(0), firstStartKey(3));
    assert.match(firstStartKey(0), /^[0-9a-f]{64}$/);
  });

  test('a new database file becomes a copy of a current build', async () => {
    const build = standIn('current.db', firstStartKey(0));
    const target = join(dir, 'new', 'kurs.db');
    const out = await adoptFirstStart(build, target, 0);
    assert.ok('adopted' in out, JSON.stringify(out));
    assert.equal(out.adopted.lastDay, '2026-04-14');
    assert.deepEqual(readFileSync(target), readFileSync(build));
    // Synced in the thread pool; the server waits for it before it listens.
    assert.equal(await out.durable, undefined);
    assert.equal(marker(target), 'current.db');
    // No scratch copy is left beside it.
    assert.deepEqual(readdirSync(join(dir, 'new')), ['kurs.db']);
  });

  test('an existing database is never replaced', async () => {
    const build = standIn('current2.db', firstStartKey(0));
    const target = standIn('mine.db', 'whatever');
    assert.deepEqual(await adoptFirstStart(build, target, 0), { skipped: 'the database exists' });
    assert.equal(marker(target), 'mine.db');
  });

  test('a stale build (other code or seed, other grace, other sources turned on) or a missing one is not used', async () => {
    const stale = standIn('stale.db', 'f'.repeat(64));
    const target = join(dir, 'fresh.db');
    const out = await adoptFirstStart(stale, target, 0);
    assert.deepEqual(out, { skipped: 'the install-time build is for other code or seed; npm run build:first-start redoes it' });
    // Built with the sources on by default (D22): a server that turns another on loads the seed itself.
    const defaults = standIn('defaults.db', firstStartKey(0));
    assert.deepEqual(await adoptFirstStart(defaults, target, 0, ['IMFD']), { skipped: 'the install-time build holds the default sources, not those KURS_ENABLE_SOURCES adds' });
    assert.equal(firstStartKey(0, ['CBTT', 'CBBS']), firstStartKey(0, ['CBBS', 'CBTT']));
    assert.equal(existsSync(target), false);
    const otherGrace = standIn('grace.db', firstStartKey(0));
    assert.deepEqual(await adoptFirstStart(otherGrace, target, 3), { skipped: 'the install-time build is for other code or seed; KURS_FRESHNESS_GRACE_DAYS=3 npm run build:first-start redoes it' });
    assert.equal(existsSync(target), false);
    assert.equal(usableBuild(join(dir, 'absent.db'), 365), 'no install-time build; KURS_FRESHNESS_GRACE_DAYS=365 npm run build:first-start makes one');
  });

  test('a build for a freshness grace has a file of its own: the offline demo\'s build never replaces the default one', () => {
    assert.match(firstStartDb(0), /[/\\]node_modules[/\\]\.cache[/\\]kurs[/\\]first-start\.db$/);
    assert.match(firstStartDb(365), /[/\\]node_modules[/\\]\.cache[/\\]kurs[/\\]first-start-grace-365\.db$/);
    assert.equal(loadConfig({}, false).firstStartDb, firstStartDb(0));
    assert.equal(loadConfig({ KURS_FRESHNESS_GRACE_DAYS: '365' }, false).firstStartDb, firstStartDb(365));
    assert.equal(loadConfig({ KURS_FRESHNESS_GRACE_DAYS: '365', KURS_FIRST_START_DB: '/elsewhere/build.db' }, false).firstStartDb, '/elsewhere/build.db');
    assert.equal(loadConfig({ KURS_FIRST_START_DB: 'off' }, false).firstStartDb, undefined);
  });

  test('a build without its sidecar (an interrupted install) is not used', async () => {
    const build = standIn('half.db', firstStartKey(0));
    rmSync(`${build}.json`);
    const out = await adoptFirstStart(build, join(dir, 'half-target.db'), 0);
    assert.deepEqual(out, { skipped: 'no install-time build; npm run build:first-start makes one' });
  });
});
