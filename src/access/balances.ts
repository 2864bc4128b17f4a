// The newest balance this instance knows per account, for answers that cost nothing (a 304, an
// error, a zero-cost endpoint): their `X-Points-Remaining` (D11). A key found in the key cache
// carries the balance read when the key was looked up, up to KURS_KEY_CACHE_MS old; a charge
// answered a moment ago knows better. Each figure is stamped with when it was true (a charge: when
// the meter answered; a lookup: when its query started), and the newer stamp wins, so a top-up read
// by a fresh lookup replaces an older charge's figure and the reverse. Charges on other instances
// reach this one through its next lookup of the key, as before.
import type { KeyLookup } from '../store/store.js';

/** One entry per account in use; beyond this the oldest entry goes (a lookup's figure is the fallback). */
export const MAX_BALANCES = 10_000;

interface Known {
  points: number;
  at: number;
}

export class Balances {
  private readonly known = new Map<string, Known>();

  constructor(private readonly clock: () => number = () => performance.now()) {}

  now(): number {
    return this.clock();
  }

  /** A balance that was true at `at` (this instance's monotonic clock). */
  saw(accountId: string, points: number, at = this.clock()): void {
    const k = this.known.get(accountId);
    if (k) {
      if (at >= k.at) (k.points = points), (k.at = at);
      return;
    }
    if (this.known.size >= MAX_BALANCES) this.known.delete(this.known.keys().next().value!);
    this.known.set(accountId, { points, at });
  }

  /** The newest balance known for the account of a verified key. */
  of(auth: KeyLookup): number {
    return this.known.get(auth.account.id)?.points ?? auth.account.points;
  }
}
