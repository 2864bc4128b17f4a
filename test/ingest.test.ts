import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { ingestDir, ingestPayload } from '../src/ingest/ingest.js';
import { buildSeed, formatSeed } from '../src/ingest/seed.js';
import { Market } from '../src/rates/market.js';
import { SOURCES, sourceByCode } from '../src/sources/index.js';
import { openSqlite } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { fixturesDir, seed, SEED_TODAY, tempDb } from './helpers.js';

/** After the newest recorded payload, so that no figure is dated ahead. */
const AFTER_FIXTURES = new Date('2026-11-22T12:00:00Z');
import { readFileSync } from 'node:fs';
import { SEED_FILE } from '../src/server.js';

const FIXTURES = fileURLToPath(fixturesDir);
const skip = existsSync(FIXTURES) ? false : `shared fixtures not found at ${FIXTURES}`;

describe('ingest of the real recorded payloads', { skip }, () => {
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
    const first = await ingestDir(store, SOURCES, FIXTURES, () => AFTER_FIXTURES);
    const failed = first.outcomes.filter((o) => o.status === 'failed');
    assert.deepEqual(failed, []);
    assert.deepEqual([...new Set(first.outcomes.map((o) => o.source))].sort(), SOURCES.map((s) => s.code).sort());
    assert.ok(first.unknownFolders.length > 0 && !first.unknownFolders.includes('ECBF'));
    const version = await store.dataVersion();
    const second = await ingestDir(store, SOURCES, FIXTURES, () => AFTER_FIXTURES);
    assert.ok(second.outcomes.every((o) => o.status === 'duplicate'), 'second run stored something');
    assert.equal(await store.dataVersion(), version);
  });

  test('the blend over the full import agrees with the ECB on its own day within 0.5%', async () => {
    const market = new Market(store, SOURCES, 0);
    const { rates } = await market.rebuild(SEED_TODAY);
    const ecb = (await store.recentObservations(0)).filter((r) => r.source === 'ECBF' && r.date === '2026-04-13');
    assert.ok(ecb.length > 20);
    let worst = 0;
    for (const r of ecb) {
      if (!rates.has(r.quote)) continue;
      const deviation = Math.abs(Number(rates.pair('EUR', r.quote)!.text) / Number(r.rate) - 1);
      worst = Math.max(worst, deviation);
    }
    assert.ok(worst < 0.005, `worst deviation ${worst}`);
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

  test('the committed seed is what `npm run seed` generates from ../shared', async () => {
    assert.equal(readFileSync(SEED_FILE, 'utf8'), formatSeed(await buildSeed(FIXTURES, SOURCES)), 'seed/seed.json is stale: run `npm run seed`');
    assert.ok(seed().sources.every((s) => s.provenance.length > 0));
  });
});
