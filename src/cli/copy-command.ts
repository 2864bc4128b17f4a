// `kurs copy --to <postgres-url> [--from <url>] [--force]`: the move from one database to a
// PostgreSQL one (issue 17, docs/operations.md). The target is migrated first; one that already
// holds accounts is refused unless --force or it holds an unfinished copy from the same source,
// which a rerun finishes. Prints each table's row count and checksum on both sides.
import { resolve } from 'node:path';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { loadConfig, sqlitePathOf } from '../config.js';
import { copyAll, type TableReport } from '../store/copy.js';
import { openStore, redactDbUrl } from '../store/open.js';
import { SqlStore } from '../store/sql-store.js';
import { CliError, print, printJson, table } from './util.js';

const label = (url: string) => {
  const path = sqlitePathOf(url);
  return path === undefined ? redactDbUrl(url) : `sqlite:${resolve(path)}`;
};

async function open(url: string): Promise<SqlStore> {
  const store = await openStore(url, { ...loadConfig().db, poolSize: 2 });
  await store.migrate();
  if (!(store instanceof SqlStore)) throw new CliError('copy needs an SQL store');
  return store;
}

export async function copyDatabase(from: string, to: string, force: boolean, quiet: boolean): Promise<TableReport[]> {
  if (!/^postgres(ql)?:\/\//.test(to)) throw new CliError(`--to must be a postgres:// URL, got ${JSON.stringify(redactDbUrl(to))}`);
  if (label(from) === label(to)) throw new CliError('--from and --to name the same database');
  const source = await open(from);
  const target = await open(to).catch(async (err: unknown) => {
    await source.close();
    throw err;
  });
  const bar = new SingleBar({ format: '{table} [{bar}] {value}/{total} rows', stream: process.stderr, noTTYOutput: false, hideCursor: true });
  try {
    const run = await target.db.selectFrom('copy_runs').selectAll().where('source', '=', label(from)).executeTakeFirst();
    const resuming = run !== undefined && run.finished_at === null;
    if ((await target.hasAccounts()) && !resuming && !force) {
      throw new CliError(`${redactDbUrl(to)} already holds accounts; give --force to copy over them (rows with the same keys are replaced)`);
    }
    if (resuming) process.stderr.write(`resuming the unfinished copy from ${label(from)} started ${run.started_at}\n`);
    const now = new Date().toISOString();
    await target.db
      .insertInto('copy_runs')
      .values({ source: label(from), started_at: now, finished_at: null })
      .onConflict((oc) => oc.column('source').doUpdateSet({ started_at: resuming ? run.started_at : now, finished_at: null }))
      .execute();
    let started = false;
    const reports = await copyAll({ db: source.db, dialect: source.dialect }, { db: target.db, dialect: 'postgres' }, {
      start: (name, rows) => {
        if (quiet) return;
        if (started) bar.stop();
        bar.start(rows, 0, { table: name.padEnd(16) });
        started = true;
      },
      progress: (rows) => {
        if (!quiet) bar.increment(rows);
      },
    });
    if (started) bar.stop();
    const bad = reports.filter((r) => r.sourceRows !== r.targetRows || r.sourceChecksum !== r.targetChecksum);
    if (bad.length === 0) await target.db.updateTable('copy_runs').set({ finished_at: new Date().toISOString() }).where('source', '=', label(from)).execute();
    return reports;
  } finally {
    bar.stop();
    await Promise.all([source.close(), target.close()]);
  }
}

export function copyCommand(program: Command): void {
  program
    .command('copy')
    .description('copy every table (accounts, keys as hashes, ledger, usage, data …) into a PostgreSQL database; rerun to finish an interrupted copy')
    .requiredOption('--to <postgres-url>', 'the target PostgreSQL database (migrated first)')
    .option('--from <url>', 'the source database (default: KURS_DATABASE_URL)')
    .option('--force', 'copy even if the target already holds accounts')
    .option('--json', 'print JSON')
    .action(async (o: { to: string; from?: string; force?: boolean; json?: boolean }) => {
      const from = o.from ?? loadConfig().databaseUrl;
      const reports = await copyDatabase(from, o.to, o.force === true, o.json === true);
      const same = (r: TableReport) => r.sourceRows === r.targetRows && r.sourceChecksum === r.targetChecksum;
      if (o.json) printJson(reports.map((r) => ({ ...r, ok: same(r) })));
      else {
        print(table([
          ['TABLE', 'SOURCE ROWS', 'TARGET ROWS', 'SOURCE CHECKSUM', 'TARGET CHECKSUM', 'STATUS'],
          ...reports.map((r) => [r.table, String(r.sourceRows), String(r.targetRows), r.sourceChecksum, r.targetChecksum, same(r) ? 'ok' : 'DIFFERENT']),
        ]));
      }
      const bad = reports.filter((r) => !same(r));
      if (bad.length > 0) throw new CliError(`${bad.length} table(s) differ after the copy: ${bad.map((r) => r.table).join(', ')}`);
      if (!o.json) print(`copied ${reports.length} tables from ${label(from)} to ${redactDbUrl(o.to)}; all counts and checksums match`);
    });
}
