// Every rebuild of the rates goes through this one queue (docs/reliability.md#rebuilds): new data,
// the UTC day boundary and retries alike. One rebuild runs at a time, a burst of requests is served
// by one rebuild, and the data version counts as served only once a rebuild from it succeeded: a
// failed rebuild is retried with backoff instead of leaving new data unserved until the next ingest.
import type { Market } from './market.js';
import { DAY_MS } from '../time/days.js';

/** The day-boundary rebuild runs this long into the new UTC day, so that it never lands just before. */
const DAY_MARGIN_MS = 1_000;
/** First retry of a failed rebuild; each further failure doubles it, up to MAX_RETRY_MS. */
export const RETRY_MS = 1_000;
export const MAX_RETRY_MS = 60_000;

export interface RebuildLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** A step after a rebuild that brought in new data (materialising history, say). */
export type DataHook = (dataVersion: number) => Promise<void> | void;

export interface RebuildQueueDeps {
  market: Pick<Market, 'rebuild'>;
  dataVersion: () => Promise<number>;
  now: () => Date;
  log: RebuildLog;
  retryMs?: number;
  maxRetryMs?: number;
}

export class RebuildQueue {
  /** Run in order after each rebuild from new data; a failing step is logged and does not undo it. */
  readonly onData: DataHook[] = [];
  /** Steps run at each UTC day boundary beside the forced rebuild (retention, say). */
  readonly onDay: (() => void)[] = [];
  /** The data version of the last successful rebuild. */
  private built: number | undefined;
  private tail: Promise<void> = Promise.resolve();
  /** The pass queued behind the running one, which later requests join. */
  private next: Promise<void> | undefined;
  private forced = false;
  private failures = 0;
  private retry: NodeJS.Timeout | undefined;
  private midnight: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly deps: RebuildQueueDeps) {}

  /** The first build, at boot; it throws, since a server without rates should not start. */
  async boot(): Promise<void> {
    const version = await this.deps.dataVersion();
    await this.deps.market.rebuild(this.deps.now(), version);
    this.built = version;
    this.armDayBoundary();
  }

  /** Rebuilds if data landed since the last successful rebuild. Never rejects: a failure is logged
   *  and retried. Resolves when a pass that started after the call has run. */
  refresh(): Promise<void> {
    return this.enqueue();
  }

  /** Rebuilds for the new reference day, new data or not. */
  dayBoundary(): Promise<void> {
    this.forced = true;
    return this.enqueue();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    clearTimeout(this.midnight);
  }

  private enqueue(): Promise<void> {
    if (this.next) return this.next;
    const next = this.tail.then(() => {
      this.next = undefined;
      return this.pass();
    });
    this.next = next;
    this.tail = next;
    return next;
  }

  private async pass(): Promise<void> {
    const forced = this.forced;
    this.forced = false;
    if (this.stopped) return;
    let version: number;
    try {
      // Read before building: data landing during the build makes the next check rebuild again.
      version = await this.deps.dataVersion();
      if (!forced && version === this.built) return;
      await this.deps.market.rebuild(this.deps.now(), version);
    } catch (err) {
      const delay = Math.min((this.deps.retryMs ?? RETRY_MS) * 2 ** this.failures++, this.deps.maxRetryMs ?? MAX_RETRY_MS);
      this.deps.log.error({ err, retryInMs: delay }, 'rates rebuild failed; retrying');
      clearTimeout(this.retry);
      this.retry = setTimeout(() => void (forced ? this.dayBoundary() : this.refresh()), delay);
      this.retry.unref();
      return;
    }
    clearTimeout(this.retry);
    this.failures = 0;
    const fresh = version !== this.built;
    this.built = version;
    this.deps.log.info({ dataVersion: version }, forced ? 'rates rebuilt for the new day' : 'rates rebuilt');
    if (!fresh) return;
    for (const hook of this.onData) {
      try {
        await hook(version);
      } catch (err) {
        this.deps.log.error({ err, dataVersion: version }, 'a step after the rates rebuild failed');
      }
    }
  }

  private armDayBoundary(): void {
    if (this.stopped) return;
    const now = this.deps.now().getTime();
    this.midnight = setTimeout(() => {
      void this.dayBoundary();
      for (const step of this.onDay) step();
      this.armDayBoundary();
    }, DAY_MS - (now % DAY_MS) + DAY_MARGIN_MS);
    this.midnight.unref();
  }
}
