// `kurs prune`, `kurs backup`, `kurs copy`: keeping the data (issue 17; docs/operations.md).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { pruneOld } from '../access/retention.js';
import { loadConfig, sqlitePathOf } from '../config.js';
import { backupSqlite } from '../store/backup.js';
import { copyCommand } from './copy-command.js';
import { CliError, print, printJson, withRuntime } from './util.js';

export function keepCommands(program: Command): void {
  program
    .command('prune')
    .description('delete usage older than KURS_USAGE_RETENTION_DAYS and request windows that no longer count (the server does it daily)')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const r = await withRuntime(({ store, config }) => pruneOld(store, new Date(), config.usageRetentionDays));
      if (o.json) return printJson(r);
      print(`deleted ${r.usage_rows} usage row(s) of days before ${r.before_day} and ${r.window_rows} old request window(s)`);
    });
  program
    .command('backup <file>')
    .description('a consistent copy of the SQLite database while the server runs (SQLite online backup); restore by starting Kurs on it')
    .option('--json', 'print JSON')
    .action(async (file: string, o: { json?: boolean }) => {
      const path = sqlitePathOf(loadConfig().databaseUrl);
      if (path === undefined) throw new CliError('kurs backup is for SQLite; back up PostgreSQL with pg_dump -Fc (docs/operations.md)');
      // `kurs backup ./backups/today.db` on a first backup: the folder is made, as a shell user expects.
      try {
        mkdirSync(dirname(file), { recursive: true });
      } catch (err) {
        throw new CliError(`cannot create the folder ${dirname(file)} for the backup: ${(err as Error).message}`);
      }
      const r = await backupSqlite(path, file).catch((err: Error) => {
        throw new CliError(err.message);
      });
      if (o.json) return printJson(r);
      print(`backed up ${r.pages} pages to ${r.file}; integrity ${r.integrity}. Check it with KURS_DATABASE_URL=sqlite:${r.file} kurs audit`);
      if (r.integrity !== 'ok') throw new CliError(`the copy failed its integrity check: ${r.integrity}`);
    });
  copyCommand(program);
}
