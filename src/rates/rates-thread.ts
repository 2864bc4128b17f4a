// The rates built in a worker thread (rates-worker.ts), not on the thread that answers requests.
// Measuring the quality and blending are pure CPU no turn of the loop splits: 100–450 ms for the
// blend and 240–360 ms for the quality beside two busy processes, in the first minute of a start
// with polling on (issue 34, D31). The worker reads the figures itself from its own connection, so
// only the build's result (a few thousand small objects) crosses to this thread, not the ~200k
// figures it is made from. Each job carries its sources as data, so the worker loads no adapter and
// no parser (~11 MB less at the server's peak, and a first build in half the time). It starts with the
// first build it is asked for and ends after a minute without one, so an idle server does not keep it.
import type { PgOptions } from '../store/open.js';
import type { BuildSource, Built } from './build.js';
import { spawnWorker, workerFile, WorkerOnDemand } from '../time/worker-thread.js';
import { fromWire, type WireBuilt } from './rates-wire.js';

export interface BuildJob {
  id: number;
  /** The moment the rates stand for (ISO 8601). */
  now: string;
  graceDays: number;
  /** The sources to build from, as data (factsOf). */
  sources: BuildSource[];
}
/** What the worker opens: the server's database, with the server's settings for PostgreSQL. */
export interface WorkerData {
  databaseUrl: string;
  pg: PgOptions;
}
export type BuildReply = { id: number; built: WireBuilt } | { id: number; error: { name: string; message: string; stack: string } };

/** How long the worker outlives its last build. */
export const RATES_IDLE_MS = 60_000;

interface Job {
  resolve: (b: Built) => void;
  reject: (err: Error) => void;
}

/** The worker's young generation, MB. With V8's default a build's short-lived objects filled ~34 MB
 *  of new space; with 8, bench/history.ts's peak RSS was 269 MB instead of 285 and a warm build took
 *  245–305 ms instead of 225–291 (one run each, 2 cores): a little more collecting, off this thread. */
const YOUNG_GENERATION_MB = 8;

/** The worker's file: compiled, its .js beside this file's; under tsx, the .ts. */
const WORKER_FILE = workerFile(import.meta.url, 'rates-worker');

/** A source as data: its own fields but the adapter's functions, which a build never calls and a
 *  structured clone cannot copy. */
export const factsOf = (source: BuildSource): BuildSource => Object.fromEntries(Object.entries(source).filter(([, v]) => typeof v !== 'function')) as unknown as BuildSource;

export class RatesThread {
  private readonly thread: WorkerOnDemand<BuildReply, Job>;
  private next = 0;
  /** The builds in flight, which a close lets finish. */
  private readonly running = new Set<Promise<Built>>();

  /** `database`: the store's URL, which the worker opens itself (a file or a server, not `:memory:`),
   *  and the operator's PostgreSQL settings (KURS_DB_*), so that its queries time out as the server's do. */
  constructor(database: WorkerData, idleMs = RATES_IDLE_MS) {
    const spawn = () => spawnWorker(WORKER_FILE, { workerData: database, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    this.thread = new WorkerOnDemand({ spawn, name: 'rates worker', idleMs, onReply: (m) => this.reply(m) });
  }

  /** The rates from `sources` as of `now`, built in the worker. */
  build(sources: readonly BuildSource[], now: Date, graceDays: number): Promise<Built> {
    const worker = this.thread.start();
    const id = this.next++;
    const built = new Promise<Built>((resolve, reject) => {
      this.thread.jobs.set(id, { resolve, reject });
      worker.postMessage({ id, now: now.toISOString(), graceDays, sources: sources.map(factsOf) } satisfies BuildJob);
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
