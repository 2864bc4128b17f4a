// Table shapes as Kysely sees them. Dates and times are ISO text in UTC; rates are exact decimal text.
import type { Generated } from 'kysely';

export interface PlanTable {
  id: string;
  name: string;
  monthly_points: number;
  /** null: no per-minute limit. */
  requests_per_minute: number | null;
  /** JSON array of the endpoint ids the plan includes. */
  endpoints: string;
}

export interface AccountTable {
  id: string;
  plan_id: string;
  points: number;
  /** ISO 8601 UTC, null for no expiry. */
  expires_at: string | null;
  created_at: string;
  /** `YYYY-MM` of the last monthly refill (0004); null: never refilled. */
  refilled_period?: string | null;
}

export interface ApiKeyTable {
  id: string;
  account_id: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored (D3). */
  hash: string;
  /** First 8 characters after `kurs_`, for display. */
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}

export interface SnapshotTable {
  id: Generated<number>;
  source: string;
  name: string;
  sha256: string;
  first_date: string;
  last_date: string;
  rows: number;
  created_at: string;
  /** 1: the snapshot holds period rates (period_rates), 0: fixings (observations). */
  period: Generated<number>;
}

export interface ObservationTable {
  source: string;
  quote: string;
  date: string;
  /** Per 1 unit, in the published direction, exact (unit multiplier divided out in decimal). */
  rate: string;
  direction: 'direct' | 'indirect';
  unit: number;
  tbl: string;
  snapshot_id: number;
  /** When Kurs stored (or revised) this figure: `last_update` of a bank row (D7). */
  stored_at: string;
}

/** A period rate (D21): a figure in force from `valid_from` to `valid_to`, both inclusive. */
export interface PeriodRateTable extends Omit<ObservationTable, 'date'> {
  valid_from: string;
  valid_to: string;
}

export interface SourceHealthTable {
  source: string;
  last_attempt_at: string | null;
  last_success_at: string | null;
  last_error_at: string | null;
  last_error: string | null;
  failures: Generated<number>;
  rejections: Generated<number>;
}

export interface UsageDailyTable {
  account_id: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  /** The key that made the requests (0006); '' for counts from before keys were counted. */
  key_id: string;
  requests: number;
  points: number;
}

export interface RequestWindowTable {
  account_id: string;
  /** Start of the current one-minute window, epoch milliseconds. */
  window_start: number;
  count: number;
}

/** The points ledger (0006): one row per balance change; charges one row per account and UTC day. */
export interface LedgerTable {
  id: Generated<number>;
  account_id: string;
  at: string;
  kind: string;
  /** Signed: credits positive, charges negative. */
  amount: number;
  /** The balance after this entry (for a day's charges: after the last of them). */
  balance: number;
  actor: string;
  detail: string | null;
  /** UTC day of a charge row; null on every other kind. */
  charge_day: string | null;
  /** Charged requests in a charge row; 0 otherwise. */
  requests: Generated<number>;
}

/** `kurs copy` runs on this database as a target, by source (0006). */
export interface CopyRunTable {
  source: string;
  started_at: string;
  finished_at: string | null;
}

/** One UTC day's materialised blend (0005); `rates` is written and read by src/history/ only. */
export interface HistoryDayTable {
  day: string;
  rates: string;
}

/** A single row (id 1): the snapshot id through which history is materialised, and its day range. */
export interface HistoryStateTable {
  id: number;
  snapshot_id: number | string;
  first_day: string | null;
  last_day: string | null;
}

/** A named fact a start reads (0008): the seed history's digest once it is loaded, say. */
export interface MarkTable {
  name: string;
  value: string;
}

export interface Database {
  plans: PlanTable;
  accounts: AccountTable;
  api_keys: ApiKeyTable;
  snapshots: SnapshotTable;
  observations: ObservationTable;
  period_rates: PeriodRateTable;
  source_health: SourceHealthTable;
  usage_daily: UsageDailyTable;
  request_windows: RequestWindowTable;
  ledger: LedgerTable;
  copy_runs: CopyRunTable;
  history_days: HistoryDayTable;
  history_state: HistoryStateTable;
  marks: MarkTable;
}
