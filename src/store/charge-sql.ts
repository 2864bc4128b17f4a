// The points charge behind SqlStore's `charge` and `chargeBatch`. `charge` is the naive design, one
// conditional UPDATE per request (KURS_METER=direct). `chargeBatch` is the group commit: one
// transaction charges a whole batch of requests. It locks the batch's account rows, grants in arrival
// order while each balance covers the cost (a request is refused only if, at its turn, the balance is
// below its cost: the same as running them one by one), writes the new balances, and commits; only
// then does the meter answer the waiting requests. Both also add what they took to the account's
// charge row of the UTC day in the ledger (issue 17), in the same transaction: one more statement per
// account per batch, not per request, and a ledger that never disagrees with the balance.
import type BetterSqlite3 from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { ChargeRequest, ChargeResult } from './store.js';

/** The day's charge row of the ledger: created by the first charge of the day, added to by the rest
 *  (SQLite's prepared form of chargeOne's upsert; PostgreSQL's is in migration 0006's function). */
const CHARGE_ROW = `insert into ledger (account_id, at, kind, amount, balance, actor, charge_day, requests)
  values (?, ?, 'charge', ?, ?, 'charge', ?, ?)
  on conflict (account_id, charge_day) do update
  set amount = ledger.amount + excluded.amount, balance = excluded.balance, at = excluded.at, requests = ledger.requests + excluded.requests`;

/** One conditional UPDATE: the balance check and the decrement are a single atomic statement. */
export async function chargeOne(db: Kysely<Database>, accountId: string, cost: number): Promise<ChargeResult> {
  const charged = await db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('accounts')
      .set((eb) => ({ points: eb('points', '-', cost) }))
      .where('id', '=', accountId)
      .where('points', '>=', cost)
      .returning('points')
      .executeTakeFirst();
    if (r && cost > 0) {
      const at = new Date().toISOString();
      await trx
        .insertInto('ledger')
        .values({ account_id: accountId, at, kind: 'charge', amount: -cost, balance: Number(r.points), actor: 'charge', charge_day: at.slice(0, 10), requests: 1 })
        .onConflict((oc) =>
          oc.columns(['account_id', 'charge_day']).doUpdateSet((eb) => ({
            amount: eb('ledger.amount', '+', eb.ref('excluded.amount')),
            balance: eb.ref('excluded.balance'),
            at: eb.ref('excluded.at'),
            requests: eb('ledger.requests', '+', eb.ref('excluded.requests')),
          })),
        )
        .execute();
    }
    return r;
  });
  if (charged) return { ok: true, remaining: Number(charged.points) };
  const left = await db.selectFrom('accounts').select('points').where('id', '=', accountId).executeTakeFirst();
  return { ok: false, remaining: left ? Number(left.points) : 0 };
}

/** PostgreSQL: one statement, one round trip (the function of migration 0003), autocommitted. */
export async function chargeOnServer(db: Kysely<Database>, items: readonly ChargeRequest[]): Promise<ChargeResult[]> {
  if (items.length === 0) return [];
  const ids = items.map((i) => i.accountId);
  const costs = items.map((i) => i.cost);
  const { rows } = await sql<{ ok: boolean[]; remaining: string[] }>`select ok, remaining from kurs_charge_batch(${ids}::text[], ${costs}::bigint[])`.execute(db);
  const r = rows[0]!;
  return r.ok.map((ok, i) => ({ ok, remaining: Number(r.remaining[i]) }));
}

/** One account's balance in a batch: before it, and what is left as its requests are granted. */
interface Balance {
  before: number | undefined;
  left: number | undefined;
  granted: number;
}

/**
 * SQLite: the same steps in process, with statements prepared once on the raw better-sqlite3 handle
 * (through Kysely, building, compiling and preparing them on every batch took about a fifth of a
 * cached GET's CPU). It never lands inside a transaction of Kysely's: while one is open it waits for
 * Kysely's lock on the one connection. BEGIN IMMEDIATE takes the write lock at once (waiting on
 * busy_timeout) instead of upgrading a read lock later, which fails without waiting. better-sqlite3
 * is synchronous, so the write lock is never held across an event-loop turn.
 */
export function sqliteCharger(db: Kysely<Database>, raw: BetterSqlite3.Database): (items: readonly ChargeRequest[]) => Promise<ChargeResult[]> {
  // Prepared on first use: the table exists only once the store has been migrated.
  let run: BetterSqlite3.Transaction<(items: readonly ChargeRequest[]) => ChargeResult[]> | undefined;
  const prepare = () => {
    const select = raw.prepare<[string], number>('select points from accounts where id = ?').pluck();
    const update = raw.prepare<[number, string]>('update accounts set points = ? where id = ?');
    const ledger = raw.prepare<[string, string, number, number, string, number]>(CHARGE_ROW);
    return raw.transaction((items: readonly ChargeRequest[]): ChargeResult[] => {
      // Each account of the batch once, read in id order: its balance before and as the batch goes.
      const accounts = new Map<string, Balance>();
      for (const { accountId } of items) if (!accounts.has(accountId)) accounts.set(accountId, { before: undefined, left: undefined, granted: 0 });
      for (const id of accounts.size === 1 ? accounts.keys() : [...accounts.keys()].sort()) {
        const a = accounts.get(id)!;
        a.before = a.left = select.get(id);
      }
      const results = new Array<ChargeResult>(items.length);
      for (let i = 0; i < items.length; i++) {
        const { accountId, cost } = items[i]!;
        const a = accounts.get(accountId)!;
        if (a.left === undefined) results[i] = { ok: false, remaining: 0 };
        else if (a.left < cost) results[i] = { ok: false, remaining: a.left };
        else {
          a.left -= cost;
          a.granted++;
          results[i] = { ok: true, remaining: a.left };
        }
      }
      const at = new Date().toISOString();
      for (const [id, { before, left, granted }] of accounts) {
        if (left === undefined || before === undefined || left === before) continue;
        update.run(left, id);
        ledger.run(id, at, left - before, left, at.slice(0, 10), granted);
      }
      return results;
    });
  };
  const charge = (items: readonly ChargeRequest[]) => (run ??= prepare()).immediate(items);
  return (items) => {
    if (items.length === 0) return Promise.resolve([]);
    // Inside one of Kysely's transactions, the batch waits for Kysely's lock. With none open on the
    // connection, nothing of Kysely's can be under way on it (every statement runs to its end
    // synchronously), so the batch runs at once: the lock's promises were ~0.2 µs of a charged GET.
    if (raw.inTransaction) return db.connection().execute(async () => charge(items));
    try {
      return Promise.resolve(charge(items));
    } catch (err) {
      return Promise.reject(err);
    }
  };
}
