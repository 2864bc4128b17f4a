// What a start loads for fetching: the npm undici only when a source will need its own TLS pool
// (src/sources/tls.ts), loaded before listening by loadFetch when polling is on. In order, in this
// file's own process (as src/store/pg-lib.test.ts does for pg): a module once loaded stays loaded.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';

const undiciLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((path) => /[\\/]node_modules[\\/]undici[\\/]/.test(path));

test('the npm undici is loaded by loadFetch when a source names TLS intermediates, and not before', async () => {
  // Everything `kurs serve` imports: no undici.
  await import('../server.js');
  const { loadFetch } = await import('./scheduler.js');
  const { SOURCES } = await import('../sources/index.js');
  assert.ok(SOURCES.filter((s) => (s.tlsIntermediates ?? []).length > 0).length > 0, 'some bundled source names TLS intermediates');
  assert.equal(undiciLoaded(), false, 'importing the server and its sources does not load it');
  loadFetch([{}, { tlsIntermediates: [] }]);
  assert.equal(undiciLoaded(), false, 'no source that needs it: not loaded');
  loadFetch(SOURCES);
  assert.equal(undiciLoaded(), true, 'a source that needs it: loaded before listening');
});
