// Per-account request limit per plan (D12): a fixed one-minute window, in process memory.
// Good for one instance; a limit shared across instances comes with the PostgreSQL work.

export type LimitDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export class MinuteLimiter {
  private windowStart = 0;
  private counts = new Map<string, number>();

  check(accountId: string, limit: number | null, nowMs: number): LimitDecision {
    if (limit === null) return { ok: true };
    const window = Math.floor(nowMs / 60_000) * 60_000;
    if (window !== this.windowStart) {
      // A new minute: forget every account's count at once, so the map never grows without bound.
      this.windowStart = window;
      this.counts = new Map();
    }
    const used = this.counts.get(accountId) ?? 0;
    if (used >= limit) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((window + 60_000 - nowMs) / 1000)) };
    this.counts.set(accountId, used + 1);
    return { ok: true };
  }
}
