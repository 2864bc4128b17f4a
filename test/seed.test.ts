// The bundled seed: regenerated from test/fixtures/sources it equals the committed files, it holds every recorded
// figure (recent part + compressed history), and the history loads in resumable background batches.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { Decimal } from '../src/money/decimal.js';
import { buildSeed, formatSeed, loadSeed, type BuiltSeed } from '../src/ingest/seed.js';
import { batchRows, compressHistory, historyBatches, lastBatch, formatManifest, historyPart, openSeedHistory, readSeedHistory, SEED_HISTORY_FILE, type HistoryRow, type SeedHistory } from '../src/ingest/seed-history-file.js';
import { HistoryReadiness, loadSeedHistory, startSeedHistory } from '../src/ingest/seed-history.js';
import { SEED_FILE } from '../src/server.js';
import { SOURCES } from '../src/sources/index.js';
import { openPostgres, openSqlite } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { seed, SEED_TODAY, tempDb } from './helpers.js';
import { fixtureDir } from './support/fixtures.js';
import { PG_TEST_URL, tempPgDatabase } from './support/pg.js';

const FIXTURES_URL = fixtureDir();
const FIXTURES = fileURLToPath(FIXTURES_URL);

describe('the committed seed', () => {
  let built: BuiltSeed;
  let committed: SeedHistory;
  before(async () => {
    [built, committed] = await Promise.all([buildSeed(FIXTURES, SOURCES), readSeedHistory()]);
  });

  test('is what `npm run seed` generates from the recordings: seed.json, history.json and the history text', () => {
    assert.equal(readFileSync(SEED_FILE, 'utf8'), formatSeed(built.recent), 'seed/seed.json is stale: run `npm run seed`');
    assert.equal(readFileSync(SEED_HISTORY_FILE, 'utf8'), formatManifest(built.history.manifest), 'seed/history.json is stale: run `npm run seed`');
    // Compared as text: gzip's bytes may differ between zlib versions, the rows may not.
    assert.ok(committed.text === built.history.text, 'seed/history.tsv.gz is stale: run `npm run seed`');
    assert.equal(createHash('sha256').update(committed.text).digest('hex'), committed.manifest.sha256);
  });

  test('holds every recorded figure, about 700,000, in a few MB', () => {
    const recent = built.recent.sources.reduce((n, s) => n + s.rows.length, 0);
    assert.ok(recent + committed.manifest.rows > 700_000, `${recent} + ${committed.manifest.rows}`);
    assert.equal(committed.text.split('\n').filter((l) => l !== '' && !l.startsWith('# ')).length, committed.manifest.rows);
    const bytes = readFileSync(new URL(committed.manifest.data, SEED_HISTORY_FILE)).length + readFileSync(SEED_FILE).length;
    assert.ok(bytes < 5_000_000, `${bytes} bytes`);
    const ecb = committed.manifest.sources.find((s) => s.source === 'ECBF')!;
    assert.equal(ecb.first, '1999-01-04');
    assert.ok(seed().sources.every((s) => s.provenance.length > 0) && committed.manifest.sources.every((s) => s.provenance.length > 0));
  });

  test('history ends where each source\'s recent part begins, so no figure is in both', () => {
    for (const h of committed.manifest.sources) {
      const recent = seed().sources.find((s) => s.source === h.source)!;
      assert.ok(h.last < recent.rows[0]![0], `${h.source}: history to ${h.last}, recent from ${recent.rows[0]![0]}`);
    }
  });
});

describe('the history text', () => {
  const row = (date: string, quote: string): HistoryRow => [date, quote, '1.5', 1, 'direct', ''];
  const text = historyPart([
    { source: 'AAAA', provenance: [], rows: [row('2001-01-01', 'USD'), row('2001-01-01', 'EUR'), row('2001-01-02', 'USD')] },
    { source: 'BBBB', provenance: [], rows: [row('2002-01-01', 'USD'), row('2002-01-02', 'USD'), row('2002-01-03', 'USD'), row('2002-01-04', 'NOK')] },
  ]).text;

  test('is cut into batches of one source each, at most maxRows rows, that together hold every row', () => {
    const batches = [...historyBatches(text, 2)];
    assert.deepEqual(batches.map((b) => [b.source, batchRows(b.body).map((r) => `${r[0]} ${r[1]}`)]), [
      ['AAAA', ['2001-01-01 USD', '2001-01-01 EUR']], ['AAAA', ['2001-01-02 USD']],
      ['BBBB', ['2002-01-01 USD', '2002-01-02 USD']], ['BBBB', ['2002-01-03 USD', '2002-01-04 NOK']],
    ]);
    assert.deepEqual(batchRows(batches[0]!.body)[0], row('2001-01-01', 'USD'));
  });

  test('streamed from its compressed file, gives the same batches as from the text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kurs-history-'));
    try {
      const part = historyPart([{ source: 'AAAA', provenance: [], rows: [row('2001-01-01', 'USD'), row('2001-01-01', 'EUR')] }]);
      writeFileSync(join(dir, 'history.json'), formatManifest(part.manifest));
      writeFileSync(join(dir, part.manifest.data), await compressHistory(text));
      const file = await openSeedHistory(pathToFileURL(join(dir, 'history.json')));
      for (const max of [1, 2, 3, 4, 500]) {
        const streamed = [];
        for await (const b of file.batches(max)) streamed.push(b);
        assert.deepEqual(streamed, [...historyBatches(text, max)], `maxRows ${max}`);
        assert.deepEqual(await lastBatch(file, max), streamed.at(-1));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the bundled file streams the batches its whole text gives (chunk edges cut no line)', async () => {
    const [file, whole] = await Promise.all([openSeedHistory(), readSeedHistory()]);
    const digest = (b: { source: string; body: string }) => `${b.source} ${createHash('sha256').update(b.body).digest('hex')}`;
    const streamed: string[] = [];
    for await (const b of file.batches(500)) streamed.push(digest(b));
    assert.deepEqual(streamed, [...historyBatches(whole.text, 500)].map(digest));
  });
});

/** The first `n` rows of one source of the committed history, as a small history of its own. */
function slice(history: SeedHistory, source: string, n: number): SeedHistory {
  const start = history.text.indexOf(`# ${source}\n`) + source.length + 3;
  const rows: HistoryRow[] = batchRows(history.text.slice(start, history.text.indexOf('\n# ', start) + 1)).slice(0, n);
  return historyPart([{ source, provenance: [], rows }]);
}

/** A migrated store and how to throw it away. */
type Opened = { store: Store; cleanup: () => Promise<void> };

async function sqlite(): Promise<Opened> {
  const db = tempDb();
  const store = openSqlite(db.path);
  return { store, cleanup: async () => (await store.close(), db.cleanup()) };
}

async function postgres(): Promise<Opened> {
  const db = await tempPgDatabase();
  const store = openPostgres(db.url);
  return { store, cleanup: async () => (await store.close(), await db.drop()) };
}

const ENGINES = [['SQLite', sqlite, false], ['PostgreSQL', postgres, PG_TEST_URL ? false : 'KURS_TEST_DATABASE_URL not set']] as const;

for (const [engine, open, skipEngine] of ENGINES) describe(`loading the history in the background (${engine})`, { skip: skipEngine }, () => {
  let store: Store;
  let opened: Opened;
  let small: SeedHistory;
  before(async () => {
    opened = await open();
    store = opened.store;
    await store.migrate();
    await loadSeed(store, SOURCES, seed(), SEED_TODAY);
    small = slice(await readSeedHistory(), 'BBOT', 2_300);
  });
  after(() => opened.cleanup());

  test('an interrupted load resumes where it stopped, and a finished one stores nothing again', async () => {
    const abort = new AbortController();
    let batches = 0;
    const pause = async () => {
      if (++batches === 3) abort.abort();
    };
    const first = await loadSeedHistory(store, SOURCES, small, () => SEED_TODAY, { batchRows: 500, pause, signal: abort.signal });
    assert.deepEqual([first.stored, first.already, first.inserted], [2, 0, 1_000]);
    const version = await store.dataVersion();
    const second = await loadSeedHistory(store, SOURCES, small, () => SEED_TODAY, { batchRows: 500 });
    assert.deepEqual([second.stored, second.already, second.inserted, second.failed], [3, 2, 1_300, []]);
    assert.ok((await store.dataVersion()) > version);
    const done = await store.dataVersion();
    assert.equal((await loadSeedHistory(store, SOURCES, small, () => SEED_TODAY, { batchRows: 500 })).stored, 0);
    assert.equal(await store.dataVersion(), done);
  });

  test('the stored figures are the ones the bank published, per currency and day', async () => {
    await loadSeedHistory(store, SOURCES, small, () => SEED_TODAY, { batchRows: 500 });
    const rows = batchRows(small.text.slice(small.text.indexOf('\n') + 1));
    const firstDay = rows[0]![0];
    const nextDay = rows.find((r) => r[0] > firstDay)![0];
    const stored = await store.previousRates('BBOT', nextDay);
    const expected = rows.filter((r) => r[0] === firstDay);
    // Ingest writes rates in canonical decimal form (21.4800 is stored as 21.48), as for every payload.
    const canonical = (rate: string) => new Decimal(rate).toString();
    assert.deepEqual(stored.map((r) => [r.date, r.quote, r.rate]).sort(), expected.map((r) => [r[0], r[1], canonical(r[2])]).sort());
  });

  test('data another process stores during the load is reported at once, the load\'s own batches never', async () => {
    const history = slice(await readSeedHistory(), 'CBCT', 1_500);
    let batch = 0;
    let foreign = 0;
    const pause = async () => {
      // Between the first and second batch, another writer stores one figure.
      if (++batch === 2) await store.storeSnapshot({ source: 'ECBF', name: 'elsewhere', sha256: 'f'.repeat(64), rows: [{ date: '2026-04-14', quote: 'USD', rate: '1.17', direction: 'indirect', unit: 1, table: '' }], at: SEED_TODAY.toISOString() });
    };
    const report = await loadSeedHistory(store, SOURCES, history, () => SEED_TODAY, { batchRows: 500, pause, onForeignData: () => void foreign++ });
    assert.equal(report.stored, 3);
    assert.equal(foreign, 1);
  });

  test('batches whose figures were stored already are the load\'s own too: no signal for them or the batch after', async () => {
    const history = slice(await readSeedHistory(), 'CBKE', 1_500);
    // The first 700 rows are in before the load (another file of the same figures): its first batch
    // stores a snapshot that writes nothing, which the data version skips, and its second writes
    // the rows after 700 with the id one past it.
    assert.equal((await loadSeedHistory(store, SOURCES, slice(await readSeedHistory(), 'CBKE', 700), () => SEED_TODAY, { batchRows: 700 })).stored, 1);
    const version = await store.dataVersion();
    let foreign = 0;
    const report = await loadSeedHistory(store, SOURCES, history, () => SEED_TODAY, { batchRows: 500, onForeignData: () => void foreign++ });
    assert.deepEqual([report.stored, report.inserted > 0, foreign], [3, true, 0]);
    assert.ok((await store.dataVersion()) >= version + 3, 'the second and third batches wrote figures');
  });

  test('startSeedHistory reads a compressed file, marks readiness and signals new data once; the next start finds its mark', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kurs-history-'));
    try {
      const other = slice(await readSeedHistory(), 'SBPP', 700);
      writeFileSync(join(dir, 'history.json'), formatManifest(other.manifest));
      writeFileSync(join(dir, other.manifest.data), await compressHistory(other.text));
      const readiness = new HistoryReadiness();
      let signals = 0;
      const logs: string[] = [];
      const log = { info: (_o: object, msg: string) => void logs.push(msg), error: (_o: object, msg: string) => void logs.push(msg) };
      assert.equal(readiness.loaded, false);
      startSeedHistory({ store, sources: SOURCES, readiness, now: () => SEED_TODAY, onData: async () => void signals++, log, file: pathToFileURL(join(dir, 'history.json')) });
      await readiness.ready;
      assert.equal(readiness.loaded, true);
      await new Promise((r) => setImmediate(r));
      assert.equal(signals, 1);
      assert.deepEqual(logs, ['seed history loaded']);
      const first = batchRows(other.text.slice(other.text.indexOf('\n') + 1))[0]!;
      assert.ok((await store.previousRates('SBPP', `${first[0].slice(0, 4)}-12-31`)).length > 0);
      // The next start finds the load's mark and reads none of the rows (D30): without its data
      // file, it still says the history is loaded, and signals nothing.
      rmSync(join(dir, other.manifest.data));
      const again = new HistoryReadiness();
      const said: object[] = [];
      startSeedHistory({ store, sources: SOURCES, readiness: again, now: () => SEED_TODAY, onData: async () => void signals++, log: { info: (o: object, msg: string) => void said.push({ ...o, msg }), error: (o: object, msg: string) => void said.push({ ...o, msg }) }, file: pathToFileURL(join(dir, 'history.json')) });
      await again.ready;
      assert.deepEqual(said.map((o) => ({ ...o, ms: 0 })), [{ stored: 0, already: 0, inserted: 0, failed: [], marked: true, ms: 0, msg: 'seed history already loaded' }]);
      assert.equal(signals, 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a missing history file is logged and the server still becomes ready', async () => {
    const readiness = new HistoryReadiness();
    const logs: string[] = [];
    const log = { info: (_o: object, msg: string) => void logs.push(msg), error: (_o: object, msg: string) => void logs.push(msg) };
    const bg = startSeedHistory({ store, sources: SOURCES, readiness, now: () => SEED_TODAY, onData: async () => {}, log, file: pathToFileURL(join(tmpdir(), 'no-such-history.json')) });
    await bg.stop();
    assert.equal(readiness.loaded, true);
    assert.deepEqual(logs, ['could not load the seed history']);
  });
});
