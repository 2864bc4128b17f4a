// The one storage interface. Two engines implement it (SQLite embedded, PostgreSQL for scale-out);
// `store.contract.ts` is the suite both must pass. Routes and commands see only this.
import type { EndpointId } from '../config.js';
import type { Figure } from '../blend/inputs.js';

export interface Plan {
  id: string;
  name: string;
  monthlyPoints: number;
  requestsPerMinute: number | null;
  endpoints: EndpointId[];
}

export interface Account {
  id: string;
  planId: string;
  points: number;
  /** ISO 8601 UTC; null: no expiry. */
  expiresAt: string | null;
  createdAt: string;
}

export interface KeyRecord {
  id: string;
  accountId: string;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface KeyLookup {
  keyId: string;
  account: Account;
  plan: Plan;
}

/** The balance after the attempt; `ok: false` means the balance was short and nothing was taken. */
export type ChargeResult = { ok: boolean; remaining: number };

export interface ChargeRequest {
  accountId: string;
  cost: number;
}

/** A period rate (D21) as stored: in force from `validFrom` to `validTo`, both inclusive. */
export interface PeriodRow extends Omit<Figure, 'date'> {
  validFrom: string;
  validTo: string;
}

export interface SnapshotInput {
  source: string;
  name: string;
  sha256: string;
  /** Fixings; or, every row with `validTo`, period rates whose `date` is the first day in force. */
  rows: (Omit<Figure, 'source' | 'storedAt'> & { validTo?: string })[];
  at: string;
  /** A stop: the comparison with what is stored gives up between two slices, throwing the signal's
   *  reason, and nothing is stored (a 217k-figure history otherwise held a stop ~1 s; D30). */
  signal?: AbortSignal;
}

export type SnapshotResult =
  | { status: 'duplicate' }
  | { status: 'stored'; inserted: number; revised: number; unchanged: number };

/** What happened when a source was last fetched or imported. */
export interface FetchRecord {
  source: string;
  at: string;
  /** undefined: success. */
  error?: string;
  /** The payload was fetched but refused by an ingest rule (counted apart from network failures). */
  rejected?: boolean;
}

export interface SourceHealth {
  source: string;
  lastAttemptAt: string | null;
  lastSuccessAt: string | null;
  lastErrorAt: string | null;
  lastError: string | null;
  /** Consecutive failed attempts since the last success. */
  failures: number;
  /** Payloads refused by ingest rules, ever. */
  rejections: number;
  /** Oldest and newest observation dates stored for the source (of a period source: the first days
   *  of its periods). */
  firstDate: string | null;
  newestDate: string | null;
  /** A period source's last day covered by a stored period; null for the others. */
  newestValidTo: string | null;
}

export interface AccountPatch {
  planId?: string;
  expiresAt?: string | null;
}

/** Requests and points of one account on one UTC day (YYYY-MM-DD). */
export interface UsageDay {
  accountId: string;
  day: string;
  /** The key that made them (issue 17); '' for counts from before keys were counted. Absent: ''. */
  keyId?: string;
  requests: number;
  points: number;
}

/** Who changed a balance: an operator command, the admin API, the monthly refill, the meter; the
 *  server creating its first-start account; the migration that opened the ledger. */
export type LedgerActor = 'cli' | 'admin-api' | 'refill' | 'charge' | 'server' | 'migration';
export type LedgerKind = 'open' | 'topup' | 'refill' | 'charge' | 'plan_change' | 'expiry_change' | 'admin_edit' | 'key_create' | 'key_revoke';

export interface LedgerEntry {
  id: number;
  accountId: string;
  /** ISO 8601 UTC; for a day's charges, the time of the last one. */
  at: string;
  kind: LedgerKind;
  /** Signed: credits positive, charges negative, events 0. */
  amount: number;
  /** The balance after the entry (for a day's charges: after the last of them). */
  balance: number;
  actor: LedgerActor;
  detail: string | null;
  /** Charged requests in a charge row; 0 on other kinds. */
  requests: number;
}

/** One account's ledger summed up beside its balance: `kurs audit`. */
export interface LedgerSums {
  accountId: string;
  /** Sum of `open` entries. */
  opening: number;
  /** Every other positive amount (top-ups, refills, upward edits). */
  credits: number;
  /** Every negative amount, as a positive number (charges, downward edits). */
  debits: number;
  balance: number;
}

/** One materialised day of history (src/history/ owns the format of `rates`). */
export interface HistoryDay {
  day: string;
  rates: string;
}

/** How far history is materialised: through snapshot `snapshotId`, covering `firstDay..lastDay`. */
export interface HistoryMark {
  snapshotId: number;
  firstDay: string | null;
  lastDay: string | null;
}

/** The snapshots stored after a mark: the newest id and the range of dates their rows carry. */
export interface SnapshotSpan {
  lastId: number;
  firstDate: string;
  lastDate: string;
}

export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;

  listPlans(): Promise<Plan[]>;
  getPlan(id: string): Promise<Plan | undefined>;

  /** Opens the account's ledger with its starting balance. `actor` defaults to 'cli' here and below. */
  createAccount(account: Account, actor?: LedgerActor): Promise<void>;
  getAccount(id: string): Promise<Account | undefined>;
  listAccounts(): Promise<Account[]>;
  /** Records a plan change and an expiry change in the ledger when they change anything. */
  updateAccount(id: string, patch: AccountPatch, actor?: LedgerActor): Promise<Account | undefined>;
  /** Adds points; returns the new balance, undefined for an unknown account. */
  topUp(id: string, points: number, actor?: LedgerActor): Promise<number | undefined>;
  /** Sets the balance (an `admin_edit` of the difference); returns the old balance, undefined for an unknown account. */
  setPoints(id: string, points: number, actor: LedgerActor, reason?: string): Promise<number | undefined>;
  hasAccounts(): Promise<boolean>;

  createKey(key: KeyRecord & { hash: string }, actor?: LedgerActor): Promise<void>;
  /** True when a live key was revoked now. */
  revokeKey(id: string, actor?: LedgerActor): Promise<boolean>;
  listKeys(accountId?: string): Promise<KeyRecord[]>;
  /** The live (not revoked) key with this SHA-256, with its account and plan. */
  findKey(hash: string): Promise<KeyLookup | undefined>;

  /** Takes `cost` points atomically with the balance check: never below zero, never twice. */
  charge(accountId: string, cost: number): Promise<ChargeResult>;
  /** Charges many requests in one transaction, granted in the given order while each balance covers
   *  the cost; the results are in the same order. All or nothing: on an error nothing was taken. */
  chargeBatch(items: readonly ChargeRequest[]): Promise<ChargeResult[]>;
  /** Resolves when the database answers (for /readyz); rejects otherwise. */
  ping(): Promise<void>;

  /** Stores one parsed payload atomically; the same payload (by SHA-256) a second time changes nothing.
   *  Period rates go apart from fixings: no read of observations below ever returns one (D21). A
   *  period figure replaces the stored one of the same source, currency and first day. */
  storeSnapshot(snapshot: SnapshotInput): Promise<SnapshotResult>;
  hasSnapshots(): Promise<boolean>;
  /** A named mark (the seed history's digest once loaded, D30); undefined when never set. */
  mark(name: string): Promise<string | undefined>;
  /** Sets a mark, replacing its value. */
  setMark(name: string, value: string): Promise<void>;
  /** Whether this source already stored a payload with this SHA-256 (a resumable load skips it unread). */
  hasSnapshot(source: string, sha256: string): Promise<boolean>;
  /** Grows whenever a snapshot that wrote figures lands, from any process: servers check it to pick
   *  up new data (on PostgreSQL such a snapshot also sends a NOTIFY on DATA_CHANNEL). */
  dataVersion(): Promise<number>;
  recordFetch(record: FetchRecord): Promise<void>;
  /** Health of every source that has data or has been fetched. */
  sourceHealth(): Promise<SourceHealth[]>;
  /** The newest stored figure per currency of a source dated before `date` (for the jump rule), and
   *  not before `since` when given: the rule compares figures a few days apart only, and without a
   *  bound the look reads a long history whole (ECBF's: 130–170 ms on the calling thread). */
  previousRates(source: string, date: string, since?: string): Promise<Figure[]>;

  /** Every source's observations from `days` calendar days before its own newest date onward. */
  recentObservations(days: number): Promise<Figure[]>;

  // Usage, request limits and the monthly refill (issue 6).
  /** Adds a batch of usage counts, all or nothing. */
  addUsage(batch: UsageDay[]): Promise<void>;
  /** An account's usage rows for days from `fromDay` to `toDay` inclusive, by day (all keys summed). */
  usageDays(accountId: string, fromDay: string, toDay: string): Promise<UsageDay[]>;
  /** The same per key: one row per day and key, `keyId` set, by day then key. */
  usageByKey(accountId: string, fromDay: string, toDay: string): Promise<UsageDay[]>;
  /**
   * Counts one request in the account's one-minute window starting at `windowStart` (epoch ms) and
   * returns the count so far, this request included; a newer window restarts the count.
   */
  hitRequestWindow(accountId: string, windowStart: number): Promise<number>;
  /**
   * D12: raises the balance of every account created before `periodStart` (ISO) and not yet refilled
   * for `period` (YYYY-MM) to its plan's allowance, never lowering it, and records the period in the
   * same statement. Returns how many accounts it refilled; a rerun returns 0.
   */
  refill(period: string, periodStart: string): Promise<number>;

  // The points ledger and retention (issue 17).
  /** An account's ledger, oldest first; `limit` keeps the newest that many. */
  ledger(accountId: string, limit?: number): Promise<LedgerEntry[]>;
  /** Every account's ledger sums beside its balance; reconciled when opening + credits − debits = balance. */
  ledgerSums(): Promise<LedgerSums[]>;
  /** Deletes usage rows of days before `beforeDay` and request windows that started before `beforeMs`. */
  prune(beforeDay: string, beforeMs: number): Promise<{ usage: number; windows: number }>;
  /** Runs `fn` while holding a lock named `name` across every instance on the database (a PostgreSQL
   *  advisory lock; on SQLite, which one server process uses, across this process). */
  exclusive<T>(name: string, fn: () => Promise<T>): Promise<T>;
  // Materialised history (issue 14): SQL in history-sql.ts.
  /** Every observation dated from `from` to `to` inclusive, by date. */
  observationsBetween(from: string, to: string): Promise<Figure[]>;
  /** One source's observations dated from `from` to `to` inclusive, by date then currency. */
  sourceObservationsBetween(source: string, from: string, to: string): Promise<Figure[]>;
  /** One source's period rates (D21) in force on some day of `from..to` (inclusive), by first day
   *  then currency; one that starts later (an amendment) overrides it from its own first day. */
  sourcePeriods(source: string, from: string, to: string): Promise<PeriodRow[]>;
  /** The range of dates of all stored observations; undefined when there are none. */
  observationSpan(): Promise<{ first: string; last: string } | undefined>;
  /** Snapshots of fixings stored after snapshot id `after` (those of period rates touch no blended
   *  day); undefined when none. */
  snapshotsAfter(after: number): Promise<SnapshotSpan | undefined>;
  /** Writes (or replaces) days, and when `mark` is given records it in the same transaction. */
  saveHistoryDays(days: HistoryDay[], mark?: HistoryMark): Promise<void>;
  /** Materialised days from `from` to `to` inclusive, by day. */
  historyDays(from: string, to: string): Promise<HistoryDay[]>;
  historyMark(): Promise<HistoryMark>;
}
