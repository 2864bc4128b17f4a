// Loading the seed's history part after the server listens: through the ordinary ingest path, in
// small batches with a pause between them, so requests and other writers keep getting through. Every
// batch is one idempotent snapshot: an interrupted load resumes where it stopped on the next start.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SqliteSync } from '../config.js';
import type { Source } from '../sources/types.js';
import type { Store } from '../store/store.js';
import { ingestPayload, sha256 } from './ingest.js';
import { seedObservation } from './seed.js';
import { batchRows, historyBatches, lastBatch, openSeedHistory, type BatchSource, type HistoryManifest, type SeedHistory } from './seed-history-file.js';

/** Rows per snapshot: one batch holds the event loop for a few milliseconds (SQLite writes in-process). */
export const HISTORY_BATCH_ROWS = 500;

/**
 * How far a first start has come. `loaded`: the seed's history rows are in the database (or no
 * load was needed). `settled`: after that, this process's first history catch-up has ended, so
 * every materialised day is known. In between, a day that is not materialised cannot be told right
 * (its blend builds on the days before it): the history gate (src/http/history-gate.ts) answers
 * 503 `unavailable` with `Retry-After` for it, never a partial answer or a wrong 404.
 */
export class HistoryReadiness {
  private done = false;
  private caughtUp = false;
  private resolve!: () => void;
  /** Resolves once the load has finished (or was not needed); never rejects. */
  readonly ready = new Promise<void>((r) => (this.resolve = r));

  get loaded(): boolean {
    return this.done;
  }

  get settled(): boolean {
    return this.caughtUp;
  }

  markLoaded(): void {
    this.done = true;
    this.resolve();
  }

  /** The first catch-up after the load has ended (implies loaded). */
  markSettled(): void {
    this.markLoaded();
    this.caughtUp = true;
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

/**
 * The pause after a batch: half as long as the batch took, at least MIN_GAP_MS. A SQLite write
 * holds the database's one write lock; other processes (`kurs ingest`, `kurs keys create`) wait for
 * it polling every few to 100 ms, and back-to-back batches would starve them into "database is
 * locked". A third of the time free lets them in, and the event loop answers requests meanwhile.
 */
export const MIN_GAP_MS = 10;

export async function loadSeedHistory(
  store: Store,
  sources: readonly Source[],
  history: SeedHistory | BatchSource,
  now: () => Date,
  opts: {
    batchRows?: number;
    pause?: () => Promise<void>;
    signal?: AbortSignal;
    /** Another process (`kurs ingest`, an instance) stored data during the load: rebuild for it now. */
    onForeignData?: () => void;
    /** The data version the caller last served; default: the version when the load begins. */
    since?: number;
  } = {},
): Promise<HistoryLoadReport> {
  const maxRows = opts.batchRows ?? HISTORY_BATCH_ROWS;
  const report: HistoryLoadReport = { stored: 0, already: 0, inserted: 0, failed: [] };
  const input: BatchSource = 'text' in history ? { batches: (rows) => historyBatches(history.text, rows) } : history;
  const byCode = new Map(sources.map((s) => [s.code, s]));
  // Only the sources this instance uses are loaded (D22): the seed's figures of one that is off
  // are never stored, so they can be neither served nor blended.
  const last = await lastBatch(input, maxRows, (source) => byCode.has(source));
  // Batches are stored in order, so the last one stored means an earlier start finished the load.
  if (!last || (await store.hasSnapshot(last.source, sha256(last.body)))) return report;
  /** How long the last batch held the write lock; 0 after a batch found stored (nothing written). */
  let lastMs = 0;
  const pause = opts.pause ?? (() => new Promise<void>((r) => (lastMs === 0 ? setImmediate(r) : setTimeout(r, Math.max(MIN_GAP_MS, lastMs / 2)))));
  // Snapshot ids grow by one per stored snapshot: a version this loop did not make is someone else's
  // (on PostgreSQL a rolled-back id is skipped too: at worst one rebuild more). A batch whose figures
  // were all stored already (the ECB's history ingested before the load, say) is a snapshot too, but
  // one the data version skips (D29): `silent` counts this loop's since its last version, so that
  // the next batch's id, one past them, is still known as its own.
  let own = opts.since ?? (await store.dataVersion());
  let silent = 0;
  for await (const batch of input.batches(maxRows)) {
    await pause();
    if (opts.signal?.aborted) break;
    const version = await store.dataVersion();
    if (version !== own) {
      opts.onForeignData?.();
      silent = 0;
    }
    own = version;
    const source = byCode.get(batch.source);
    if (!source) continue;
    if (await store.hasSnapshot(batch.source, sha256(batch.body))) {
      lastMs = 0;
      report.already++;
      continue;
    }
    const seedSource: Source = {
      ...source,
      parse: () => batchRows(batch.body).map(seedObservation),
    };
    // The history is what the banks published; real devaluations in it are not ingest faults.
    const started = performance.now();
    const outcome = await ingestPayload(store, seedSource, { name: 'seed-history', body: Buffer.from(batch.body) }, now(), { acceptJumps: true, seed: true });
    lastMs = performance.now() - started;
    // Another writer may have got the lock right after this batch's commit: its id comes after ours.
    own = await store.dataVersion();
    if (outcome.status === 'stored' && own === version) silent++;
    else if (outcome.status === 'stored' && own === version + silent + 1) silent = 0;
    else if (own !== version) {
      opts.onForeignData?.();
      silent = 0;
    }
    if (outcome.status === 'stored') {
      report.stored++;
      report.inserted += outcome.inserted;
    } else if (outcome.status === 'failed') {
      report.failed.push({ source: batch.source, reason: outcome.reason });
    }
  }
  return report;
}

/** The store's mark (Store.mark) of a seed history loaded whole. */
export const SEED_MARK = 'seed-history';

/** What a finished load marks: the history's digest (of its text, manifest.sha256), the batch size
 *  (a batch is a snapshot, found stored by its hash) and the sources loaded (D22: turning one on
 *  loads its batches). A start that finds it skips the worker that read the 3.4 MB file through only
 *  to find the last batch stored (~1 s of a core, ~40 MB; D30). */
export function seedMark(manifest: HistoryManifest, sources: readonly Source[]): string {
  return `${manifest.sha256} batch ${HISTORY_BATCH_ROWS} sources ${sources.map((s) => s.code).sort().join(',')}`;
}

export interface BackgroundHistory {
  /** Stops between two batches (the next start resumes) and resolves once nothing is being written. */
  stop(): Promise<void>;
}

/**
 * `kurs serve` after it listens: loads the bundled history, then marks `readiness` and calls
 * `onData`, the same "data changed" signal an ingest gives, so the rates and history are rebuilt.
 * Meanwhile the server skips its polls' rebuilds (each batch would set one off) and this calls
 * `onData` whenever another process stored data, so that is still served within a batch or two.
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
  /** A SQLite file: load it, and materialise what the load touched, from a worker thread
   *  (seed-history-worker.ts) with its own connection; `today` and `graceDays` as History's. */
  worker?: { path: string; sync: SqliteSync; graceDays: number; enable: readonly string[]; today: () => string };
}): BackgroundHistory {
  const foreign = () => void deps.onData().catch((err: Error) => deps.log.error({ err }, 'could not check for new data'));
  const abort = new AbortController();
  const started = performance.now();
  // Data stored while the file is read counts as foreign too: the baseline is taken first.
  const since = deps.store.dataVersion();
  const worker = deps.worker && existsSync(WORKER) ? deps.worker : undefined;
  const load = (v: number): Promise<HistoryLoadReport> =>
    worker
      ? inWorker({ path: worker.path, sync: worker.sync, graceDays: worker.graceDays, enable: [...worker.enable], today: worker.today(), file: deps.file?.href, since: v }, abort.signal, foreign, deps.log)
      : openSeedHistory(deps.file).then((history) => loadSeedHistory(deps.store, deps.sources, history, deps.now, { signal: abort.signal, onForeignData: foreign, since: v }));
  let mark = '';
  const run = Promise.all([openSeedHistory(deps.file), since])
    .then(async ([history, v]) => {
      // A load that finished before left its mark: nothing to read through (D30).
      mark = seedMark(history.manifest, deps.sources);
      return (await deps.store.mark(SEED_MARK)) === mark ? { stored: 0, already: 0, inserted: 0, failed: [], marked: true } : load(v);
    })
    .then(async (report: HistoryLoadReport & { marked?: boolean }) => {
      if (abort.signal.aborted) return;
      deps.log.info({ ...report, ms: Math.round(performance.now() - started) }, report.stored > 0 ? 'seed history loaded' : 'seed history already loaded');
      for (const f of report.failed) deps.log.error(f, 'seed history batch not loaded');
      if (!report.marked && report.failed.length === 0) await deps.store.setMark(SEED_MARK, mark);
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

/** What the worker is given (seed-history-worker.ts), and what it posts back. */
export interface WorkerInput {
  path: string;
  sync: SqliteSync;
  /** The manifest's URL, as text. */
  file: string | undefined;
  since: number;
  graceDays: number;
  /** KURS_ENABLE_SOURCES: the worker uses the same sources as the server (D22). */
  enable: string[];
  today: string;
}

export type WorkerMessage = { foreign: true } | { materialised: { days: number; ranges: unknown; ms: number } } | { report: HistoryLoadReport } | { error: string };

/** The worker's compiled file: under tsx (src/) there is none, and the load runs in-process. */
const WORKER = fileURLToPath(new URL('./seed-history-worker.js', import.meta.url));

function inWorker(input: WorkerInput, signal: AbortSignal, foreign: () => void, log: { info(obj: object, msg: string): void }): Promise<HistoryLoadReport> {
  return new Promise((resolve, reject) => {
    // A young generation of 16 MB, not V8's default: materialising allocates fast, and the worker's
    // isolate holds its young space beside the server's (peak RSS of a first start that loads the
    // history itself: 210–218 MB here, 228–237 MB without).
    const worker = new Worker(WORKER, { workerData: input, resourceLimits: { maxYoungGenerationSizeMb: 16 } });
    const stop = () => worker.postMessage('stop');
    signal.addEventListener('abort', stop, { once: true });
    let report: HistoryLoadReport | undefined;
    worker.on('message', (m: WorkerMessage) => {
      if ('foreign' in m) foreign();
      else if ('materialised' in m) log.info(m.materialised, 'history materialised');
      else if ('report' in m) report = m.report;
      else reject(new Error(m.error));
    });
    worker.on('error', reject);
    worker.on('exit', () => {
      signal.removeEventListener('abort', stop);
      if (report) resolve(report);
      else reject(new Error('the seed history worker ended without a report'));
    });
  });
}
