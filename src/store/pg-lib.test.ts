// A SQLite server never loads node-postgres (part of every cold start); a PostgreSQL store does.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';

const pgLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((path) => /[\\/]node_modules[\\/]pg[\\/]/.test(path));

test('pg is loaded only when a PostgreSQL store is opened', async () => {
  // Everything `kurs serve` imports, then a SQLite store: no pg.
  await import('../server.js');
  const { openStore } = await import('./open.js');
  const sqlite = await openStore('sqlite::memory:');
  await sqlite.ping();
  assert.equal(pgLoaded(), false);
  // A pool is made but connects on its first query, so no server is needed here.
  const postgres = await openStore('postgres://kurs@127.0.0.1:1/none');
  assert.equal(pgLoaded(), true);
  await Promise.all([sqlite.close(), postgres.close()]);
});
