// The rates built in a worker thread (rates-worker.ts), not on the thread that answers requests.
// Measuring the quality and blending are pure CPU no turn of the loop splits: 100–450 ms for the
// blend and 240–360 ms for the quality beside two busy processes, in the first minute of a start
// with polling on (issue 34, D31). The worker reads the figures itself from its own connection, so
// only the build's result (a few thousand small objects) crosses to this thread, not the ~200k
// figures it is made from. It starts with the first build it is asked for and ends after a minute
// without one, so an idle server does not keep a second copy of every adapter in memory.
import { sourceByCode } from '../sources/index.js';
import type { Source } from '../sources/types.js';
import type { Built } from './build.js';
import { spawnWorker, workerFile, WorkerOnDemand } from '../time/worker-thread.js';
import { fromWire, type WireBuilt } from './rates-wire.js';

export interface BuildJob {
  id: number;
  /** The moment the rates stand for (ISO 8601). */
  now: string;
  graceDays: number;
  /** The registry's sources to build from, by code (the worker finds them in its own registry). */
  codes: string[];
}
export type BuildReply = { id: number; built: WireBuilt } | { id: number; error: { name: string; message: string; stack: string } };

/** How long the worker outlives its last build. */
export const RATES_IDLE_MS = 60_000;

interface Job {
  resolve: (b: Built) => void;
  reject: (err: Error) => void;
}

/** The worker's file: compiled, its .js beside this file's; under tsx, the .ts. */
const WORKER_FILE = workerFile(import.meta.url, 'rates-worker');

/** Whether `sources` can be built in the worker: all the registry's own (a test's are not). */
export const workerCanBuild = (sources: readonly Source[]): boolean => sources.every((s) => sourceByCode(s.code) === s);

export class RatesThread {
  private readonly thread: WorkerOnDemand<BuildReply, Job>;
  private next = 0;
  /** The builds in flight, which a close lets finish. */
  private readonly running = new Set<Promise<Built>>();

  /** `databaseUrl`: the store's, which the worker opens itself (a file or a server, not `:memory:`). */
  constructor(databaseUrl: string, idleMs = RATES_IDLE_MS) {
    const spawn = () => spawnWorker(WORKER_FILE, { workerData: { databaseUrl } });
    this.thread = new WorkerOnDemand({ spawn, name: 'rates worker', idleMs, onReply: (m) => this.reply(m) });
  }

  /** The rates from `sources` (the registry's) as of `now`, built in the worker. */
  build(sources: readonly Source[], now: Date, graceDays: number): Promise<Built> {
    const worker = this.thread.start();
    const id = this.next++;
    const built = new Promise<Built>((resolve, reject) => {
      this.thread.jobs.set(id, { resolve, reject });
      worker.postMessage({ id, now: now.toISOString(), graceDays, codes: sources.map((s) => s.code) } satisfies BuildJob);
    });
    this.running.add(built);
    const done = () => void this.running.delete(built);
    built.then(done, done);
    return built;
  }

  /** Ends the worker once the builds in flight have finished (a build takes under a second). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.running]);
    await this.thread.end(undefined);
  }

  private reply(m: BuildReply): void {
    const job = this.thread.jobs.get(m.id);
    if (!job) return;
    this.thread.jobs.delete(m.id);
    if ('built' in m) job.resolve(fromWire(m.built));
    else job.reject(Object.assign(new Error(m.error.message), { name: m.error.name, stack: m.error.stack }));
    this.thread.settled();
  }
}
