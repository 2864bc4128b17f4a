// A stop while a long history is compared with what is stored (D30): storing gives up between two
// slices of the comparison, nothing is stored and nothing is recorded in the source's health (a stop
// is not the feed's fault), and the same payload stores whole on the next try.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { ingestPayload } from '../src/ingest/ingest.js';
import { ParserStopped } from '../src/ingest/prepare.js';
import { sourceByCode } from '../src/sources/index.js';
import { openSqlite } from '../src/store/open.js';
import { fixtureDir } from './support/fixtures.js';

const NOW = new Date('2026-04-14T12:00:00Z');

test('a stop during the comparison of a long history stores nothing and records nothing', async () => {
  const store = openSqlite(':memory:');
  await store.migrate();
  try {
    const ecbf = sourceByCode('ECBF')!;
    // ECBF's history since 1999: ~200k figures, a hundred slices of the comparison.
    const payload = { name: 'eurofxref-hist.csv', body: readFileSync(join(fileURLToPath(fixtureDir()), 'ECBF', 'eurofxref-hist-2026-04-13.csv')) };
    const stop = new AbortController();
    stop.abort();
    await assert.rejects(ingestPayload(store, ecbf, payload, NOW, { signal: stop.signal }), ParserStopped);
    assert.equal(await store.hasSnapshots(), false);
    assert.deepEqual(await store.sourceHealth(), []);
    const again = await ingestPayload(store, ecbf, payload, NOW);
    assert.equal(again.status, 'stored');
    assert.ok(again.status === 'stored' && again.inserted > 100_000);
  } finally {
    await store.close();
  }
});
