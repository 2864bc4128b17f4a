// `kurs serve`, `kurs migrate`, `kurs ingest`: the data side of the CLI.
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { firstStartFor } from '../ingest/first-start-adopt.js';
import { ingestDir } from '../ingest/ingest.js';
import { countOutcomes, outcomeLine, summaryLine } from './ingest-summary.js';
import { ingestLive } from '../ingest/live.js';
import { operatorHttpClient } from '../sources/http.js';
import { offMessage } from '../sources/enabled.js';
import { SOURCES } from '../sources/index.js';
import { pickSources } from './pick-sources.js';
import { CliError, print, withRuntime } from './util.js';

export function dataCommands(program: Command): void {
  program
    .command('serve')
    .description('serve the API (what `npm start` runs)')
    .action(async () => {
      const config = loadConfig();
      // A first start's copy of the install-time build (~150 MB) runs in the thread pool while the
      // server's own modules (Fastify, Ajv, the routes: ~0.3–0.5 s) load (D35).
      const copying = firstStartFor(config);
      // The signals are listened for from the start (same tick): one while the server starts (it
      // prints `listening on` before its last steps) would otherwise kill it, exit code none (issue 34).
      const serving = import('../server.js').then(({ serve }) => serve(config, print, copying));
      // Graceful: no new connections, in-flight requests finish and are charged, then the store
      // closes. A request that outlives the deadline is cut rather than holding the shutdown forever.
      const shutdown = () => {
        setTimeout(() => {
          process.stderr.write(`kurs: in-flight requests still running after ${config.limits.shutdownTimeoutMs} ms; exiting\n`);
          process.exit(1);
        }, config.limits.shutdownTimeoutMs).unref();
        serving.then((stop) => stop()).then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGTERM', shutdown);
      process.once('SIGINT', shutdown);
      await serving;
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
    .description('fetch the banks\' feeds now, or with --from-dir import payloads laid out as <dir>/<BANK_CODE>/<files>; idempotent')
    .option('--from-dir <dir>', 'folder of recorded payloads, one sub-folder per bank code')
    .option('--accept-jumps', 'store figures that moved more than 50% (a real devaluation the jump rule held back)')
    .action(async (codes: string[], o: { fromDir?: string; acceptJumps?: boolean }) => {
      const only = codes.length > 0 ? codes.map((c) => c.toUpperCase()) : undefined;
      const opts = { acceptJumps: o.acceptJumps === true };
      const { outcomes, skippedFiles } = await withRuntime(async ({ store, config, sources: enabled }) => {
        // Only the sources this instance uses (D22): a folder of a source that is off is not read.
        const sources = only ? pickSources(enabled, only) : enabled;
        if (o.fromDir) {
          const report = await ingestDir(store, sources, o.fromDir, () => new Date(), only, { ...opts, maxBytes: config.feedMaxBytes }).catch((err: NodeJS.ErrnoException) => {
            throw err.code === 'ENOENT' || err.code === 'ENOTDIR' ? new CliError(`cannot read ${o.fromDir}: ${err.code}`) : err;
          });
          for (const folder of report.unknownFolders) {
            const off = SOURCES.find((s) => s.code === folder.toUpperCase());
            process.stderr.write(off ? `warning: folder ${folder} skipped: ${offMessage(off)}\n` : `warning: no adapter for folder ${folder}; skipped\n`);
          }
          return report;
        }
        // One look at every source's health for all the runs, not one scan of the observations each.
        const health = store.sourceHealth();
        const newestDate = async (code: string) => (await health).find((h) => h.source === code)?.newestDate ?? null;
        const deps = { store, config, http: operatorHttpClient(config), now: () => new Date(), newestDate };
        const results = await Promise.all(sources.map((s) => ingestLive(deps, s, opts)));
        let failedFetches = 0;
        for (const r of results) {
          if (r.status === 'skipped') process.stderr.write(`warning: ${r.source} skipped: ${r.reason}\n`);
          if (r.status === 'fetch_failed') {
            failedFetches++;
            print(`${r.source}: FETCH FAILED: ${r.reason}`);
          }
        }
        if (failedFetches > 0) process.exitCode = 1;
        return { outcomes: results.flatMap((r) => (r.status === 'done' ? r.outcomes : [])), skippedFiles: [] };
      });
      for (const r of outcomes) print(outcomeLine(r));
      for (const file of skippedFiles) print(`${file}: skipped: no adapter reads this file (CONTRIBUTING.md, "Recorded copies")`);
      const counts = countOutcomes(outcomes, skippedFiles.length);
      print(summaryLine(counts));
      if (counts.failed > 0) throw new CliError(`${counts.failed} payload(s) failed to import`);
    });
}
