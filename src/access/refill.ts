// The monthly allowance (D12): once per calendar month (UTC) every account's balance is raised to its
// plan's allowance when below it, never lowered. The store records the month refilled per account in
// the same statement, so a crash and rerun, or several instances at once, never grant twice.
import type { Store } from '../store/store.js';

export interface RefillResult {
  /** YYYY-MM */
  period: string;
  /** Accounts refilled by this run; 0 when the period was already done. */
  refilled: number;
}

const monthStart = (year: number, month: number) => new Date(Date.UTC(year, month, 1));

export async function refillAccounts(store: Store, now: Date): Promise<RefillResult> {
  const start = monthStart(now.getUTCFullYear(), now.getUTCMonth());
  const period = start.toISOString().slice(0, 7);
  // Accounts created this month got their allowance (or an explicit balance) at creation.
  return { period, refilled: await store.refill(period, start.toISOString()) };
}

/** Milliseconds from `now` to the start of the next calendar month, UTC. */
export function msToNextMonth(now: Date): number {
  return monthStart(now.getUTCFullYear(), now.getUTCMonth() + 1).getTime() - now.getTime();
}
