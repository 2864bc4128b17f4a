// Requests and points per account, key and UTC day, for GET /v1/usage, `kurs usage` and the admin API.
// Counting adds no database write per request: counts gather in memory per (account, key, day) and are
// written in one batch every second and on shutdown, so a crash loses at most the last interval's
// counts. Points themselves are charged by the meter, never from here, so a crash never loses points.
import { utcDay } from '../time/days.js';
import { utcStamp } from '../time/stamps.js';
import type { Account, Plan, Store, UsageDay } from '../store/store.js';
import { noAccount } from './accounts.js';

export const USAGE_FLUSH_MS = 1_000;

export class UsageRecorder {
  private pending = new Map<string, UsageDay>();
  /** The row of `pending` added to last (undefined once `pending` is handed to a flush). */
  private last: UsageDay | undefined;
  private lock: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Store,
    private readonly onFlushError: (err: unknown) => void,
  ) {}

  /** One request by a valid key; `points` is what it was charged (0 unless 2xx). */
  record(accountId: string, keyId: string, at: Date, points: number): void {
    this.add(accountId, keyId, utcDay(at), 1, points);
  }

  private add(accountId: string, keyId: string, day: string, requests: number, points: number): void {
    // Most requests come from the key counted just before: its row is added to without building the
    // map key (a fresh string, hashed on every lookup) again.
    let row = this.last;
    if (row === undefined || row.accountId !== accountId || row.keyId !== keyId || row.day !== day) {
      const key = `${accountId} ${keyId} ${day}`;
      row = this.pending.get(key);
      if (!row) this.pending.set(key, (row = { accountId, keyId, day, requests: 0, points: 0 }));
      this.last = row;
    }
    row.requests += requests;
    row.points += points;
  }

  start(intervalMs = USAGE_FLUSH_MS): void {
    this.timer = setInterval(() => this.flush().catch(this.onFlushError), intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** Writes the pending counts in one transaction; on failure they go back to be retried. */
  flush(): Promise<void> {
    return this.exclusive(async () => {
      if (this.pending.size === 0) return;
      const batch = [...this.pending.values()];
      this.pending = new Map();
      this.last = undefined;
      try {
        await this.store.addUsage(batch);
      } catch (err) {
        for (const u of batch) this.add(u.accountId, u.keyId ?? '', u.day, u.requests, u.points);
        throw err;
      }
    });
  }

  /** Stored rows plus this instance's unwritten counts; a read never overlaps a flush, so nothing counts twice. */
  days(accountId: string, fromDay: string, toDay: string): Promise<UsageDay[]> {
    return this.exclusive(async () => {
      const stored = await this.store.usageDays(accountId, fromDay, toDay);
      const unwritten = [...this.pending.values()].filter((u) => u.accountId === accountId && u.day >= fromDay && u.day <= toDay);
      return [...stored, ...unwritten];
    });
  }

  /** The same per key (`keyId` set on every row). */
  keyDays(accountId: string, fromDay: string, toDay: string): Promise<UsageDay[]> {
    return this.exclusive(async () => {
      const stored = await this.store.usageByKey(accountId, fromDay, toDay);
      const unwritten = [...this.pending.values()].filter((u) => u.accountId === accountId && u.day >= fromDay && u.day <= toDay);
      return [...stored, ...unwritten];
    });
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(fn, fn);
    this.lock = run.catch(() => undefined);
    return run;
  }
}

interface Counts {
  requests: number;
  points: number;
}

export interface UsageReport {
  account_id: string;
  plan: string;
  points: number;
  /** D7 `YYYY-MM-DD HH:MM:SS` UTC; null: no expiry. */
  expires_at: string | null;
  monthly_points: number;
  requests_per_minute: number | null;
  today: { date: string } & Counts;
  month: { month: string } & Counts;
}

/** One key's share of the account's usage today and this month. */
export interface KeyUsage {
  key_id: string;
  today: Counts;
  month: Counts;
}

export type DaysReader = (accountId: string, fromDay: string, toDay: string) => Promise<UsageDay[]>;

const sum = (list: UsageDay[]): Counts => list.reduce((t, u) => ({ requests: t.requests + u.requests, points: t.points + u.points }), { requests: 0, points: 0 });
const monthOf = (now: Date) => {
  const today = utcDay(now);
  return { today, month: today.slice(0, 7), first: `${today.slice(0, 7)}-01` };
};

/** An account's plan, balance, expiry and usage today and this calendar month (UTC). */
export async function usageReport(read: DaysReader, account: Account, plan: Plan, now: Date): Promise<UsageReport> {
  const { today, month, first } = monthOf(now);
  const rows = await read(account.id, first, today);
  return {
    account_id: account.id,
    plan: plan.id,
    points: account.points,
    expires_at: account.expiresAt === null ? null : utcStamp(new Date(account.expiresAt)),
    monthly_points: plan.monthlyPoints,
    requests_per_minute: plan.requestsPerMinute,
    today: { date: today, ...sum(rows.filter((u) => u.day === today)) },
    month: { month, ...sum(rows) },
  };
}

/** Per key, today and this month; `''` stands for counts from before keys were counted. */
export async function keyUsage(readByKey: DaysReader, accountId: string, now: Date): Promise<KeyUsage[]> {
  const { today, first } = monthOf(now);
  const rows = await readByKey(accountId, first, today);
  const ids = [...new Set(rows.map((u) => u.keyId ?? ''))].sort();
  return ids.map((id) => {
    const mine = rows.filter((u) => (u.keyId ?? '') === id);
    return { key_id: id, today: sum(mine.filter((u) => u.day === today)), month: sum(mine) };
  });
}

/** The report for an account id; an unknown account is an AccessError. */
export async function accountUsage(store: Store, read: DaysReader, accountId: string, now: Date): Promise<UsageReport> {
  const account = await store.getAccount(accountId);
  if (!account) throw noAccount(accountId);
  return usageReport(read, account, (await store.getPlan(account.planId))!, now);
}
