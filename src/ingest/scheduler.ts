// Polls every source on its own cron (UTC). Sources run independently: a slow or failing feed
// never delays another, and one source never overlaps itself. At start, sources whose data is
// older than their cadence are fetched at once, closing the gap left by downtime.
import { Cron } from 'croner';
import { sourceFreshUntil } from '../blend/freshness.js';
import type { Source } from '../sources/types.js';
import { ingestLive, type LiveDeps, type LiveResult } from './live.js';

export interface SchedulerDeps extends LiveDeps {
  sources: readonly Source[];
  /** Called after a run that stored something, to rebuild the rates. */
  onData: () => Promise<void>;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export class Scheduler {
  private readonly jobs: Cron[] = [];
  private readonly running = new Map<string, Promise<LiveResult>>();

  constructor(private readonly deps: SchedulerDeps) {}

  start(): void {
    for (const source of this.live()) {
      this.jobs.push(new Cron(source.schedule, { timezone: 'UTC', protect: true }, () => void this.run(source)));
    }
    void this.catchUp();
  }

  /** Fetches every source whose newest figure (a period source's newest period) is older than its
   *  cadence allows. */
  async catchUp(): Promise<void> {
    const health = new Map((await this.deps.store.sourceHealth()).map((h) => [h.source, h]));
    const today = this.deps.now().toISOString().slice(0, 10);
    await Promise.all(
      this.live()
        .filter((s) => {
          const fresh = sourceFreshUntil(s, health.get(s.code), 0);
          return fresh === undefined || fresh < today;
        })
        .map((s) => this.run(s)),
    );
  }

  /** Historical-only publishers have nothing new to fetch. */
  private live(): Source[] {
    return this.deps.sources.filter((s) => !s.discontinued);
  }

  /** One run of one source; a second call while it runs joins the first. */
  run(source: Source): Promise<LiveResult> {
    const inFlight = this.running.get(source.code);
    if (inFlight) return inFlight;
    const run = ingestLive(this.deps, source)
      .then(async (result) => {
        this.report(result);
        if (result.status === 'done' && result.outcomes.some((o) => o.status === 'stored')) await this.deps.onData();
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

  async stop(): Promise<void> {
    for (const job of this.jobs) job.stop();
    await Promise.all(this.running.values());
  }
}
