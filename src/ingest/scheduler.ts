// Polls every source on its own cron (UTC). Sources run independently: a slow or failing feed
// never delays another, and one source never overlaps itself. At start, sources whose data is
// older than their cadence are fetched at once, closing the gap left by downtime. At most a few
// sources run at once; a stop aborts whatever is still waiting on a feed (D26). Payloads are parsed
// in a worker thread (parser-thread.ts, D29), which a stop ends.
import { Cron } from 'croner';
import { sourceFreshUntil } from '../blend/freshness.js';
import { undici } from '../sources/tls.js';
import type { Source } from '../sources/types.js';
import type { SourceHealth } from '../store/store.js';
import { Limiter } from './abort.js';
import { failureCause, retryNotBefore } from './causes.js';
import { ingestLive, STOPPED, type LiveDeps, type LiveResult } from './live.js';
import { ParserThread } from './parser-thread.js';
import { turn } from '../time/turns.js';

/** Sources fetched at once. Each waits on DNS (getaddrinfo, one of libuv's four threads while it
 *  waits), and parsed on the main thread before D29: at start ~90 sources catching up together
 *  starved file reads and requests on a busy 2-core machine (issue 34). Three leaves a thread free. */
export const MAX_PARALLEL_SOURCES = 3;
/** How long one look at every source's health (a scan of the observations) serves the runs of a tick. */
const HEALTH_REUSE_MS = 60_000;
/** During a start's catch-up, new data is handed on at most this often, and once at its end: ~90
 *  sources storing one after another set off a rebuild of the rates (and history) each, back to back
 *  on the main thread, in the minute a newcomer first tries the API (issue 34). */
const CATCH_UP_DATA_MS = 10_000;

/** Loads Node's fetch (its bundled undici) now, at a start with polling on, before the server
 *  listens: it loads at the first `fetch` of the process otherwise, one synchronous task of 40 ms on
 *  a quiet machine and 150–250 ms beside two busy processes, in the minute a newcomer first tries the
 *  API (issue 34, D31). Reading `Response` is what loads it. The npm undici too when a source will
 *  need it (its TLS intermediates, tls.ts): its first fetch would load it otherwise (~60 ms). */
export function loadFetch(sources: readonly Pick<Source, 'tlsIntermediates'>[]): void {
  void globalThis.Response;
  if (sources.some((s) => (s.tlsIntermediates ?? []).length > 0)) undici();
}

export interface SchedulerDeps extends LiveDeps {
  sources: readonly Source[];
  /** Called after a run that stored something, to rebuild the rates. */
  onData: () => Promise<void>;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** CATCH_UP_DATA_MS unless given (tests). */
  catchUpDataMs?: number;
}

export class Scheduler {
  private readonly jobs: Cron[] = [];
  private readonly running = new Map<string, Promise<LiveResult>>();
  private readonly stopping = new AbortController();
  private readonly slots = new Limiter(MAX_PARALLEL_SOURCES);
  private snapshot: { at: number; health: Promise<Map<string, SourceHealth>> } | undefined;
  /** Set while a catch-up runs: stored data waits for `handOn` instead of a rebuild per source. */
  private catchingUp: { pending: boolean; timer?: NodeJS.Timeout } | undefined;
  private readonly parser = new ParserThread();

  constructor(private readonly deps: SchedulerDeps) {}

  start(): void {
    void this.schedule();
    void this.catchUp();
  }

  /** How many sources' crons are running (a stop ends them all). */
  get scheduled(): number {
    return this.jobs.filter((j) => j.isRunning()).length;
  }

  /** Each source's cron, one per turn of the event loop: made in one go, ~100 took 25–50 ms on a
   *  quiet machine and over 100 ms beside busy processes, as the server began to listen (issue 34). */
  private async schedule(): Promise<void> {
    for (const source of this.live()) {
      if (this.stopping.signal.aborted) return;
      this.jobs.push(new Cron(source.schedule, { timezone: 'UTC', protect: true }, () => void this.run(source, { scheduled: true })));
      await turn();
    }
  }

  /** Fetches every source whose newest figure (a period source's newest period) is older than its
   *  cadence allows. */
  async catchUp(): Promise<void> {
    const health = await this.health();
    const today = this.deps.now().toISOString().slice(0, 10);
    const catchingUp: NonNullable<Scheduler['catchingUp']> = { pending: false };
    this.catchingUp = catchingUp;
    try {
      await Promise.all(
        this.live()
          .filter((s) => {
            const fresh = sourceFreshUntil(s, health.get(s.code), 0);
            return fresh === undefined || fresh < today;
          })
          .map((s) => this.run(s)),
      );
    } finally {
      this.catchingUp = undefined;
      clearTimeout(catchingUp.timer);
      if (catchingUp.pending && !this.stopping.signal.aborted) await this.dataLanded();
    }
  }

  /** Hands new data on: at once, or during a catch-up at most every CATCH_UP_DATA_MS and at its end. */
  private async handOn(): Promise<void> {
    const c = this.catchingUp;
    if (!c) return this.dataLanded();
    c.pending = true;
    c.timer ??= setTimeout(() => {
      c.timer = undefined;
      if (!c.pending || this.catchingUp !== c) return;
      c.pending = false;
      void this.dataLanded();
    }, this.deps.catchUpDataMs ?? CATCH_UP_DATA_MS);
  }

  /** onData, whose failure is logged: a catch-up runs unawaited from start(). */
  private dataLanded(): Promise<void> {
    return this.deps.onData().catch((err: Error) => this.deps.log.warn({ err: err.message }, 'handing on new data failed'));
  }

  /** Every source's health, looked up once for the runs of a tick rather than once per source
   *  (~90 scans of the observations at start, 300–500 ms each on a full database). */
  private health(): Promise<Map<string, SourceHealth>> {
    const at = performance.now();
    if (!this.snapshot || at - this.snapshot.at > HEALTH_REUSE_MS) {
      const health = this.deps.store.sourceHealth().then((rows) => new Map(rows.map((h) => [h.source, h])));
      this.snapshot = { at, health };
      health.catch(() => (this.snapshot = undefined));
    }
    return this.snapshot.health;
  }

  /** A skip while a source that keeps failing waits out its backoff. */
  private async backingOff(code: string): Promise<LiveResult | undefined> {
    const h = (await this.health()).get(code);
    const until = h && retryNotBefore(h.failures, h.lastErrorAt);
    if (!h?.lastError || !until || until <= this.deps.now()) return undefined;
    return { source: code, status: 'skipped', reason: `backing off until ${until.toISOString().slice(0, 16)}Z after ${h.failures} failures in a row (${failureCause(h.lastError).words})` };
  }

  /** Historical-only publishers have nothing new to fetch. */
  private live(): Source[] {
    return this.deps.sources.filter((s) => !s.discontinued);
  }

  /** One run of one source; a second call while it runs joins the first. A scheduled run of a source
   *  that keeps failing waits out its backoff (causes.ts); a start's catch-up and `kurs ingest` do not:
   *  a restart after a fix retries at once. */
  run(source: Source, opts: { scheduled?: boolean } = {}): Promise<LiveResult> {
    const inFlight = this.running.get(source.code);
    if (inFlight) return inFlight;
    const deps: LiveDeps = { prepare: this.parser.prepare, follow: this.parser.follow, ...this.deps, signal: this.stopping.signal, newestDate: async (code) => (await this.health()).get(code)?.newestDate ?? null };
    const run = this.slots
      .run(async (): Promise<LiveResult> => {
        if (this.stopping.signal.aborted) return { source: source.code, status: 'fetch_failed', reason: STOPPED };
        const waiting = opts.scheduled ? await this.backingOff(source.code) : undefined;
        return waiting ?? ingestLive(deps, source);
      })
      .then(async (result) => {
        if (result.status === 'fetch_failed' && result.reason === STOPPED) return result;
        this.report(result);
        // A payload stored with every figure unchanged (a history re-fetched) gives nothing to rebuild.
        if (result.status === 'done' && result.outcomes.some((o) => o.status === 'stored' && o.inserted + o.revised > 0)) {
          this.snapshot = undefined;
          await this.handOn();
        }
        return result;
      })
      .catch((err: Error) => {
        this.deps.log.warn({ source: source.code, err: err.message }, 'ingest run failed');
        return { source: source.code, status: 'fetch_failed', reason: err.message } as LiveResult;
      })
      .finally(() => this.running.delete(source.code));
    this.running.set(source.code, run);
    return run;
  }

  private report(result: LiveResult): void {
    if (result.status !== 'done') {
      this.deps.log.warn({ source: result.source, reason: result.reason }, `source ${result.status}`);
      return;
    }
    for (const o of result.outcomes) {
      if (o.status === 'failed') this.deps.log.warn({ source: o.source, payload: o.name, reason: o.reason }, 'payload rejected');
      else if (o.status === 'stored') this.deps.log.info({ source: o.source, payload: o.name, inserted: o.inserted, revised: o.revised }, 'payload stored');
    }
  }

  /** Stops the crons, aborts the runs still waiting on a feed or a parse, and ends the parsing
   *  thread (what the runs stored stays stored). */
  async stop(): Promise<void> {
    for (const job of this.jobs) job.stop();
    const inFlight = [...this.running.keys()];
    this.stopping.abort();
    await Promise.all([this.parser.close(), ...this.running.values()]);
    if (inFlight.length > 0) this.deps.log.info({ aborted: inFlight.length, sources: inFlight.join(',') }, 'stopped: aborted the feed runs in flight or waiting');
  }
}
