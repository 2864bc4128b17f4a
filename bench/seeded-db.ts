// The bench's SQLite database as a server leaves it after its first start (the bundled seed and its
// history loaded and materialised), kept under bench/.cache for the runs after: that first start
// takes about a minute here, which `npm run bench -- --quick` should not pay every time. The copy is
// keyed by the seed files and by the code that writes what it holds (migrations, blend, history), so
// a change to any of them builds a new one.
import BetterSqlite3 from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join(ROOT, 'bench', '.cache');
const INPUTS = ['seed', 'src/store/migrations', 'src/blend', 'src/history', 'src/ingest'];

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Where the database for the current inputs is (or would be) kept. */
export function templatePath(): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(filesUnder)) hash.update(file.slice(ROOT.length)).update(readFileSync(file));
  return join(CACHE, `seeded-${hash.digest('hex').slice(0, 16)}.db`);
}

/** Copies the kept database to `path`; false when there is none yet. */
export function useTemplate(template: string, path: string): boolean {
  if (!existsSync(template)) return false;
  copyFileSync(template, path);
  return true;
}

/** Keeps a consistent copy of `path` (VACUUM INTO, safe while others have it open) as the template. */
export function keepTemplate(path: string, template: string): void {
  mkdirSync(CACHE, { recursive: true });
  for (const old of readdirSync(CACHE)) if (old.startsWith('seeded-')) rmSync(join(CACHE, old), { force: true });
  const db = new BetterSqlite3(path, { readonly: true });
  try {
    db.exec(`VACUUM INTO '${template}.part'`);
  } finally {
    db.close();
  }
  renameSync(`${template}.part`, template);
}
