import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { ingestDir, ingestPayload } from '../src/ingest/ingest.js';
import { Market } from '../src/rates/market.js';
import { SOURCES, sourceByCode } from '../src/sources/index.js';
import { openSqlite } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { fixtureDir } from './support/fixtures.js';
import { SEED_TODAY, tempDb } from './helpers.js';

/** After the newest recorded payload, so that no figure is dated ahead. */
const AFTER_FIXTURES = new Date('2026-11-22T12:00:00Z');

const FIXTURES_URL = fixtureDir();
const FIXTURES = fileURLToPath(FIXTURES_URL);
/** The whole corpus imported, as `kurs ingest --from-dir test/fixtures/sources` does. */
const ingestAll = (store: Store) => ingestDir(store, SOURCES, FIXTURES, () => AFTER_FIXTURES);

describe('ingest of the real recorded payloads', () => {
  let store: Store;
  let db: ReturnType<typeof tempDb>;
  before(async () => {
    db = tempDb();
    store = openSqlite(db.path);
    await store.migrate();
  });
  after(async () => {
    await store.close();
    db.cleanup();
  });

  test('imports every payload of every adapter without error, and a second run changes nothing', async () => {
    const first = await ingestAll(store);
    const failed = first.outcomes.filter((o) => o.status === 'failed');
    assert.deepEqual(failed, []);
    assert.deepEqual([...new Set(first.outcomes.map((o) => o.source))].sort(), SOURCES.map((s) => s.code).sort());
    assert.deepEqual(first.unknownFolders, [], 'a folder has no adapter');
    const version = await store.dataVersion();
    const second = await ingestAll(store);
    // Pages that hold no rates by design (an index, a form) stay "no publication"; all else is known.
    assert.ok(second.outcomes.every((o) => o.status === 'duplicate' || o.status === 'no_publication'), 'second run stored something');
    assert.equal(await store.dataVersion(), version);
  });

  test('the blend over the full import agrees with the ECB on its own day within 1% for the majors', async () => {
    const market = new Market(store, SOURCES, 0);
    const { rates } = await market.rebuild(SEED_TODAY);
    const ecb = (await store.recentObservations(0)).filter((r) => r.source === 'ECBF' && r.date === '2026-04-13');
    assert.ok(ecb.length > 20);
    let worst = 0;
    for (const r of ecb) {
      // Deep-market currencies only; test/blend-real.test.ts prints the rest (docs/blending.md).
      if (!rates.has(r.quote) || !['USD', 'JPY', 'GBP', 'CHF', 'AUD', 'CAD', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK'].includes(r.quote)) continue;
      const deviation = Math.abs(Number(rates.pair('EUR', r.quote)!.text) / Number(r.rate) - 1);
      worst = Math.max(worst, deviation);
    }
    // A coarse check that the whole import blends sensibly: 1%, twice the 0.5% goal that
    // test/blend-real.test.ts holds every bank day to (with its listed exceptions).
    assert.ok(worst < 0.01, `worst deviation ${worst}`);
  });

  test('a folder without an adapter is skipped, its files listed, and the rest still imports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kurs-unknown-'));
    try {
      mkdirSync(join(dir, 'ZZZZ'));
      writeFileSync(join(dir, 'ZZZZ', 'rates.json'), '[]');
      mkdirSync(join(dir, 'ECBF'));
      copyFileSync(join(FIXTURES, 'ECBF', 'eurofxref-daily-2025-05-09.xml'), join(dir, 'ECBF', 'eurofxref-daily-2025-05-09.xml'));
      const report = await ingestDir(store, SOURCES, dir, () => AFTER_FIXTURES);
      assert.deepEqual(report.unknownFolders, ['ZZZZ']);
      assert.deepEqual(report.skippedFiles, ['ZZZZ/rates.json']);
      assert.equal(report.outcomes.length, 1);
      assert.notEqual(report.outcomes[0]!.status, 'failed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a file over the feed limit is not read: it fails with the limit named, in the source\'s health too (D36)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kurs-over-limit-'));
    try {
      mkdirSync(join(dir, 'ECBF'));
      const small = 'eurofxref-daily-2025-05-09.xml';
      const large = 'eurofxref-hist-2026-04-13.csv';
      for (const file of [small, large]) copyFileSync(join(FIXTURES, 'ECBF', file), join(dir, 'ECBF', file));
      const size = statSync(join(dir, 'ECBF', large)).size;
      assert.ok(size > 1_000_000 && size < 8 * 1024 * 1024, `the recorded history is ${size} bytes`);
      const before = await store.dataVersion();
      const limited = await ingestDir(store, SOURCES, dir, () => AFTER_FIXTURES, undefined, { maxBytes: 1_000_000 });
      const reason = `file ECBF/${large} is ${size} bytes, larger than the feed limit of 1000000 bytes (KURS_FEED_MAX_BYTES)`;
      assert.deepEqual(limited.outcomes.map((o) => [o.name, o.status, 'reason' in o ? o.reason : '']), [
        [small, 'duplicate', ''],
        [large, 'failed', reason],
      ]);
      assert.equal((await store.sourceHealth()).find((h) => h.source === 'ECBF')?.lastError, reason);
      assert.equal(await store.dataVersion(), before);
      // Under the default limit (8 MiB, no operator's) the same file is read.
      const read = await ingestDir(store, SOURCES, dir, () => AFTER_FIXTURES);
      assert.deepEqual(read.outcomes.map((o) => o.status), ['duplicate', 'duplicate']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a bad payload is rejected with a reason and the stored data stays', async () => {
    const ecbf = sourceByCode('ECBF')!;
    const before = await store.dataVersion();
    for (const body of ['<html><body>Service unavailable</body></html>', '<?xml version="1.0"?><gesmes:Envelope><Cube><Cube time="2026-04-14">', '']) {
      const outcome = await ingestPayload(store, ecbf, { name: 'eurofxref-daily.xml', body: Buffer.from(body) }, SEED_TODAY);
      assert.equal(outcome.status, 'failed');
      assert.ok('reason' in outcome && outcome.reason.length > 0);
    }
    assert.equal(await store.dataVersion(), before);
  });
});
