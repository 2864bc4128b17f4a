// The points ledger (issue 17): every change of a balance is written in the same transaction as the
// change itself, so the ledger and the balances never disagree, whatever crashes. Each transaction
// opens with a write to the account row (`lock`): on PostgreSQL that takes the row lock before the
// balance is read, so a concurrent charge cannot slip in between; on SQLite it takes the write lock
// at once (a read first would make the later write fail when another process wrote meanwhile).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.js';
import type { Account, AccountPatch, KeyRecord, LedgerActor, LedgerEntry, LedgerKind, LedgerSums } from './store.js';

type Tx = Transaction<Database>;

interface Entry {
  accountId: string;
  kind: LedgerKind;
  amount: number;
  balance: number;
  actor: LedgerActor;
  detail?: string | null;
}

const append = (trx: Tx, e: Entry, at = new Date().toISOString()) =>
  trx.insertInto('ledger').values({ account_id: e.accountId, at, kind: e.kind, amount: e.amount, balance: e.balance, actor: e.actor, detail: e.detail ?? null }).execute();

/** A no-op write that locks the account's row (or SQLite's database) and reads its state. */
async function lock(trx: Tx, id: string) {
  const r = await trx
    .updateTable('accounts')
    .set((eb) => ({ points: eb.ref('points') }))
    .where('id', '=', id)
    .returning(['points', 'plan_id', 'expires_at'])
    .executeTakeFirst();
  return r && { points: Number(r.points), planId: r.plan_id, expiresAt: r.expires_at };
}

export async function createAccount(db: Kysely<Database>, a: Account, actor: LedgerActor): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('accounts').values({ id: a.id, plan_id: a.planId, points: a.points, expires_at: a.expiresAt, created_at: a.createdAt }).execute();
    await append(trx, { accountId: a.id, kind: 'open', amount: a.points, balance: a.points, actor, detail: `plan ${a.planId}` }, a.createdAt);
  });
}

export async function updateAccount(db: Kysely<Database>, id: string, patch: AccountPatch, actor: LedgerActor): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const old = await lock(trx, id);
    if (!old) return false;
    const points = old.points;
    if (patch.planId !== undefined && patch.planId !== old.planId) {
      await trx.updateTable('accounts').set({ plan_id: patch.planId }).where('id', '=', id).execute();
      await append(trx, { accountId: id, kind: 'plan_change', amount: 0, balance: points, actor, detail: `${old.planId} → ${patch.planId}` });
    }
    if (patch.expiresAt !== undefined && patch.expiresAt !== old.expiresAt) {
      await trx.updateTable('accounts').set({ expires_at: patch.expiresAt }).where('id', '=', id).execute();
      await append(trx, { accountId: id, kind: 'expiry_change', amount: 0, balance: points, actor, detail: `${old.expiresAt ?? 'never'} → ${patch.expiresAt ?? 'never'}` });
    }
    return true;
  });
}

export async function topUp(db: Kysely<Database>, id: string, points: number, actor: LedgerActor): Promise<number | undefined> {
  return db.transaction().execute(async (trx) => {
    const r = await trx.updateTable('accounts').set((eb) => ({ points: eb('points', '+', points) })).where('id', '=', id).returning('points').executeTakeFirst();
    if (!r) return undefined;
    await append(trx, { accountId: id, kind: 'topup', amount: points, balance: Number(r.points), actor });
    return Number(r.points);
  });
}

export async function setPoints(db: Kysely<Database>, id: string, points: number, actor: LedgerActor, reason?: string): Promise<number | undefined> {
  return db.transaction().execute(async (trx) => {
    const old = await lock(trx, id);
    if (!old) return undefined;
    if (old.points !== points) {
      await trx.updateTable('accounts').set({ points }).where('id', '=', id).execute();
      await append(trx, { accountId: id, kind: 'admin_edit', amount: points - old.points, balance: points, actor, detail: reason ?? null });
    }
    return old.points;
  });
}

export async function createKey(db: Kysely<Database>, k: KeyRecord & { hash: string }, actor: LedgerActor): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const account = await lock(trx, k.accountId);
    await trx
      .insertInto('api_keys')
      .values({ id: k.id, account_id: k.accountId, hash: k.hash, prefix: k.prefix, created_at: k.createdAt, revoked_at: k.revokedAt })
      .execute();
    // The foreign key has refused a key without an account by now.
    await append(trx, { accountId: k.accountId, kind: 'key_create', amount: 0, balance: account!.points, actor, detail: `${k.id} (kurs_${k.prefix}…)` }, k.createdAt);
  });
}

export async function revokeKey(db: Kysely<Database>, id: string, actor: LedgerActor): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const at = new Date().toISOString();
    const r = await trx.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).returning('account_id').executeTakeFirst();
    if (!r) return false;
    const account = await lock(trx, r.account_id);
    await append(trx, { accountId: r.account_id, kind: 'key_revoke', amount: 0, balance: account!.points, actor, detail: id }, at);
    return true;
  });
}

/** D12's refill with one `refill` entry per account it raised; the rows are locked before they are
 *  read, on PostgreSQL in id order like the batch charge, so the two never deadlock. */
export async function refill(db: Kysely<Database>, dialect: 'sqlite' | 'postgres', period: string, periodStart: string): Promise<number> {
  const allowance = sql<number>`(select monthly_points from plans where plans.id = accounts.plan_id)`;
  const due = sql<boolean>`(refilled_period is null or refilled_period < ${period}) and created_at < ${periodStart}`;
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') await trx.selectFrom('accounts').select('id').where(due).orderBy('id').forUpdate().execute();
    else await trx.updateTable('accounts').set((eb) => ({ points: eb.ref('points') })).where(due).execute();
    const at = new Date().toISOString();
    await sql`insert into ledger (account_id, at, kind, amount, balance, actor, detail)
      select id, ${at}, 'refill', ${allowance} - points, ${allowance}, 'refill', ${period} from accounts where ${due} and points < ${allowance}`.execute(trx);
    const r = await trx
      .updateTable('accounts')
      .set({ points: sql`case when points < ${allowance} then ${allowance} else points end`, refilled_period: period })
      .where(due)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  });
}

export async function ledgerOf(db: Kysely<Database>, accountId: string, limit?: number): Promise<LedgerEntry[]> {
  let q = db.selectFrom('ledger').selectAll().where('account_id', '=', accountId).orderBy('at', 'desc').orderBy('id', 'desc');
  if (limit !== undefined) q = q.limit(limit);
  const rows = await q.execute();
  return rows.reverse().map((r) => ({
    id: Number(r.id),
    accountId: r.account_id,
    at: r.at,
    kind: r.kind as LedgerKind,
    amount: Number(r.amount),
    balance: Number(r.balance),
    actor: r.actor as LedgerActor,
    detail: r.detail,
    requests: Number(r.requests),
  }));
}

export async function ledgerSums(db: Kysely<Database>): Promise<LedgerSums[]> {
  const rows = await db
    .selectFrom('accounts as a')
    .leftJoin('ledger as l', 'l.account_id', 'a.id')
    .select([
      'a.id',
      'a.points',
      sql<string>`coalesce(sum(case when l.kind = 'open' then l.amount else 0 end), 0)`.as('opening'),
      sql<string>`coalesce(sum(case when l.kind <> 'open' and l.amount > 0 then l.amount else 0 end), 0)`.as('credits'),
      sql<string>`coalesce(sum(case when l.amount < 0 then -l.amount else 0 end), 0)`.as('debits'),
    ])
    .groupBy(['a.id', 'a.points'])
    .orderBy('a.id')
    .execute();
  return rows.map((r) => ({ accountId: r.id, opening: Number(r.opening), credits: Number(r.credits), debits: Number(r.debits), balance: Number(r.points) }));
}
