// `kurs prune`, `kurs backup`, `kurs copy`: keeping the data (issue 17; docs/operations.md).
import type { Command } from 'commander';
import { pruneOld } from '../access/retention.js';
import { copyCommand } from './copy-command.js';
import { print, printJson, withRuntime } from './util.js';

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
  copyCommand(program);
}
