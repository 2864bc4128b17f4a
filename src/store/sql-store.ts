// The Store over Kysely. The queries are written once for both engines; the dialect decides only
// the driver (see open.ts) and a few column types in the migrations.
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, sql, } from 'kysely';
import { chargeOne, chargeOnServer, sqliteCharger } from './charge-sql.js';
import { observationSpans, previousRates, recentObservations } from './observations-sql.js';
import { advisoryLocked } from './advisory-lock.js';
import * as ledger from './ledger-sql.js';
import { storeSnapshot } from './snapshot-sql.js';
import * as usage from './usage-sql.js';
import * as history from './history-sql.js';
import { sourcePeriods } from './period-sql.js';
import { migrations } from './migrations/index.js';
import { toAccount, toObservation, toPlan } from './rows.js';
import type { Database } from './schema.js';
import type { Figure } from '../blend/inputs.js';
import type {
  Account, AccountPatch, ChargeRequest, ChargeResult, FetchRecord, HistoryDay, HistoryMark, KeyLookup, SnapshotSpan, SourceHealth, KeyRecord, PeriodRow, Plan, SnapshotInput, SnapshotResult, Store, UsageDay,
  LedgerActor, LedgerEntry, LedgerSums,
} from './store.js';

export class SqlStore implements Store {
  /** The meter's group commit (src/store/charge-sql.ts); on SQLite it needs the raw handle. */
  private readonly charger: (items: readonly ChargeRequest[]) => Promise<ChargeResult[]>;

  constructor(
    readonly db: Kysely<Database>,
    readonly dialect: 'sqlite' | 'postgres',
    raw?: BetterSqlite3.Database,
  ) {
    if (dialect === 'postgres') this.charger = (items) => chargeOnServer(db, items);
    else if (raw) this.charger = sqliteCharger(db, raw);
    else throw new Error('a SQLite store needs its better-sqlite3 handle');
  }

  async migrate(): Promise<void> {
    const migrator = new Migrator({ db: this.db, provider: { getMigrations: async () => migrations(this.dialect) } });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }

  async listPlans(): Promise<Plan[]> {
    return (await this.db.selectFrom('plans').selectAll().orderBy('monthly_points').execute()).map(toPlan);
  }

  async getPlan(id: string): Promise<Plan | undefined> {
    const r = await this.db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
    return r && toPlan(r);
  }

  createAccount(a: Account, actor: LedgerActor = 'cli'): Promise<void> {
    return ledger.createAccount(this.db, a, actor);
  }

  async getAccount(id: string): Promise<Account | undefined> {
    const r = await this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return r && toAccount(r);
  }

  async listAccounts(): Promise<Account[]> {
    return (await this.db.selectFrom('accounts').selectAll().orderBy('created_at').orderBy('id').execute()).map(toAccount);
  }

  async updateAccount(id: string, patch: AccountPatch, actor: LedgerActor = 'cli'): Promise<Account | undefined> {
    return (await ledger.updateAccount(this.db, id, patch, actor)) ? this.getAccount(id) : undefined;
  }

  topUp(id: string, points: number, actor: LedgerActor = 'cli'): Promise<number | undefined> {
    return ledger.topUp(this.db, id, points, actor);
  }

  setPoints(id: string, points: number, actor: LedgerActor, reason?: string): Promise<number | undefined> {
    return ledger.setPoints(this.db, id, points, actor, reason);
  }

  async hasAccounts(): Promise<boolean> {
    return (await this.db.selectFrom('accounts').select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  createKey(k: KeyRecord & { hash: string }, actor: LedgerActor = 'cli'): Promise<void> {
    return ledger.createKey(this.db, k, actor);
  }

  revokeKey(id: string, actor: LedgerActor = 'cli'): Promise<boolean> {
    return ledger.revokeKey(this.db, id, actor);
  }

  async listKeys(accountId?: string): Promise<KeyRecord[]> {
    let q = this.db.selectFrom('api_keys').select(['id', 'account_id', 'prefix', 'created_at', 'revoked_at']);
    if (accountId !== undefined) q = q.where('account_id', '=', accountId);
    const rows = await q.orderBy('created_at').orderBy('id').execute();
    return rows.map((r) => ({ id: r.id, accountId: r.account_id, prefix: r.prefix, createdAt: r.created_at, revokedAt: r.revoked_at }));
  }

  async findKey(hash: string): Promise<KeyLookup | undefined> {
    const r = await this.db
      .selectFrom('api_keys as k')
      .innerJoin('accounts as a', 'a.id', 'k.account_id')
      .innerJoin('plans as p', 'p.id', 'a.plan_id')
      .select([
        'k.id as key_id', 'a.id', 'a.plan_id', 'a.points', 'a.expires_at', 'a.created_at',
        'p.name', 'p.monthly_points', 'p.requests_per_minute', 'p.endpoints',
      ])
      .where('k.hash', '=', hash)
      .where('k.revoked_at', 'is', null)
      .executeTakeFirst();
    if (!r) return undefined;
    return {
      keyId: r.key_id,
      account: toAccount(r),
      plan: toPlan({ id: r.plan_id, name: r.name, monthly_points: r.monthly_points, requests_per_minute: r.requests_per_minute, endpoints: r.endpoints }),
    };
  }

  charge(accountId: string, cost: number): Promise<ChargeResult> {
    return chargeOne(this.db, accountId, cost);
  }

  chargeBatch(items: readonly ChargeRequest[]): Promise<ChargeResult[]> {
    return this.charger(items);
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  storeSnapshot(s: SnapshotInput): Promise<SnapshotResult> {
    return storeSnapshot(this.db, this.dialect, s);
  }

  async hasSnapshots(): Promise<boolean> {
    return (await this.db.selectFrom('snapshots').select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  async mark(name: string): Promise<string | undefined> {
    return (await this.db.selectFrom('marks').select('value').where('name', '=', name).executeTakeFirst())?.value;
  }

  async setMark(name: string, value: string): Promise<void> {
    await this.db.insertInto('marks').values({ name, value }).onConflict((oc) => oc.column('name').doUpdateSet({ value })).execute();
  }

  async hasSnapshot(source: string, sha256: string): Promise<boolean> {
    return (await this.db.selectFrom('snapshots').select('id').where('source', '=', source).where('sha256', '=', sha256).executeTakeFirst()) !== undefined;
  }

  async recordFetch(r: FetchRecord): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const old = await trx.selectFrom('source_health').selectAll().where('source', '=', r.source).executeTakeFirst();
      const row = {
        source: r.source,
        last_attempt_at: r.at,
        last_success_at: r.error === undefined ? r.at : (old?.last_success_at ?? null),
        last_error_at: r.error === undefined ? (old?.last_error_at ?? null) : r.at,
        last_error: r.error === undefined ? (old?.last_error ?? null) : r.error,
        failures: r.error === undefined ? 0 : Number(old?.failures ?? 0) + 1,
        rejections: Number(old?.rejections ?? 0) + (r.rejected ? 1 : 0),
      };
      if (old) await trx.updateTable('source_health').set(row).where('source', '=', r.source).execute();
      else await trx.insertInto('source_health').values(row).execute();
    });
  }

  async sourceHealth(): Promise<SourceHealth[]> {
    const health = await this.db.selectFrom('source_health').selectAll().execute();
    const held = await observationSpans(this.db);
    const bySource = new Map<string, SourceHealth>();
    const periods = await this.db.selectFrom('period_rates').select(['source', sql<string>`min(valid_from)`.as('first'), sql<string>`max(valid_from)`.as('newest'), sql<string>`max(valid_to)`.as('to')]).groupBy('source').execute();
    const blank = (source: string): SourceHealth => ({ source, lastAttemptAt: null, lastSuccessAt: null, lastErrorAt: null, lastError: null, failures: 0, rejections: 0, firstDate: null, newestDate: null, newestValidTo: null });
    for (const h of health) {
      bySource.set(h.source, {
        ...blank(h.source),
        lastAttemptAt: h.last_attempt_at,
        lastSuccessAt: h.last_success_at,
        lastErrorAt: h.last_error_at,
        lastError: h.last_error,
        failures: Number(h.failures),
        rejections: Number(h.rejections),
      });
    }
    for (const n of held) bySource.set(n.source, { ...(bySource.get(n.source) ?? blank(n.source)), firstDate: n.first, newestDate: n.newest });
    for (const p of periods) bySource.set(p.source, { ...(bySource.get(p.source) ?? blank(p.source)), firstDate: p.first, newestDate: p.newest, newestValidTo: p.to });
    return [...bySource.values()].sort((a, b) => (a.source < b.source ? -1 : 1));
  }

  previousRates(source: string, date: string, since?: string): Promise<Figure[]> {
    return previousRates(this.db, source, date, since);
  }

  async dataVersion(): Promise<number> {
    // A snapshot that wrote no figure (a payload re-fetched unchanged) is no new data (D29).
    const r = await this.db.selectFrom('snapshots').select(sql<number | string | null>`max(id)`.as('v')).where('rows', '>', 0).executeTakeFirst();
    return Number(r?.v ?? 0);
  }

  recentObservations(days: number): Promise<Figure[]> {
    return recentObservations(this.db, days);
  }

  // Usage, request limits and the monthly refill (issue 6): SQL in usage-sql.ts.

  addUsage(batch: UsageDay[]): Promise<void> {
    return usage.addUsage(this.db, batch);
  }

  usageDays(accountId: string, fromDay: string, toDay: string): Promise<UsageDay[]> {
    return usage.usageDays(this.db, accountId, fromDay, toDay);
  }

  usageByKey(accountId: string, fromDay: string, toDay: string): Promise<UsageDay[]> {
    return usage.usageByKey(this.db, accountId, fromDay, toDay);
  }

  hitRequestWindow(accountId: string, windowStart: number): Promise<number> {
    return usage.hitRequestWindow(this.db, accountId, windowStart);
  }

  refill(period: string, periodStart: string): Promise<number> {
    return ledger.refill(this.db, this.dialect, period, periodStart);
  }

  // The points ledger and retention (issue 17): SQL in ledger-sql.ts and usage-sql.ts.

  ledger(accountId: string, limit?: number): Promise<LedgerEntry[]> {
    return ledger.ledgerOf(this.db, accountId, limit);
  }

  ledgerSums(): Promise<LedgerSums[]> {
    return ledger.ledgerSums(this.db);
  }

  prune(beforeDay: string, beforeMs: number): Promise<{ usage: number; windows: number }> {
    return usage.prune(this.db, beforeDay, beforeMs);
  }

  /** SQLite serves one process per file: holders in this process take turns. */
  private readonly turns = new Map<string, Promise<unknown>>();

  exclusive<T>(name: string, fn: () => Promise<T>): Promise<T> {
    if (this.dialect === 'postgres') return advisoryLocked(this.db, name, fn);
    const run = (this.turns.get(name) ?? Promise.resolve()).then(fn, fn);
    this.turns.set(name, run.catch(() => undefined));
    return run;
  }

  // Materialised history (issue 14): SQL in history-sql.ts.

  async observationsBetween(from: string, to: string): Promise<Figure[]> {
    const rows = await this.db.selectFrom('observations').selectAll().where('date', '>=', from).where('date', '<=', to).orderBy('date').execute();
    return rows.map(toObservation);
  }

  async sourceObservationsBetween(source: string, from: string, to: string): Promise<Figure[]> {
    const rows = await this.db.selectFrom('observations').selectAll().where('source', '=', source).where('date', '>=', from).where('date', '<=', to).orderBy('date').orderBy('quote').execute();
    return rows.map(toObservation);
  }

  sourcePeriods(source: string, from: string, to: string): Promise<PeriodRow[]> {
    return sourcePeriods(this.db, source, from, to);
  }

  async observationSpan(): Promise<{ first: string; last: string } | undefined> {
    // Two queries: each of min() and max() alone is one step down the date index, both in one
    // statement scan the table (SQLite; 35 ms on the bundled history).
    const first = await this.db.selectFrom('observations').select(sql<string | null>`min(date)`.as('d')).executeTakeFirst();
    const last = await this.db.selectFrom('observations').select(sql<string | null>`max(date)`.as('d')).executeTakeFirst();
    return first?.d && last?.d ? { first: first.d, last: last.d } : undefined;
  }

  snapshotsAfter(after: number): Promise<SnapshotSpan | undefined> {
    return history.snapshotsAfter(this.db, after);
  }

  saveHistoryDays(days: HistoryDay[], mark?: HistoryMark): Promise<void> {
    return history.saveHistoryDays(this.db, this.dialect, days, mark);
  }

  historyDays(from: string, to: string): Promise<HistoryDay[]> {
    return history.historyDays(this.db, from, to);
  }

  historyMark(): Promise<HistoryMark> {
    return history.historyMark(this.db);
  }
}
