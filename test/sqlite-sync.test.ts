// KURS_SQLITE_SYNC (issue 17): `normal` stays the default; `full` makes SQLite sync the WAL at every
// commit, so a committed charge survives a power loss. Checked on the connection Kurs opens.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/store/open.js';
import type { SqlStore } from '../src/store/sql-store.js';
import { tempDb } from './helpers.js';

test('KURS_SQLITE_SYNC: normal by default, full on request, anything else refused', () => {
  assert.equal(loadConfig({}).sqliteSync, 'normal');
  assert.equal(loadConfig({ KURS_SQLITE_SYNC: 'full' }).sqliteSync, 'full');
  assert.throws(() => loadConfig({ KURS_SQLITE_SYNC: 'off' }), /KURS_SQLITE_SYNC must be "normal" or "full"/);
});

test('the store opens SQLite with synchronous NORMAL (1) or FULL (2)', async () => {
  for (const [sync, level] of [['normal', 1], ['full', 2]] as const) {
    const db = tempDb();
    const store = (await openStore(db.url, undefined, sync)) as SqlStore;
    try {
      const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(store.db);
      assert.equal(rows[0]!.synchronous, level, sync);
    } finally {
      await store.close();
      db.cleanup();
    }
  }
});
