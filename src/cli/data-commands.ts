// `kurs serve`, `kurs migrate`, `kurs ingest`: the data side of the CLI.
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { ingestDir } from '../ingest/ingest.js';
import { serve } from '../server.js';
import { SOURCES } from '../sources/index.js';
import { CliError, print, withRuntime } from './util.js';

export function dataCommands(program: Command): void {
  program
    .command('serve')
    .description('serve the API (what `npm start` runs)')
    .action(async () => {
      const stop = await serve(loadConfig(), print);
      const shutdown = () => {
        stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGTERM', shutdown);
      process.once('SIGINT', shutdown);
    });

  program
    .command('migrate')
    .description('bring the database schema up to date')
    .action(async () => {
      await withRuntime(async () => undefined);
      print('database is up to date');
    });

  program
    .command('ingest [bank_codes...]')
    .description('import payloads laid out as <dir>/<BANK_CODE>/<files> (idempotent)')
    .option('--from-dir <dir>', 'folder of recorded payloads, one sub-folder per bank code')
    .action(async (codes: string[], o: { fromDir?: string }) => {
      if (!o.fromDir) throw new CliError('live fetching is not available yet: give --from-dir <dir>');
      const only = codes.length > 0 ? codes.map((c) => c.toUpperCase()) : undefined;
      const unknown = only?.filter((c) => !SOURCES.some((s) => s.code === c)) ?? [];
      if (unknown.length > 0) throw new CliError(`no adapter for ${unknown.join(', ')}; \`kurs\` knows ${SOURCES.map((s) => s.code).join(', ')}`);
      const report = await withRuntime(({ store }) => ingestDir(store, SOURCES, o.fromDir!, () => new Date(), only)).catch((err: NodeJS.ErrnoException) => {
        throw err.code === 'ENOENT' || err.code === 'ENOTDIR' ? new CliError(`cannot read ${o.fromDir}: ${err.code}`) : err;
      });
      for (const folder of report.unknownFolders) process.stderr.write(`warning: no adapter for folder ${folder}; skipped\n`);
      let failed = 0;
      for (const r of report.outcomes) {
        if (r.status === 'failed') {
          failed++;
          print(`${r.source} ${r.name}: FAILED: ${r.reason}`);
        } else if (r.status === 'duplicate') {
          print(`${r.source} ${r.name}: already imported`);
        } else {
          const skipped = r.skipped.length > 0 ? `, skipped codes ${r.skipped.join(' ')}` : '';
          print(`${r.source} ${r.name}: ${r.inserted} new, ${r.revised} revised, ${r.unchanged} unchanged${skipped}`);
        }
      }
      if (failed > 0) throw new CliError(`${failed} payload(s) failed to import`);
    });
}
