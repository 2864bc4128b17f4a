// Bench target 6: the full ECB history file (1999 onward) ingested into a fresh SQLite store, timed
// from the bytes in memory to the committed snapshot. Prints {ms, status, inserted} as JSON.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingestPayload } from '../src/ingest/ingest.js';
import { sourceByCode } from '../src/sources/index.js';
import { openSqlite } from '../src/store/open.js';

const file = process.argv[2]!;
const dir = mkdtempSync(join(tmpdir(), 'kurs-bench-ecb-'));
const store = openSqlite(join(dir, 'kurs.db'));
try {
  await store.migrate();
  const body = readFileSync(file);
  const started = performance.now();
  const out = await ingestPayload(store, sourceByCode('ECBF')!, { name: file.split('/').pop()!, body }, new Date());
  const ms = performance.now() - started;
  process.stdout.write(JSON.stringify({ ms, status: out.status, inserted: 'inserted' in out ? out.inserted : 0, ...(out.status === 'failed' ? { reason: out.reason } : {}) }));
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
