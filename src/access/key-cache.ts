// Verified keys kept in memory for a short time (KURS_KEY_CACHE_MS), because the key lookup was the
// one database query every request still made on its own (docs/performance.md). A revoked key, a
// plan change or a new expiry reaches every instance within the TTL; on the instance that made the
// change through the admin API at once (forgetKey/forgetAccount). The balance of a cached lookup is
// not trusted for charges: those go through the meter, which answers with the real balance.
import type { KeyLookup } from '../store/store.js';
import { hashKey, KEY_SHAPE } from './keys.js';

/** Keys that verified: one entry per live key in use, so the bound is generous. */
export const MAX_KNOWN_KEYS = 10_000;
/** Hashes that did not verify: a smaller bound of their own, so guessing keys can neither grow
 *  memory nor push real keys out of the cache. */
export const MAX_UNKNOWN_KEYS = 1_000;

interface Entry {
  found: KeyLookup | undefined;
  until: number;
}

export interface KeyCacheOptions {
  ttlMs: number;
  /** Monotonic milliseconds; tests pass their own. */
  clock?: () => number;
}

export class KeyCache {
  private readonly known = new Map<string, Entry>();
  private readonly unknown = new Map<string, Entry>();
  /** Concurrent misses on one hash share one query (a cold start under load asks once, not 50 times). */
  private readonly pending = new Map<string, Promise<KeyLookup | undefined>>();
  private readonly hashes = new WeakMap<object, { key: string; hash: string }>();
  /** Bumped by every forget: a query that started before a change must not store what it read. */
  private generation = 0;
  private readonly clock: () => number;
  private readonly ttlMs: number;

  constructor(
    private readonly findKey: (hash: string) => Promise<KeyLookup | undefined>,
    options: KeyCacheOptions,
  ) {
    this.ttlMs = options.ttlMs;
    this.clock = options.clock ?? (() => performance.now());
  }

  /** The lookup for a key as presented, or undefined for one not shaped like a key (refused without
   *  asking the database). `connection` is what the key came on (a socket): a client sends the same
   *  key on every request of a connection, and hashing it was ~2% of a cached request's CPU, so the
   *  last key and its SHA-256 are kept per connection, no longer than the connection (whose buffers
   *  hold the key anyway); never stored or logged. */
  lookupKey(key: string, connection: object | undefined): Promise<KeyLookup | undefined> | KeyLookup | undefined {
    const last = connection && this.hashes.get(connection);
    if (last?.key === key) return this.lookup(last.hash);
    if (!KEY_SHAPE.test(key)) return undefined;
    const hash = hashKey(key);
    if (connection) this.hashes.set(connection, { key, hash });
    return this.lookup(hash);
  }

  /** The lookup for a key hash, from memory while fresh. A failed query is not cached: it rejects. */
  lookup(hash: string): Promise<KeyLookup | undefined> | KeyLookup | undefined {
    if (this.ttlMs <= 0) return this.findKey(hash);
    const now = this.clock();
    const hit = this.known.get(hash) ?? this.unknown.get(hash);
    if (hit && hit.until > now) return hit.found;
    const inFlight = this.pending.get(hash);
    if (inFlight) return inFlight;
    const generation = this.generation;
    const query = this.findKey(hash).then(
      (found) => {
        this.pending.delete(hash);
        if (generation === this.generation) this.remember(hash, found, now + this.ttlMs);
        return found;
      },
      (err: unknown) => {
        this.pending.delete(hash);
        throw err;
      },
    );
    this.pending.set(hash, query);
    return query;
  }

  /** Drops a revoked key at once (the admin API of this instance). */
  forgetKey(keyId: string): void {
    this.generation++;
    for (const [hash, e] of this.known) if (e.found?.keyId === keyId) this.known.delete(hash);
  }

  /** Drops every key of an account whose plan, expiry or balance changed here. */
  forgetAccount(accountId: string): void {
    this.generation++;
    for (const [hash, e] of this.known) if (e.found?.account.id === accountId) this.known.delete(hash);
  }

  get size(): { known: number; unknown: number } {
    return { known: this.known.size, unknown: this.unknown.size };
  }

  private remember(hash: string, found: KeyLookup | undefined, until: number): void {
    const map = found ? this.known : this.unknown;
    map.delete(hash);
    // Maps iterate in insertion order: the first entry is the oldest one, evicted first.
    if (map.size >= (found ? MAX_KNOWN_KEYS : MAX_UNKNOWN_KEYS)) map.delete(map.keys().next().value!);
    map.set(hash, { found, until });
  }
}
