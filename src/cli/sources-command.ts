// `kurs sources`: per source its health as the operator acts on it: the state (a source skipped for
// want of its API key says `no key`, not `ok`) and the cause of its last failure in words; with
// `--probe`, what each feed answers now.
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { failureCause } from '../ingest/causes.js';
import { lastSuccessText, sourceStatuses, type SourceStatus } from '../ingest/health.js';
import { sourceState } from '../ingest/source-state.js';
import { Limiter } from '../ingest/abort.js';
import { probeSource, probeSummary, type ProbeResult } from '../ingest/probe.js';
import { MAX_PARALLEL_SOURCES } from '../ingest/scheduler.js';
import { operatorHttpClient } from '../sources/http.js';
import type { Source } from '../sources/types.js';
import { pickSources } from './pick-sources.js';
import { print, printJson, table, wholeNumber, withRuntime } from './util.js';

/** A probe waits this long for each answer unless told (--timeout): the live client's own default. */
const PROBE_TIMEOUT_MS = 30_000;

/** The cause column: enough words to act on; `--json` has the whole error. */
const CAUSE_CHARS = 60;

/** What the STATE column says: `no key` for a source never fetched for want of its key, else
 *  `/status`'s word for it (ingest/source-state.ts), FAILING in capitals to stand out. */
export function stateColumn(source: Source, s: SourceStatus, hasKey: boolean, today: string, graceDays: number): string {
  if (source.needsKey && !hasKey) return 'no key';
  const { state } = sourceState(source, s, today, graceDays);
  return state === 'failing' ? 'FAILING' : state;
}

function cause(source: Source, s: SourceStatus, state: string): string {
  if (state === 'no key') return `skipped: set KURS_SOURCE_${source.code}_KEY`;
  return s.failing && s.last_error ? failureCause(s.last_error).words.slice(0, CAUSE_CHARS) : '';
}

export function sourcesCommand(program: Command): void {
  program
    .command('sources [codes...]')
    .description('per source: state, newest observation, publications missed, last success, the cause of a failure, feed URL; --probe fetches each now')
    .option('--json', 'print JSON')
    .option('--probe', 'fetch each source\'s newest payload now and parse it (nothing is stored): HTTP status, TLS, bytes, figures, newest date, time')
    .option('--timeout <ms>', 'with --probe: how long to wait for each answer', wholeNumber('--timeout', 600_000), PROBE_TIMEOUT_MS)
    .action(async (codes: string[], o: { json?: boolean; probe?: boolean; timeout: number }) => {
      if (o.probe) return probe(codes, o.timeout, o.json === true);
      const now = new Date();
      const rows = await withRuntime(async ({ store, sources: enabled, config }) => {
        const sources = codes.length > 0 ? pickSources(enabled, codes.map((c) => c.toUpperCase())) : enabled;
        const statuses = sourceStatuses(sources, await store.sourceHealth(), now);
        return statuses.map((s, i) => {
          const source = sources[i]!;
          const state = stateColumn(source, s, config.sourceKeys[source.code] !== undefined, now.toISOString().slice(0, 10), config.freshnessGraceDays);
          return { s, state, cause: cause(source, s, state) };
        });
      });
      if (o.json) return printJson(rows.map((r) => r.s));
      // No feed URL column (D26): at 40–120 characters it would wrap every line of the table;
      // `--json` has the feed and terms URLs, `--probe` says what each feed answers.
      print(table([
        ['SOURCE', 'CADENCE', 'NEWEST', 'MISSED', 'LAST SUCCESS', 'STATE', 'CAUSE'],
        ...rows.map(({ s, state, cause }) => [s.source, s.period_rates ? `${s.cadence} period` : s.cadence, s.newest_valid_to ? `${s.newest_observation} to ${s.newest_valid_to}` : s.newest_observation ?? '-', String(s.missed_publications ?? '-'), lastSuccessText(s), state, cause]),
      ]));
    });
}

async function probe(codes: string[], timeoutMs: number, json: boolean): Promise<void> {
  const results = await withRuntime(async ({ sources: enabled, config }) => {
    const sources = codes.length > 0 ? pickSources(enabled, codes.map((c) => c.toUpperCase())) : enabled;
    // One attempt each: a probe reports what the feed does now, it does not retry it into health.
    const deps = { http: operatorHttpClient(config, { retries: 0, timeoutMs }), config, now: () => new Date(), timeoutMs };
    const bar = new SingleBar({ format: 'probing [{bar}] {value}/{total} {source}', stream: process.stderr, hideCursor: true });
    bar.start(sources.length, 0, { source: '' });
    const slots = new Limiter(MAX_PARALLEL_SOURCES);
    try {
      return await Promise.all(sources.map((s) => slots.run(() => probeSource(deps, s)).then((r) => (bar.increment(1, { source: s.code }), r))));
    } finally {
      bar.stop();
    }
  });
  if (json) printJson({ results, summary: probeSummary(results) });
  else print(probeTable(results));
  if (!json) print(probeSummary(results));
  if (results.some((r) => r.outcome === 'failed')) process.exitCode = 1;
}

export function probeTable(results: readonly ProbeResult[]): string {
  return table([
    ['SOURCE', 'OUTCOME', 'HTTP', 'TLS', 'BYTES', 'FIGURES', 'NEWEST', 'TIME', 'CAUSE'],
    ...results.map((r) => [r.source, r.outcome, String(r.http_status ?? '-'), r.tls, String(r.bytes), String(r.figures), r.newest_date ?? '-', `${(r.ms / 1000).toFixed(1)} s`, r.cause?.words ?? (r.outcome === 'no key' ? r.error! : '-')]),
  ]);
}
