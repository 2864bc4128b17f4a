// `kurs backfill [CODE…] --from <date>`: fetch each source's history from its live feed (see
// src/ingest/backfill.ts). A progress bar on a terminal, one line per source otherwise; day-by-day
// feeds are estimated first and, past a threshold, need a yes.
import { createInterface } from 'node:readline/promises';
import { MultiBar, Presets } from 'cli-progress';
import type { Command } from 'commander';
import { CONFIRM_ABOVE_REQUESTS, estimate, planBackfill, runBackfill, type BackfillResult } from '../ingest/backfill.js';
import { operatorHttpClient } from '../sources/http.js';
import { pickSources } from './pick-sources.js';
import { CliError, print, withRuntime } from './util.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (d: string) => DAY.test(d) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d);

function duration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.ceil((seconds % 3600) / 60);
  return h > 0 ? `${h} h ${m} min` : `${m} min`;
}

export function describeResult(r: BackfillResult): string {
  const asked = `${r.requests} request${r.requests === 1 ? '' : 's'}, ${r.payloads} payload${r.payloads === 1 ? '' : 's'}`;
  if (r.fetchError) return `${r.source}: FETCH FAILED after ${asked}: ${r.fetchError}`;
  const stored = r.inserted + r.revised > 0 ? `${r.inserted} new, ${r.revised} revised` : 'nothing new';
  const failed = r.failed.length > 0 ? `; ${r.failed.length} FAILED: ${r.failed.join('; ')}` : '';
  return `${r.source}: ${asked}: ${stored} (${r.already} already imported)${failed}`;
}

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

export function backfillCommand(program: Command): void {
  program
    .command('backfill [bank_codes...]')
    .description('fetch each source\'s history from its feed since --from, in as few requests as the feed allows; idempotent')
    .requiredOption('--from <date>', 'first day to fetch, YYYY-MM-DD')
    .option('--to <date>', 'last day to fetch, YYYY-MM-DD (default: today, UTC)')
    .option('--yes', `go ahead when day-by-day feeds need more than ${CONFIRM_ABOVE_REQUESTS} requests, without asking`)
    .option('--accept-jumps', 'store figures that moved more than 50% (real devaluations in the history)')
    .action(async (codes: string[], o: { from: string; to?: string; yes?: boolean; acceptJumps?: boolean }) => {
      const today = new Date().toISOString().slice(0, 10);
      const window = { from: o.from, to: o.to ?? today };
      for (const [name, day] of [['--from', window.from], ['--to', window.to]] as const) {
        if (!isDay(day)) throw new CliError(`${name} must be a date, YYYY-MM-DD; got ${JSON.stringify(day)}`);
      }
      if (window.from > window.to || window.to > today) throw new CliError(`need --from ≤ --to ≤ today (${today}); got ${window.from} … ${window.to}`);
      const only = codes.map((c) => c.toUpperCase());

      const results = await withRuntime(async ({ store, config, sources: enabled }) => {
        // Historical-only publishers have no live feed to poll; they are fetched only when named.
        // A source that is off here (D22) is not fetched, named or not.
        const sources = only.length > 0 ? pickSources(enabled, only) : enabled.filter((s) => !s.discontinued);
        const { plans, skipped } = planBackfill(sources, window, config);
        for (const s of skipped) process.stderr.write(`warning: ${s.source} skipped: ${s.reason}\n`);
        const est = estimate(plans);
        if (est.requests > 0) {
          print(`${est.sources.join(', ')} serve one day per request: ${est.requests} requests, about ${duration(est.seconds)} at one request a second per host.`);
        }
        const tty = process.stdout.isTTY === true && process.stdin.isTTY === true;
        if (est.requests > CONFIRM_ABOVE_REQUESTS && !o.yes) {
          if (!tty) throw new CliError(`that is more than ${CONFIRM_ABOVE_REQUESTS} requests: run again with --yes to go ahead, or narrow --from/--to or the bank codes`);
          if (!(await confirm('Go ahead? [y/N] '))) throw new CliError('not confirmed; nothing fetched');
        }
        const total = plans.reduce((n, p) => n + p.requests, 0);
        const bars = tty ? new MultiBar({ format: ' {bar} {value}/{total} requests | {source}', hideCursor: true, clearOnComplete: true }, Presets.shades_classic) : undefined;
        const bar = bars?.create(total, 0, { source: '' });
        try {
          return await runBackfill(plans, {
            store,
            http: operatorHttpClient(config),
            now: () => new Date(),
            acceptJumps: o.acceptJumps === true,
            onRequest: (source) => {
              if (!bar) return;
              if (bar.getProgress() >= 1) bar.setTotal(bar.getTotal() + 1);
              bar.increment({ source });
            },
            onSource: (r) => (bars ? bars.log(`${describeResult(r)}\n`) : print(describeResult(r))),
          });
        } finally {
          bars?.stop();
        }
      });
      if (results.some((r) => r.fetchError || r.failed.length > 0)) process.exitCode = 1;
    });
}
