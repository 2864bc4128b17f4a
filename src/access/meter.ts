// The points meter (docs/decisions.md#d2-order-of-checks): one interface, so routes never change when the design does.
// BatchMeter is the default: a per-instance group commit (docs/scaling.md). DirectMeter is the
// naive one conditional UPDATE per request, kept for comparison (KURS_METER=direct).
import type { ChargeRequest, ChargeResult, Store } from '../store/store.js';

export interface Meter {
  /** Takes `cost` points atomically with the balance check; resolves only once the charge is durable. */
  charge(accountId: string, cost: number): Promise<ChargeResult>;
}

export type MeterKind = 'batch' | 'direct';

/** Requests per transaction: bounds a batch's statement size and what one crash can cost. */
export const MAX_BATCH = 500;

export class DirectMeter implements Meter {
  constructor(private readonly store: Pick<Store, 'charge'>) {}

  charge(accountId: string, cost: number): Promise<ChargeResult> {
    return this.store.charge(accountId, cost);
  }
}

interface Waiting extends ChargeRequest {
  resolve: (r: ChargeResult) => void;
  reject: (err: unknown) => void;
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
  ) {}

  charge(accountId: string, cost: number): Promise<ChargeResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ accountId, cost, resolve, reject });
      if (!this.busy) {
        this.busy = true;
        // One turn of the loop first: on SQLite a charge completes without yielding, so without it
        // every batch would hold a single request.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const results = await this.store.chargeBatch(batch);
        batch.forEach((w, i) => {
          w.resolve(results[i]!);
        });
      } catch (err) {
        // The transaction rolled back (or its commit is unknown): nobody in it is answered 2xx.
        for (const w of batch) w.reject(err);
      }
    }
    this.busy = false;
  }
}

export function createMeter(kind: MeterKind, store: Store): Meter {
  return kind === 'direct' ? new DirectMeter(store) : new BatchMeter(store);
}
