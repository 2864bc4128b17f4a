// Group commit for the points meter: one transaction charges a whole batch of requests. It locks the
// batch's account rows, grants in arrival order while each balance covers the cost (a request is
// refused only if, at its turn, the balance is below its cost: the same as running them one by one),
// writes the new balances, and commits; only then does the meter answer the waiting requests.
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { ChargeRequest, ChargeResult } from './store.js';

export async function chargeBatch(db: Kysely<Database>, dialect: 'sqlite' | 'postgres', items: readonly ChargeRequest[]): Promise<ChargeResult[]> {
  if (items.length === 0) return [];
  return dialect === 'postgres' ? chargeOnServer(db, items) : chargeInProcess(db, items);
}

/** PostgreSQL: one statement, one round trip (the function of migration 0003), autocommitted. */
async function chargeOnServer(db: Kysely<Database>, items: readonly ChargeRequest[]): Promise<ChargeResult[]> {
  const ids = items.map((i) => i.accountId);
  const costs = items.map((i) => i.cost);
  const { rows } = await sql<{ ok: boolean[]; remaining: string[] }>`select ok, remaining from kurs_charge_batch(${ids}::text[], ${costs}::bigint[])`.execute(db);
  const r = rows[0]!;
  return r.ok.map((ok, i) => ({ ok, remaining: Number(r.remaining[i]) }));
}

/**
 * SQLite: the same steps in process. The first statement is a write, so the transaction takes the
 * write lock at once (waiting on busy_timeout) instead of upgrading a read lock later, which fails
 * without waiting; better-sqlite3 is synchronous, so the lock is never held across an event-loop turn.
 */
async function chargeInProcess(db: Kysely<Database>, items: readonly ChargeRequest[]): Promise<ChargeResult[]> {
  const ids = [...new Set(items.map((i) => i.accountId))].sort();
  return db.transaction().execute(async (trx) => {
    const rows = await trx.updateTable('accounts').set((eb) => ({ points: eb.ref('points') })).where('id', 'in', ids).returning(['id', 'points']).execute();
    const before = new Map(rows.map((r) => [r.id, Number(r.points)]));
    const balance = new Map(before);
    const results = items.map(({ accountId, cost }): ChargeResult => {
      const b = balance.get(accountId);
      if (b === undefined) return { ok: false, remaining: 0 };
      if (b < cost) return { ok: false, remaining: b };
      balance.set(accountId, b - cost);
      return { ok: true, remaining: b - cost };
    });
    const changed = ids.filter((id) => balance.get(id) !== before.get(id));
    if (changed.length > 0) {
      const cases = sql.join(changed.map((id) => sql`when ${id} then ${balance.get(id)}`), sql` `);
      await trx.updateTable('accounts').set({ points: sql<number>`case id ${cases} end` }).where('id', 'in', changed).execute();
    }
    return results;
  });
}
