// The points meter (docs/decisions.md#d2-order-of-checks): one interface, so routes never change when the design does.
// BatchMeter is the default: a per-instance group commit (docs/scaling.md). DirectMeter is the
// naive one conditional UPDATE per request, kept for comparison (KURS_METER=direct).
import type { ChargeRequest, ChargeResult, Store } from '../store/store.js';

export interface Meter {
  /** Takes `cost` points atomically with the balance check; resolves only once the charge is durable. */
  charge(accountId: string, cost: number): Promise<ChargeResult>;
  /** The same, answered by calling `done` or `failed` (once, never both, never synchronously): for
   *  the fast lane, where the three promise reactions per request of `charge(…).then(…).catch(…)`
   *  were measurable. A callback should not throw: the batch meter raises what one throws as an
   *  uncaught error once the rest of its batch is answered; the direct meter, as an unhandled rejection. */
  chargeThen(accountId: string, cost: number, done: (r: ChargeResult) => void, failed: (err: unknown) => void): void;
}

export type MeterKind = 'batch' | 'direct';

/** Requests per transaction: bounds a batch's statement size and what one crash can cost. */
export const MAX_BATCH = 500;

export class DirectMeter implements Meter {
  constructor(private readonly store: Pick<Store, 'charge'>) {}

  charge(accountId: string, cost: number): Promise<ChargeResult> {
    return this.store.charge(accountId, cost);
  }

  chargeThen(accountId: string, cost: number, done: (r: ChargeResult) => void, failed: (err: unknown) => void): void {
    this.store.charge(accountId, cost).then(done, failed);
  }
}

interface Waiting extends ChargeRequest {
  done: (r: ChargeResult) => void;
  failed: (err: unknown) => void;
}

/**
 * Requests queue their charge; one transaction at a time charges everything queued, in arrival
 * order. Under load the queue fills while a transaction is in flight, so the cost of a commit is
 * shared by many requests; when idle a request waits for one event-loop turn only.
 */
export class BatchMeter implements Meter {
  private queue: Waiting[] = [];
  private busy = false;

  constructor(
    private readonly store: Pick<Store, 'chargeBatch'>,
    private readonly maxBatch = MAX_BATCH,
    /** Where a throwing callback's error goes: raised as an uncaught error, after the others are answered. */
    private readonly callbackError: (err: unknown) => void = (err) =>
      queueMicrotask(() => {
        throw err;
      }),
  ) {}

  charge(accountId: string, cost: number): Promise<ChargeResult> {
    return new Promise((resolve, reject) => this.chargeThen(accountId, cost, resolve, reject));
  }

  chargeThen(accountId: string, cost: number, done: (r: ChargeResult) => void, failed: (err: unknown) => void): void {
    this.queue.push({ accountId, cost, done, failed });
    if (!this.busy) {
      this.busy = true;
      // One turn of the loop first: on SQLite a charge completes without yielding, so without it
      // every batch would hold a single request.
      setImmediate(() => void this.drain());
    }
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      let results: ChargeResult[];
      try {
        results = await this.store.chargeBatch(batch);
      } catch (err) {
        // The transaction rolled back (or its commit is unknown): nobody in it is answered 2xx.
        for (const w of batch) w.failed(err);
        continue;
      }
      for (let i = 0; i < batch.length; i++) {
        try {
          batch[i]!.done(results[i]!);
        } catch (err) {
          this.callbackError(err);
        }
      }
    }
    this.busy = false;
  }
}

export function createMeter(kind: MeterKind, store: Store): Meter {
  return kind === 'direct' ? new DirectMeter(store) : new BatchMeter(store);
}
