// A worker thread for work taken off the thread that answers requests (the parse worker, D29; the
// rates worker, D31): started by the first job, ended after a while without one, so an idle server
// does not keep a second copy of its modules in memory. The jobs in hand are its owner's; a crash
// fails them all, and the next job starts a new worker.
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** A job in hand, which the worker's end fails. */
export interface HeldJob {
  reject(err: Error): void;
}

/** The worker script `name` beside the module at `from` (its `import.meta.url`): the compiled .js,
 *  or under tsx the .ts. */
export const workerFile = (from: string, name: string): URL => new URL(`./${name}${from.endsWith('.ts') ? '.ts' : '.js'}`, from);

/** `file`, compiled (a .js) as is; under tsx (tests, `node --import tsx`) a .ts through tsx's loader,
 *  which a worker thread does not inherit from the process. */
export function spawnWorker(file: URL, options: WorkerOptions): Worker {
  if (!file.pathname.endsWith('.ts')) return new Worker(file, options);
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(file.href)}); })`, { ...options, eval: true });
}

export class WorkerOnDemand<Reply, Job extends HeldJob> {
  private worker: Worker | undefined;
  readonly jobs = new Map<number, Job>();
  private idle: NodeJS.Timeout | undefined;

  /** `name` words the failures (`the ${name} failed: …`); `onReply` gets each message; `ended`, the
   *  error of jobs held by a worker that ends without one. */
  constructor(private readonly opts: { spawn: () => Worker; name: string; idleMs: number; onReply: (m: Reply) => void; ended?: () => Error }) {}

  /** The running worker, if any. */
  get current(): Worker | undefined {
    return this.worker;
  }

  /** The worker, started if none runs; it keeps the process alive while it has jobs. */
  start(): Worker {
    clearTimeout(this.idle);
    if (this.worker) {
      this.worker.ref();
      return this.worker;
    }
    const worker = this.opts.spawn();
    worker.on('message', (m: Reply) => this.opts.onReply(m));
    // A crash (an error outside a promise, memory exhausted) fails the jobs it held.
    worker.on('error', (err) => void this.end(new Error(`the ${this.opts.name} failed: ${err.message}`), worker));
    worker.on('exit', (code) => void this.end(new Error(`the ${this.opts.name} exited with code ${code}`), worker));
    this.worker = worker;
    return worker;
  }

  /** After a job is done: without jobs, the worker may not keep the process alive, and ends if no
   *  job comes within `idleMs`. */
  settled(): void {
    if (this.jobs.size > 0 || !this.worker) return;
    this.worker.unref();
    this.idle = setTimeout(() => void this.end(undefined), this.opts.idleMs).unref();
  }

  /** Stops `worker` (default the current one) and fails what it held with `err` (or `ended`'s). */
  async end(err: Error | undefined, worker = this.worker): Promise<void> {
    if (!worker || worker !== this.worker) return;
    this.worker = undefined;
    clearTimeout(this.idle);
    const held = [...this.jobs.values()];
    this.jobs.clear();
    for (const job of held) job.reject(err ?? this.opts.ended?.() ?? new Error(`the ${this.opts.name} ended`));
    await worker.terminate();
  }
}
