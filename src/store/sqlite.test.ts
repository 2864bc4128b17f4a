import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openSqlite, SQLITE_CACHE_KIB } from './open.js';
import type { SqlStore } from './sql-store.js';
import { storeContract } from './store.contract.js';

storeContract('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kurs-store-'));
  const store = openSqlite(join(dir, 'kurs.db'));
  await store.migrate();
  return {
    store,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

test('a SQLite connection keeps a page cache of SQLITE_CACHE_KIB, not the 16 MB better-sqlite3 builds with', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kurs-store-'));
  const store = openSqlite(join(dir, 'kurs.db')) as SqlStore;
  try {
    const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(store.db);
    assert.deepEqual(rows, [{ cache_size: -SQLITE_CACHE_KIB }]);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
