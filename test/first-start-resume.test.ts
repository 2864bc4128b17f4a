// A first start without the install-time build loads the seed's history from a worker thread
// (src/ingest/seed-history-worker.ts). Stopped mid-load, the server exits cleanly, and the next start
// loads only the batches that are missing, then materialises and answers dated requests. The stop
// waits for a stored batch in the database, not for a time.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { startKurs, stop, type Running } from '../bench/servers.js';
import { SEED_HISTORY_FILE, type HistoryManifest } from '../src/ingest/seed-history-file.js';
import { HISTORY_BATCH_ROWS } from '../src/ingest/seed-history.js';
import { enabledSources } from '../src/sources/enabled.js';
import { SOURCES } from '../src/sources/index.js';

const dir = mkdtempSync(join(tmpdir(), 'kurs-first-start-resume-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const historyBatches = (db: string) => {
  const sqlite = new BetterSqlite3(db, { readonly: true });
  try {
    return (sqlite.prepare("select count(*) as n from snapshots where name = 'seed-history'").get() as { n: number }).n;
  } finally {
    sqlite.close();
  }
};

/** Polls `done` (the condition is named for a reader; nothing here assumes a time). */
const until = async (_what: string, done: () => boolean) => {
  while (!done()) await new Promise((r) => setTimeout(r, 100));
};

const reportOf = (server: Running) => server.lines.map((l) => (l.includes('"msg":"seed history loaded"') ? (JSON.parse(l) as { stored: number; already: number }) : undefined)).find((r) => r !== undefined);

test('a load stopped in the worker resumes on the next start, and the history then answers', { timeout: 1_200_000 }, async () => {
  const manifest = JSON.parse(readFileSync(SEED_HISTORY_FILE, 'utf8')) as HistoryManifest;
  // Batches of one source each, HISTORY_BATCH_ROWS rows at most, of the sources a default start uses
  // (those whose terms keep them off are not loaded, D22).
  const on = new Set(enabledSources(SOURCES, []).map((s) => s.code));
  const batches = manifest.sources.filter((s) => on.has(s.source)).reduce((n, s) => n + Math.ceil(s.rows / HISTORY_BATCH_ROWS), 0);
  const db = join(dir, 'kurs.db');
  writeFileSync(db, '');
  const env = { KURS_DATABASE_URL: `sqlite:${db}`, KURS_FIRST_START_DB: 'off', KURS_INGEST: 'off', KURS_LOG_FORMAT: 'json', KURS_LOG_SAMPLE: '1000' };

  const first = await startKurs(env);
  // The first-start key, printed before `listening on` (stop() removes the output file).
  const key = /^\s+(kurs_\w+)$/m.exec(first.lines.join('\n'))?.[1] ?? '';
  await until('a batch stored', () => historyBatches(db) > 0);
  await stop(first);
  assert.equal(first.child.exitCode, 0);
  const stored = historyBatches(db);
  assert.ok(stored > 0 && stored <= batches, `${stored} of ${batches}`);

  const second = await startKurs(env);
  try {
    await until('history ready', () => second.lines.some((l) => l.includes('"msg":"history ready"')));
    assert.equal(historyBatches(db), batches);
    const report = reportOf(second);
    // Stopped before the end: this start stored the rest, found the first ones, and materialised.
    if (stored < batches) {
      assert.deepEqual({ stored: report?.stored, already: report?.already }, { stored: batches - stored, already: stored });
      assert.ok(second.lines.some((l) => l.includes('"msg":"history materialised"')), 'materialised after the load');
    }
    const res = await fetch(`${second.url}/v1/EUR/2008-09-15`, { headers: { authorization: key } });
    const body = (await res.json()) as { date: string; rates: Record<string, number> };
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.date, '2008-09-15');
    assert.ok(body.rates.USD! > 1.3 && body.rates.USD! < 1.5, `EUR/USD on 2008-09-15: ${body.rates.USD}`);
  } finally {
    await stop(second);
  }
});
