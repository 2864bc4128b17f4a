// Retention (issue 17): usage older than KURS_USAGE_RETENTION_DAYS and request-limit windows that
// no longer count are deleted, so neither table grows without bound. The server runs it at boot
// and at every UTC midnight; `kurs prune` runs it by hand. The ledger is kept whole: it is the
// record `kurs audit` checks balances against (one row per account and day of charges at most).
import { DAY_MS, utcDay } from '../time/days.js';
import type { Store } from '../store/store.js';

const MINUTE_MS = 60_000;

export interface PruneResult {
  /** Usage rows of days before this one were deleted. */
  before_day: string;
  usage_rows: number;
  window_rows: number;
}

export async function pruneOld(store: Store, now: Date, retentionDays: number): Promise<PruneResult> {
  const beforeDay = utcDay(new Date(now.getTime() - retentionDays * DAY_MS));
  // A window that started before the previous minute counts nothing any more: the next request by
  // that account starts a new one whether or not the row is there.
  const beforeMs = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS - MINUTE_MS;
  const { usage, windows } = await store.prune(beforeDay, beforeMs);
  return { before_day: beforeDay, usage_rows: usage, window_rows: windows };
}
