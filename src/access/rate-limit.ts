// Per-account request limit per plan (D12): a fixed one-minute window. One instance (SQLite) counts
// in process memory; on PostgreSQL every instance counts in one shared row per account, so the limit
// holds however many instances serve the account. Only plans with a limit ever reach a limiter.
import type { Store } from '../store/store.js';

const MINUTE_MS = 60_000;

export interface LimitDecision {
  ok: boolean;
  limit: number;
  /** Requests left in this window after this one. */
  remaining: number;
  /** Seconds until the window resets (at least 1): `Retry-After` on a 429. */
  resetSeconds: number;
}

export interface RequestLimiter {
  /** Whether `check` decides in memory (one instance): the fast lane consults only such a limiter. */
  readonly inMemory: boolean;
  /** A decision at once when it needs no database (no promise on the request path), else a promise. */
  check(accountId: string, limit: number, nowMs: number): LimitDecision | Promise<LimitDecision>;
}

const windowOf = (nowMs: number) => Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;

/** `used` counts this request. */
function decide(limit: number, used: number, nowMs: number): LimitDecision {
  const resetSeconds = Math.max(1, Math.ceil((windowOf(nowMs) + MINUTE_MS - nowMs) / 1000));
  return { ok: used <= limit, limit, remaining: Math.max(0, limit - used), resetSeconds };
}

export class MinuteLimiter implements RequestLimiter {
  readonly inMemory = true;
  private windowStart = 0;
  private counts = new Map<string, number>();

  check(accountId: string, limit: number, nowMs: number): LimitDecision {
    const window = windowOf(nowMs);
    if (window !== this.windowStart) {
      // A new minute: forget every account's count at once, so the map never grows without bound.
      this.windowStart = window;
      this.counts = new Map();
    }
    const used = (this.counts.get(accountId) ?? 0) + 1;
    if (used <= limit) this.counts.set(accountId, used);
    return decide(limit, used, nowMs);
  }
}

/** One atomic upsert per limited request (store.hitRequestWindow): exact across instances. */
export class SharedMinuteLimiter implements RequestLimiter {
  readonly inMemory = false;
  private windowStart = 0;
  /** Accounts already over their limit in this window: the shared count only grows until it ends. */
  private over = new Set<string>();

  constructor(private readonly store: Store) {}

  check(accountId: string, limit: number, nowMs: number): LimitDecision | Promise<LimitDecision> {
    const window = windowOf(nowMs);
    if (window !== this.windowStart) {
      this.windowStart = window;
      this.over = new Set();
    }
    // A client hammering past its limit costs no further database round trips this minute.
    if (this.over.has(accountId)) return decide(limit, limit + 1, nowMs);
    return this.store.hitRequestWindow(accountId, window).then((used) => {
      const decision = decide(limit, used, nowMs);
      if (!decision.ok) this.over.add(accountId);
      return decision;
    });
  }
}

/** A decision already taken for a request (by the fast lane, which then handed the request to
 *  Fastify): the request counts once, so the auth hook uses it instead of asking again. */
export const DECIDED = Symbol('kurs.limitDecided');
export type Decided = { [DECIDED]?: LimitDecision };

export const limiterFor = (store: Store): RequestLimiter => (store.dialect === 'postgres' ? new SharedMinuteLimiter(store) : new MinuteLimiter());

/**
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers-11, structured fields): the policy
 * (quota q per window w seconds) and the current state (r remaining, t seconds to reset).
 */
export function rateLimitHeaders(d: LimitDecision): Record<string, string> {
  return { 'ratelimit-policy': `"minute";q=${d.limit};w=60`, ratelimit: `"minute";r=${d.remaining};t=${d.resetSeconds}` };
}
