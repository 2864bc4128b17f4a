// Usage counts, the shared per-minute request counter and the monthly refill (issue 6): the SQL
// behind SqlStore's methods of the same names, written once for both engines.
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { UsageDay } from './store.js';

/** Rows per INSERT: well under SQLite's bound-parameter limit with 4 columns. */
const INSERT_CHUNK = 500;

export async function addUsage(db: Kysely<Database>, batch: UsageDay[]): Promise<void> {
  if (batch.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < batch.length; i += INSERT_CHUNK) {
      await trx
        .insertInto('usage_daily')
        .values(batch.slice(i, i + INSERT_CHUNK).map((u) => ({ account_id: u.accountId, day: u.day, requests: u.requests, points: u.points })))
        .onConflict((oc) =>
          oc.columns(['account_id', 'day']).doUpdateSet((eb) => ({
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
    .selectAll()
    .where('account_id', '=', accountId)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .orderBy('day')
    .execute();
  return rows.map((r) => ({ accountId: r.account_id, day: r.day, requests: Number(r.requests), points: Number(r.points) }));
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

export async function refill(db: Kysely<Database>, period: string, periodStart: string): Promise<number> {
  const allowance = sql<number>`(select monthly_points from plans where plans.id = accounts.plan_id)`;
  const r = await db
    .updateTable('accounts')
    .set({ points: sql`case when points < ${allowance} then ${allowance} else points end`, refilled_period: period })
    .where((eb) => eb.or([eb('refilled_period', 'is', null), eb('refilled_period', '<', period)]))
    .where('created_at', '<', periodStart)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
