// The server's parsing thread: payloads are parsed and validated (prepare.ts) in a worker thread
// (parse-worker.ts), not on the thread that answers requests. A start's catch-up against feeds that
// answer parses workbooks and multi-MB histories back to back: on the main thread /healthz waited up
// to 3 s (10 s beside two CPU-bound processes; issue 34, docs/performance.md). The worker starts with
// the first payload and ends after a minute without one, so an idle server does not keep a second
// copy of every adapter in memory.
import { sourceByCode } from '../sources/index.js';
import type { FeedRequest, FetchWindow, FollowedPage, RequestContext, Source } from '../sources/types.js';
import { ParserStopped, prepare, PreparedFailure, type Preparer } from './prepare.js';
import type { Normalized } from './validate.js';
import { spawnWorker, workerFile, WorkerOnDemand } from '../time/worker-thread.js';

/** The jobs the worker is sent, and what it posts back: the rows in slices (one message of 200k rows
 *  would take as long to copy in on the main thread as it saves), then the skipped codes or a
 *  failure; or a follow step's next requests (an HTML page parsed for its links and form fields:
 *  BAJA's held the loop 155 ms, D30), or the error it threw. */
export type ParseJob = { id: number; code: string; name: string; body: Uint8Array; today: string } | { id: number; code: string; follow: { page: FollowedPage; window: FetchWindow; ctx: RequestContext } };
/** The main thread asks for a job's next slice of rows with `{ next: id }`. */
export type ParseReply =
  | { id: number; rows: Normalized['rows'] }
  | { id: number; skipped: string[] }
  | { id: number; failure: PreparedFailure['failure'] }
  | { id: number; requests: FeedRequest[] }
  | { id: number; followError: { name: string; message: string } };

/** How long the worker outlives its last payload. */
export const PARSER_IDLE_MS = 60_000;

interface Job {
  rows: Normalized['rows'];
  resolve: (n: Normalized | FeedRequest[]) => void;
  reject: (err: Error) => void;
}

/** The worker's file: compiled, its .js beside this file's; under tsx, the .ts. */
const WORKER_FILE = workerFile(import.meta.url, 'parse-worker');

export class ParserThread {
  private readonly thread: WorkerOnDemand<ParseReply, Job>;
  private next = 0;
  private closed = false;

  /** `file`: another worker script (tests). */
  constructor(opts: { idleMs?: number; file?: URL } = {}) {
    // The young generation as the seed-history worker's (seed-history.ts): parsing allocates fast, and
    // V8's default would keep a large young space beside the server's for the worker's whole life.
    const spawn = () => spawnWorker(opts.file ?? WORKER_FILE, { resourceLimits: { maxYoungGenerationSizeMb: 16 } });
    this.thread = new WorkerOnDemand({ spawn, name: 'parse worker', idleMs: opts.idleMs ?? PARSER_IDLE_MS, onReply: (m) => this.reply(m), ended: () => new ParserStopped('the parse worker ended') });
  }

  /** A Preparer: registered adapters parse in the worker, which finds them by code; any other
   *  source object (a test's) in this thread. */
  readonly prepare: Preparer = (source, payload, today) => {
    if (this.closed) return Promise.reject(new ParserStopped('the parser is closed'));
    if (sourceByCode(source.code) !== source) return prepare(source, payload, today);
    return this.send((id) => ({ id, code: source.code, name: payload.name, body: payload.body, today })) as Promise<Normalized>;
  };

  /** A follow step (sources/fetch.ts's FollowStep): a registered adapter's runs in the worker; any other source's in this thread. */
  readonly follow = async (source: Source, page: FollowedPage, window: FetchWindow, ctx: RequestContext): Promise<FeedRequest[]> => {
    if (this.closed) throw new ParserStopped('the parser is closed');
    if (sourceByCode(source.code) !== source) return source.follow!(page, window, ctx);
    return this.send((id) => ({ id, code: source.code, follow: { page, window, ctx } })) as Promise<FeedRequest[]>;
  };

  private send(job: (id: number) => ParseJob): Promise<Normalized | FeedRequest[]> {
    const worker = this.thread.start();
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.thread.jobs.set(id, { rows: [], resolve, reject });
      worker.postMessage(job(id));
    });
  }

  /** Ends the worker; parses still waiting fail with ParserStopped. */
  async close(): Promise<void> {
    this.closed = true;
    await this.thread.end(new ParserStopped('the server is stopping'));
  }

  private reply(m: ParseReply): void {
    const jobs = this.thread.jobs;
    const job = jobs.get(m.id);
    if (!job) return;
    if ('rows' in m) {
      for (const r of m.rows) job.rows.push(r);
      // The next slice after a turn of the loop (parse-worker.ts): one slice per task.
      const worker = this.thread.current;
      setImmediate(() => {
        if (worker === this.thread.current && jobs.has(m.id)) worker?.postMessage({ next: m.id });
      });
      return;
    }
    jobs.delete(m.id);
    if ('failure' in m) job.reject(new PreparedFailure(m.failure));
    else if ('requests' in m) job.resolve(m.requests);
    else if ('followError' in m) job.reject(followError(m.followError));
    else job.resolve({ rows: job.rows, skipped: m.skipped });
    this.thread.settled();
  }
}

/** A follow step's error again, by name and message: a fetch's failure is recorded by its message
 *  (live.ts), whatever its class. */
function followError(e: { name: string; message: string }): Error {
  const err = new Error(e.message);
  err.name = e.name;
  return err;
}
