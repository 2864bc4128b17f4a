// `kurs backup`: a consistent copy of a live SQLite database through SQLite's online backup API
// (never a file copy, which can catch the database file and its WAL at different moments). The
// server keeps serving: the backup reads a snapshot and restarts only if written to mid-step, so
// after the first step it copies all remaining pages in one step. PostgreSQL: pg_dump
// (docs/operations.md).
import { existsSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';

/** Pages per step after the first: everything that is left, so a busy server cannot keep restarting it. */
const ALL_PAGES = 1 << 30;

export interface BackupResult {
  file: string;
  pages: number;
  /** `ok`, or what `PRAGMA integrity_check` found in the copy. */
  integrity: string;
}

export async function backupSqlite(sourcePath: string, file: string): Promise<BackupResult> {
  if (!existsSync(sourcePath)) throw new Error(`no SQLite database at ${sourcePath}`);
  if (existsSync(file)) throw new Error(`${file} exists already; choose a new file name`);
  const source = new BetterSqlite3(sourcePath, { fileMustExist: true });
  source.pragma('busy_timeout = 5000');
  try {
    const { totalPages } = await source.backup(file, { progress: () => ALL_PAGES });
    const copy = new BetterSqlite3(file, { fileMustExist: true });
    try {
      return { file, pages: totalPages, integrity: String(copy.pragma('integrity_check', { simple: true })) };
    } finally {
      copy.close();
    }
  } finally {
    source.close();
  }
}
