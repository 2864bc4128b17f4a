// Loading the seed's history part after the server listens: through the ordinary ingest path, in
// small batches with a turn of the event loop between them, so requests keep being answered. Every
// batch is one idempotent snapshot: an interrupted load resumes where it stopped on the next start.
import type { Source } from '../sources/types.js';
import type { Store } from '../store/store.js';
import { ingestPayload, sha256 } from './ingest.js';
import { batchRows, historyBatches, lastHistoryBatch, readSeedHistory, type SeedHistory } from './seed-history-file.js';

/** Rows per snapshot: one batch holds the event loop for a few milliseconds (SQLite writes in-process). */
export const HISTORY_BATCH_ROWS = 500;

/**
 * Whether the seed's history is in the database yet. Until it is, a dated request for a day before
 * the recent part may find too little data: the history endpoints answer 503 `unavailable` with
 * `Retry-After` for those days rather than a partial answer.
 */
export class HistoryReadiness {
  private done = false;
  private resolve!: () => void;
  /** Resolves once the load has finished (or was not needed); never rejects. */
  readonly ready = new Promise<void>((r) => (this.resolve = r));

  get loaded(): boolean {
    return this.done;
  }

  markLoaded(): void {
    this.done = true;
    this.resolve();
  }
}

export interface HistoryLoadReport {
  /** Batches stored now. */
  stored: number;
  /** Batches an earlier start stored. */
  already: number;
  inserted: number;
  failed: { source: string; reason: string }[];
}

const nextTurn = () => new Promise<void>((r) => setImmediate(r));

export async function loadSeedHistory(
  store: Store,
  sources: readonly Source[],
  history: SeedHistory,
  now: () => Date,
  opts: { batchRows?: number; pause?: () => Promise<void>; signal?: AbortSignal } = {},
): Promise<HistoryLoadReport> {
  const maxRows = opts.batchRows ?? HISTORY_BATCH_ROWS;
  const report: HistoryLoadReport = { stored: 0, already: 0, inserted: 0, failed: [] };
  const last = lastHistoryBatch(history.text, maxRows);
  // Batches are stored in order, so the last one stored means an earlier start finished the load.
  if (!last || (await store.hasSnapshot(last.source, sha256(last.body)))) return report;
  const pause = opts.pause ?? nextTurn;
  const byCode = new Map(sources.map((s) => [s.code, s]));
  for (const batch of historyBatches(history.text, maxRows)) {
    await pause();
    if (opts.signal?.aborted) break;
    const source = byCode.get(batch.source);
    if (!source) continue;
    if (await store.hasSnapshot(batch.source, sha256(batch.body))) {
      report.already++;
      continue;
    }
    const seedSource: Source = {
      ...source,
      parse: () => batchRows(batch.body).map(([date, quote, rate, unit, direction, table]) => ({ date, quote, rate, unit, direction, ...(table ? { table } : {}) })),
    };
    // The history is what the banks published; real devaluations in it are not ingest faults.
    const outcome = await ingestPayload(store, seedSource, { name: 'seed-history', body: Buffer.from(batch.body) }, now(), { acceptJumps: true });
    if (outcome.status === 'stored') {
      report.stored++;
      report.inserted += outcome.inserted;
    } else if (outcome.status === 'failed') {
      report.failed.push({ source: batch.source, reason: outcome.reason });
    }
  }
  return report;
}

export interface BackgroundHistory {
  /** Stops between two batches (the next start resumes) and resolves once nothing is being written. */
  stop(): Promise<void>;
}

/**
 * `kurs serve` after it listens: loads the bundled history, then marks `readiness` and calls
 * `onData`, the same "data changed" signal an ingest gives, so the rates and history are rebuilt.
 * A missing or broken history file is logged; the server then serves what the database holds.
 */
export function startSeedHistory(deps: {
  store: Store;
  sources: readonly Source[];
  readiness: HistoryReadiness;
  now: () => Date;
  onData: () => Promise<void>;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** The manifest; default the bundled seed/history.json. */
  file?: URL;
}): BackgroundHistory {
  const abort = new AbortController();
  const started = performance.now();
  const run = readSeedHistory(deps.file)
    .then((history) => loadSeedHistory(deps.store, deps.sources, history, deps.now, { signal: abort.signal }))
    .then(async (report) => {
      if (abort.signal.aborted) return;
      deps.log.info({ ...report, ms: Math.round(performance.now() - started) }, report.stored > 0 ? 'seed history loaded' : 'seed history already loaded');
      for (const f of report.failed) deps.log.error(f, 'seed history batch not loaded');
      deps.readiness.markLoaded();
      if (report.stored > 0) await deps.onData();
    })
    .catch((err: Error) => {
      deps.log.error({ err }, 'could not load the seed history');
      deps.readiness.markLoaded();
    });
  return {
    stop: () => {
      abort.abort();
      return run;
    },
  };
}
