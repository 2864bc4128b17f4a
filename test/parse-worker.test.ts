// The server's parsing thread (D29): payloads parsed in the worker are stored exactly as those parsed
// on the calling thread, follow steps give the same requests, and a failure in the worker is the
// source's failure, never a crash.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { ingestDir, ingestPayload } from '../src/ingest/ingest.js';
import { ParserThread } from '../src/ingest/parser-thread.js';
import { ParserStopped } from '../src/ingest/prepare.js';
import { SOURCES, sourceByCode } from '../src/sources/index.js';
import { openSqlite } from '../src/store/open.js';
import type { SqlStore } from '../src/store/sql-store.js';
import type { Store } from '../src/store/store.js';
import { fixtureDir } from './support/fixtures.js';

const NOW = new Date('2026-11-22T12:00:00Z');
const FIXTURES = fileURLToPath(fixtureDir());
/** A JSON API of 124k figures, workbooks (one revising the other) and a JSON range: more rows than
 *  one message or one compared slice holds. */
const CODES = ['BCAN', 'CBCT', 'NRBT', 'SBPP'];

async function memoryStore(): Promise<Store> {
  const store = openSqlite(':memory:');
  await store.migrate();
  return store;
}

const storedRows = (store: Store) =>
  (store as SqlStore).db.selectFrom('observations').select(['source', 'quote', 'date', 'rate', 'direction', 'unit', 'tbl']).orderBy('source').orderBy('quote').orderBy('date').execute();

describe('the parsing thread', () => {
  let parser: ParserThread;
  before(() => {
    parser = new ParserThread();
  });
  after(() => parser.close());

  test('stores the same figures, with the same counts, as parsing on the calling thread', async () => {
    const here = await memoryStore();
    const there = await memoryStore();
    try {
      const a = await ingestDir(here, SOURCES, FIXTURES, () => NOW, CODES);
      const b = await ingestDir(there, SOURCES, FIXTURES, () => NOW, CODES, { prepare: parser.prepare });
      assert.deepEqual(b.outcomes, a.outcomes);
      assert.ok(a.outcomes.every((o) => o.status === 'stored'), JSON.stringify(a.outcomes));
      assert.ok(a.outcomes.some((o) => o.status === 'stored' && o.revised > 0), 'a workbook revises the other');
      const rows = await storedRows(here);
      assert.ok(rows.length > 100_000);
      assert.deepEqual(await storedRows(there), rows);
    } finally {
      await here.close();
      await there.close();
    }
  });

  test("a payload the adapter refuses fails as the source's rejected payload, in the same words", async () => {
    const ecbf = sourceByCode('ECBF')!;
    const html = { name: 'eurofxref-daily.xml', body: Buffer.from('<!DOCTYPE html><html><body>Service unavailable</body></html>') };
    const here = await memoryStore();
    const there = await memoryStore();
    try {
      const a = await ingestPayload(here, ecbf, html, NOW);
      const b = await ingestPayload(there, ecbf, html, NOW, { prepare: parser.prepare });
      assert.equal(b.status, 'failed');
      assert.deepEqual(b, a);
      const health = (await there.sourceHealth()).find((h) => h.source === 'ECBF');
      assert.equal(health?.lastError, a.status === 'failed' ? a.reason : undefined);
    } finally {
      await here.close();
      await there.close();
    }
  });

  test("a worker that crashes fails the payload it held as the source's failure; the caller goes on", async () => {
    const crashing = new ParserThread({ file: new URL('./support/crashing-parse-worker.ts', import.meta.url) });
    const store = await memoryStore();
    try {
      const outcome = await ingestPayload(store, sourceByCode('ECBF')!, { name: 'eurofxref-daily.xml', body: Buffer.from('<x/>') }, NOW, { prepare: crashing.prepare });
      assert.equal(outcome.status, 'failed');
      assert.match(outcome.status === 'failed' ? outcome.reason : '', /^unexpected Error: the parse worker failed: an adapter's bug outside its promise/);
      assert.match((await store.sourceHealth()).find((h) => h.source === 'ECBF')?.lastError ?? '', /parse worker failed/);
    } finally {
      await crashing.close();
      await store.close();
    }
  });

  test("a follow step runs in the worker with the same requests, and fails in the same words, as on the calling thread", async () => {
    const baja = sourceByCode('BAJA')!;
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const ctx = { base: 'http://127.0.0.1:1' };
    const url = `${ctx.base}/market/foreign-exchange/counter-rates/`;
    const page = { name: url, url, body: readFileSync(join(FIXTURES, 'BAJA', 'boja-counter-rates-page-2026-03-23.html')), cookie: 'wp=1' };
    const requests = await parser.follow(baja, page, window, ctx);
    assert.deepEqual(requests, baja.follow!(page, window, ctx));
    assert.equal(requests.length, 1);
    const notFound = { ...page, body: Buffer.from('<html><body>Page not found</body></html>') };
    const here = (() => {
      try {
        baja.follow!(notFound, window, ctx);
      } catch (err) {
        return (err as Error).message;
      }
    })();
    assert.ok(here);
    await assert.rejects(parser.follow(baja, notFound, window, ctx), { message: here });
  });

  test('closing fails the parses still waiting with ParserStopped, and no later parse starts a worker', async () => {
    const closing = new ParserThread();
    const body = Buffer.from('<x/>');
    const waiting = assert.rejects(closing.prepare(sourceByCode('ECBF')!, { name: 'eurofxref-daily.xml', body }, '2026-11-22'), ParserStopped);
    await closing.close();
    await waiting;
    await assert.rejects(closing.prepare(sourceByCode('ECBF')!, { name: 'eurofxref-daily.xml', body }, '2026-11-22'), ParserStopped);
  });
});
