// Group commit for the points meter: one transaction charges a whole batch of requests. It locks the
// batch's account rows, grants in arrival order while each balance covers the cost, writes the new
// balances in one statement, and commits; only then does the meter answer the waiting requests.
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { ChargeRequest, ChargeResult } from './store.js';

export async function chargeBatch(db: Kysely<Database>, dialect: 'sqlite' | 'postgres', items: readonly ChargeRequest[]): Promise<ChargeResult[]> {
  if (items.length === 0) return [];
  const ids = [...new Set(items.map((i) => i.accountId))].sort();
  return db.transaction().execute(async (trx) => {
    // PostgreSQL: lock in id order, so two instances locking overlapping sets never deadlock.
    // SQLite: make the first statement a write, so the transaction takes the write lock at once
    // (waiting on busy_timeout) instead of upgrading a read lock later, which fails without waiting.
    const rows =
      dialect === 'postgres'
        ? await trx.selectFrom('accounts').select(['id', 'points']).where('id', 'in', ids).orderBy('id').forUpdate().execute()
        : await trx.updateTable('accounts').set((eb) => ({ points: eb.ref('points') })).where('id', 'in', ids).returning(['id', 'points']).execute();
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
      const cases = sql.join(changed.map((id) => sql`when ${id} then cast(${balance.get(id)} as bigint)`), sql` `);
      await trx.updateTable('accounts').set({ points: sql<number>`case id ${cases} end` }).where('id', 'in', changed).execute();
    }
    return results;
  });
}
