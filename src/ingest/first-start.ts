// The first start's database, built once at install time (issue 26). Loading the seed's ~690,000
// history figures and materialising every day from them took about a minute on a 2-core machine,
// and materialising is strictly forward in time, so no order of work makes a first start's history
// ready in seconds. `npm install` (its `prepare` script, scripts/build-first-start.mjs) therefore
// builds a SQLite database as a first start would leave it: the seed and its history loaded by the
// seed loaders, every day materialised by History, all with this install's code. A first start on a
// brand-new SQLite file copies it (first-start-adopt.ts) and only catches up the days since the
// build. A stale build (other code, seed or freshness grace) is never used: the server then loads
// and materialises as before, answering 503 for what is not ready (src/http/history-gate.ts).
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { History } from '../history/history.js';
import { enabledSources } from '../sources/enabled.js';
import { SOURCES } from '../sources/index.js';
import { openSqlite } from '../store/open.js';
import { utcDay } from '../time/days.js';
import { firstStartKey, type FirstStartInfo, infoFile } from './first-start-adopt.js';
import { loadSeed, type Seed } from './seed.js';
import { loadSeedHistory, SEED_MARK, seedMark } from './seed-history.js';
import { openSeedHistory, SEED_FILE } from './seed-history-file.js';

/**
 * Builds the database at `target` (and its sidecar), replacing an older one: a scratch file first,
 * renamed when done, so an interrupted install leaves none that looks complete.
 */
export async function buildFirstStart(target: string, graceDays: number, now: Date = new Date()): Promise<FirstStartInfo> {
  const started = performance.now();
  mkdirSync(dirname(target), { recursive: true });
  const scratch = `${target}.part`;
  for (const f of [target, infoFile(target), scratch, `${scratch}-wal`, `${scratch}-shm`]) rmSync(f, { force: true });
  const store = openSqlite(scratch);
  let lastDay: string | null;
  try {
    await store.migrate();
    // The sources on by default (D22): a server that turns others on loads the seed itself.
    const sources = enabledSources(SOURCES, []);
    await loadSeed(store, sources, JSON.parse(readFileSync(SEED_FILE, 'utf8')) as Seed, now);
    // The seed-history loader's own batches (so a later start finds them stored), with no pauses:
    // nothing else uses this file.
    const seedHistory = await openSeedHistory();
    const report = await loadSeedHistory(store, sources, seedHistory, () => now, { pause: async () => {} });
    if (report.failed.length > 0) throw new Error(`seed history batches not loaded: ${JSON.stringify(report.failed.slice(0, 3))}`);
    // So that a later start of a copy reads no part of the history file to know it is loaded (D30).
    await store.setMark(SEED_MARK, seedMark(seedHistory.manifest, sources));
    const history = new History(store, sources, graceDays);
    await history.load();
    lastDay = (await history.materialise(utcDay(now))).mark.lastDay;
  } finally {
    await store.close();
  }
  // One self-contained, compact file (no -wal beside it once closed), safe to copy, and in WAL mode
  // already: a copy in rollback mode was switched by the server's first pragma, a write that synced
  // the whole fresh copy (157 MB) before the server went on (200–250 ms of a first start; D35).
  const db = new BetterSqlite3(scratch);
  let counts: { observations: number; days: number };
  try {
    db.pragma('journal_mode = DELETE');
    db.exec('VACUUM');
    db.pragma('journal_mode = WAL');
    counts = db.prepare('select (select count(*) from observations) as observations, (select count(*) from history_days) as days').get() as typeof counts;
  } finally {
    db.close();
  }
  renameSync(scratch, target);
  const info: FirstStartInfo = { key: firstStartKey(graceDays), builtAt: now.toISOString(), lastDay, ...counts, ms: Math.round(performance.now() - started) };
  writeFileSync(`${infoFile(target)}.part`, `${JSON.stringify(info, null, 1)}\n`);
  renameSync(`${infoFile(target)}.part`, infoFile(target));
  return info;
}

