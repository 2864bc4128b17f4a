// The first start's database, built once at install time (issue 26). Loading the seed's ~690,000
// history figures and materialising every day from them took about a minute on a 2-core machine,
// and materialising is strictly forward in time, so no order of work makes a first start's history
// ready in seconds. `npm install` (its `prepare` script, scripts/build-first-start.mjs) therefore
// builds a SQLite database as a first start would leave it: the seed and its history loaded by the
// seed loaders, every day materialised by History, all with this install's code. A first start on a
// brand-new SQLite file copies it and only catches up the days since the build. A stale build (other
// code, seed or freshness grace) is never used: the server then loads and materialises as before,
// answering 503 for what is not ready (src/http/history-gate.ts).
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { firstStartDb } from '../config.js';
import { History } from '../history/history.js';
import { enabledSources } from '../sources/enabled.js';
import { SOURCES } from '../sources/index.js';
import { openSqlite } from '../store/open.js';
import { utcDay } from '../time/days.js';
import { loadSeed, SEED_FILE, type Seed } from './seed.js';
import { loadSeedHistory, SEED_MARK, seedMark } from './seed-history.js';
import { openSeedHistory, SEED_HISTORY_FILE } from './seed-history-file.js';

/** The compiled code's root (dist/, or src/ under tsx): the build and the server hash their own. */
const CODE = fileURLToPath(new URL('..', import.meta.url));
/** What decides the rows a first start writes: the loaders, parsers, blend and history, the store. */
const CODE_DIRS = ['blend', 'currencies', 'history', 'ingest', 'money', 'rates', 'sources', 'store', 'time'];
/** Bumped when the file's layout changes in a way the hashed code does not show. */
const LAYOUT = 1;

export { firstStartDb };

export interface FirstStartInfo {
  key: string;
  builtAt: string;
  /** The last materialised day: a first start catches up from the day after. */
  lastDay: string | null;
  observations: number;
  days: number;
  ms: number;
}

/** The sidecar that says a build is complete, and for what. */
const infoFile = (db: string) => `${db}.json`;

/** Hashes the code, the seed, the freshness grace and the sources turned on (KURS_ENABLE_SOURCES,
 *  D22) a build's rows depend on. */
export function firstStartKey(graceDays: number, enable: readonly string[] = []): string {
  const hash = createHash('sha256').update(`layout ${LAYOUT}\ngrace ${graceDays}\nenable ${[...enable].sort().join(',')}\n`);
  const files = CODE_DIRS.flatMap((d) => {
    const dir = join(CODE, d);
    return existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)) : [];
  });
  for (const file of files.sort()) hash.update(relative(CODE, file)).update(readFileSync(file));
  for (const file of [SEED_FILE, SEED_HISTORY_FILE]) hash.update(readFileSync(file));
  return hash.digest('hex');
}

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
  // One self-contained, compact file (no -wal beside it), safe to copy.
  const db = new BetterSqlite3(scratch);
  let counts: { observations: number; days: number };
  try {
    db.pragma('journal_mode = DELETE');
    db.exec('VACUUM');
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

/** The command that builds for `graceDays`, as a reader would type it. */
const buildCommand = (graceDays: number) => `${graceDays === 0 ? '' : `KURS_FRESHNESS_GRACE_DAYS=${graceDays} `}npm run build:first-start`;

/** The build at `db` when it is complete and made by this code for this grace and these sources; else
 *  why not, short enough for one log line at a terminal (the path is KURS_FIRST_START_DB's,
 *  docs/configuration.md). */
export function usableBuild(db: string, graceDays: number, enable: readonly string[] = []): FirstStartInfo | string {
  let info: FirstStartInfo;
  try {
    info = JSON.parse(readFileSync(infoFile(db), 'utf8')) as FirstStartInfo;
  } catch {
    return `no install-time build; ${buildCommand(graceDays)} makes one`;
  }
  if (!existsSync(db)) return `no install-time build; ${buildCommand(graceDays)} makes one`;
  if (info.key === firstStartKey(graceDays) && enable.length > 0) return 'the install-time build holds the default sources, not those KURS_ENABLE_SOURCES adds';
  if (info.key !== firstStartKey(graceDays, enable)) return `the install-time build is for other code or seed; ${buildCommand(graceDays)} redoes it`;
  return info;
}

/**
 * A first start on SQLite: when `path` does not exist yet, makes it a copy of the build, so the seed
 * and its history are there, materialised, before the server opens it. The copy is linked into place
 * only if nothing has created `path` meanwhile (another process starting on it keeps its own).
 * Returns what was used, or why the build was not (the ordinary load then runs).
 */
export function adoptFirstStart(build: string, path: string, graceDays: number, enable: readonly string[] = []): { adopted: FirstStartInfo } | { skipped: string } {
  if (path === ':memory:' || [path, `${path}-wal`, `${path}-journal`].some((f) => existsSync(f))) return { skipped: 'the database exists' };
  const found = usableBuild(build, graceDays, enable);
  if (typeof found === 'string') return { skipped: found };
  mkdirSync(dirname(path), { recursive: true });
  const scratch = `${path}.first-start-${process.pid}`;
  try {
    copyFileSync(build, scratch);
    linkSync(scratch, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return { skipped: 'the database exists' };
    return { skipped: `could not copy the install-time build: ${(err as Error).message}` };
  } finally {
    rmSync(scratch, { force: true });
  }
  return { adopted: found };
}
