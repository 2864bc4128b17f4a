// Using the first start's database, built once at install time (first-start.ts builds it): its key
// (what it was built from), whether a build is usable, and the copy a first start on a new SQLite file
// makes of it. Only Node's modules, the config and the seed's file names here: `kurs serve` starts
// the copy before it loads the server's modules (D35).
import { createHash } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { copyFile, open } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Config, sqlitePathOf } from '../config.js';
import { SEED_FILE, SEED_HISTORY_FILE } from './seed-history-file.js';

/** The compiled code's root (dist/, or src/ under tsx): the build and the server hash their own. */
const CODE = fileURLToPath(new URL('..', import.meta.url));
/** What decides the rows a first start writes: the loaders, parsers, blend and history, the store. */
const CODE_DIRS = ['blend', 'currencies', 'history', 'ingest', 'money', 'rates', 'sources', 'store', 'time'];
/** Bumped when the file's layout changes in a way the hashed code does not show. */
const LAYOUT = 1;

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
export const infoFile = (db: string) => `${db}.json`;

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
  // The default sources' key only when others are on: each key hashes the compiled code (~36 ms).
  if (enable.length > 0 && info.key === firstStartKey(graceDays)) return 'the install-time build holds the default sources, not those KURS_ENABLE_SOURCES adds';
  if (info.key !== firstStartKey(graceDays, enable)) return `the install-time build is for other code or seed; ${buildCommand(graceDays)} redoes it`;
  return info;
}

/** A first start that copied the build: what it was, and the copy's sync to disk (`durable`). */
export interface Adopted {
  adopted: FirstStartInfo;
  /** Resolves once the copy's pages are on disk (an fsync, off this thread); the server waits for it
   *  before it listens, so a power loss after that cannot leave a torn copy (D35). Never unhandled. */
  durable: Promise<void>;
}

/**
 * A first start on SQLite: when `path` does not exist yet, makes it a copy of the build, so the seed
 * and its history are there, materialised, before the server opens it. The copy is linked into place
 * only if nothing has created `path` meanwhile (another process starting on it keeps its own).
 * Returns what was used, or why the build was not (the ordinary load then runs).
 */
export async function adoptFirstStart(build: string, path: string, graceDays: number, enable: readonly string[] = []): Promise<Adopted | { skipped: string }> {
  if (path === ':memory:' || [path, `${path}-wal`, `${path}-journal`].some((f) => existsSync(f))) return { skipped: 'the database exists' };
  const found = usableBuild(build, graceDays, enable);
  if (typeof found === 'string') return { skipped: found };
  mkdirSync(dirname(path), { recursive: true });
  const scratch = `${path}.first-start-${process.pid}`;
  try {
    // In libuv's thread pool: `kurs serve` starts this before it loads the server's modules
    // (firstStartFor), and the copy (~150 MB, 0.14–0.5 s) runs beside that.
    await copyFile(build, scratch);
    linkSync(scratch, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return { skipped: 'the database exists' };
    return { skipped: `could not copy the install-time build: ${(err as Error).message}` };
  } finally {
    rmSync(scratch, { force: true });
  }
  const durable = synced(path);
  // Awaited by the server before it listens; a start that fails before then must not also raise this.
  durable.catch(() => undefined);
  return { adopted: found, durable };
}

/** `path`'s data on disk (fsync), in libuv's thread pool while the server goes on starting. */
async function synced(path: string): Promise<void> {
  const file = await open(path, 'r');
  try {
    await file.sync();
  } finally {
    await file.close();
  }
}

/** What a first start uses: `config`'s new SQLite file made a copy of the build, or why not; undefined
 *  where no first start applies (another database, the seed or the build turned off). Started by
 *  `kurs serve` before the server's modules load; never an unhandled rejection (serve() awaits it). */
export function firstStartFor(config: Config): Promise<Adopted | { skipped: string }> | undefined {
  const path = sqlitePathOf(config.databaseUrl);
  if (!config.seed || !config.firstStartDb || path === undefined) return undefined;
  const adopting = adoptFirstStart(config.firstStartDb, path, config.freshnessGraceDays, config.enableSources);
  adopting.catch(() => undefined);
  return adopting;
}
