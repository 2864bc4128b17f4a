// Usage counts (per key since issue 17), the shared per-minute request counter and their pruning:
// the SQL behind SqlStore's methods of the same names, written once for both engines.
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { UsageDay } from './store.js';

/** Rows per INSERT: well under SQLite's bound-parameter limit with 5 columns. */
const INSERT_CHUNK = 500;

export async function addUsage(db: Kysely<Database>, batch: UsageDay[]): Promise<void> {
  if (batch.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < batch.length; i += INSERT_CHUNK) {
      await trx
        .insertInto('usage_daily')
        .values(batch.slice(i, i + INSERT_CHUNK).map((u) => ({ account_id: u.accountId, day: u.day, key_id: u.keyId ?? '', requests: u.requests, points: u.points })))
        .onConflict((oc) =>
          oc.columns(['account_id', 'day', 'key_id']).doUpdateSet((eb) => ({
            requests: eb('usage_daily.requests', '+', eb.ref('excluded.requests')),
            points: eb('usage_daily.points', '+', eb.ref('excluded.points')),
          })),
        )
        .execute();
    }
  });
}

export async function usageDays(db: Kysely<Database>, accountId: string, fromDay: string, toDay: string): Promise<UsageDay[]> {
  const rows = await db
    .selectFrom('usage_daily')
    .select(['day', sql<string>`sum(requests)`.as('requests'), sql<string>`sum(points)`.as('points')])
    .where('account_id', '=', accountId)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .groupBy('day')
    .orderBy('day')
    .execute();
  return rows.map((r) => ({ accountId, day: r.day, requests: Number(r.requests), points: Number(r.points) }));
}

export async function usageByKey(db: Kysely<Database>, accountId: string, fromDay: string, toDay: string): Promise<UsageDay[]> {
  const rows = await db
    .selectFrom('usage_daily')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .orderBy('day')
    .orderBy('key_id')
    .execute();
  return rows.map((r) => ({ accountId, day: r.day, keyId: r.key_id, requests: Number(r.requests), points: Number(r.points) }));
}

export async function hitRequestWindow(db: Kysely<Database>, accountId: string, windowStart: number): Promise<number> {
  // One upsert per request: atomic on both engines, so concurrent instances never lose a count.
  // An instance whose clock lags (an older window) counts into the newer window rather than resetting it.
  const r = await db
    .insertInto('request_windows')
    .values({ account_id: accountId, window_start: windowStart, count: 1 })
    .onConflict((oc) =>
      oc.column('account_id').doUpdateSet({
        count: sql`case when excluded.window_start > request_windows.window_start then 1 else request_windows.count + 1 end`,
        window_start: sql`case when excluded.window_start > request_windows.window_start then excluded.window_start else request_windows.window_start end`,
      }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(r.count);
}

/** Retention: usage of days before `beforeDay`, and request windows that started before `beforeMs`. */
export async function prune(db: Kysely<Database>, beforeDay: string, beforeMs: number): Promise<{ usage: number; windows: number }> {
  const u = await db.deleteFrom('usage_daily').where('day', '<', beforeDay).executeTakeFirst();
  const w = await db.deleteFrom('request_windows').where('window_start', '<', beforeMs).executeTakeFirst();
  return { usage: Number(u.numDeletedRows), windows: Number(w.numDeletedRows) };
}
