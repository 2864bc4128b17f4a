import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from './0001-initial.js';
import { chargeBatchFunction } from './0003-charge-batch.js';

/**
 * Issue 17. The points ledger: every change of a balance, appended with its kind, amount, balance
 * after and actor. Charges are one row per account and UTC day (`charge_day`), updated in the same
 * transaction as the balance, so the ledger and the balances can never disagree (docs/operations.md).
 * Accounts that exist already get an `open` entry holding their balance now.
 * `usage_daily` gains the key (`''` for counts from before this migration), and an index on the day
 * for pruning. `copy_runs` lets `kurs copy` recognise, on its target, a copy it has not finished.
 * On PostgreSQL the batch charge function is replaced by one that also writes the ledger.
 */
export function ledger(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('ledger')
        .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) => c.primaryKey())
        .addColumn('account_id', 'varchar(32)', (c) => c.notNull().references('accounts.id'))
        .addColumn('at', 'varchar(32)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('balance', 'bigint', (c) => c.notNull())
        .addColumn('actor', 'varchar(16)', (c) => c.notNull())
        .addColumn('detail', 'text')
        // Only charge rows have a day; NULLs never collide in a unique index, on both engines.
        .addColumn('charge_day', 'varchar(10)')
        .addColumn('requests', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('ledger_charge_day').on('ledger').columns(['account_id', 'charge_day']).unique().execute();
      const at = new Date().toISOString();
      await sql`insert into ledger (account_id, at, kind, amount, balance, actor, detail)
        select id, ${at}, 'open', points, points, 'migration', 'balance when the ledger began' from accounts`.execute(db);

      await db.schema
        .createTable('usage_daily_keyed')
        .addColumn('account_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('day', 'varchar(10)', (c) => c.notNull())
        .addColumn('key_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('requests', 'bigint', (c) => c.notNull())
        .addColumn('points', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('usage_daily_key_pk', ['account_id', 'day', 'key_id'])
        .execute();
      await sql`insert into usage_daily_keyed (account_id, day, key_id, requests, points) select account_id, day, '', requests, points from usage_daily`.execute(db);
      await db.schema.dropTable('usage_daily').execute();
      await db.schema.alterTable('usage_daily_keyed').renameTo('usage_daily').execute();
      await db.schema.createIndex('usage_daily_day').on('usage_daily').column('day').execute();

      await db.schema
        .createTable('copy_runs')
        .addColumn('source', 'varchar(512)', (c) => c.primaryKey())
        .addColumn('started_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('finished_at', 'varchar(32)')
        .execute();

      if (dialect === 'postgres') await sql.raw(CHARGE_WITH_LEDGER).execute(db);
    },
    // usage_daily keeps its key column: dropping it would merge counts that cannot be told apart.
    async down(db: Kysely<any>) {
      await db.schema.dropTable('copy_runs').execute();
      await db.schema.dropIndex('usage_daily_day').execute();
      await db.schema.dropTable('ledger').execute();
      await chargeBatchFunction(dialect).up(db);
    },
  };
}

/** 0003's function plus one ledger upsert per account whose balance moved (same statement, same commit). */
const CHARGE_WITH_LEDGER = `
create or replace function kurs_charge_batch(p_ids text[], p_costs bigint[], out ok boolean[], out remaining bigint[])
language plpgsql as $$
declare
  acc text[] := '{}';
  bal bigint[] := '{}';
  cnt bigint[] := '{}';
  before bigint[];
  r record;
  j int;
  stamp text := to_char(clock_timestamp() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
begin
  for r in select id, points from accounts where id = any(p_ids) order by id for update loop
    acc := acc || r.id::text;
    bal := bal || r.points;
    cnt := cnt || 0::bigint;
  end loop;
  before := bal;
  ok := '{}';
  remaining := '{}';
  for i in 1 .. coalesce(array_length(p_ids, 1), 0) loop
    j := array_position(acc, p_ids[i]);
    if j is null then
      ok := ok || false;
      remaining := remaining || 0::bigint;
    elsif bal[j] >= p_costs[i] then
      bal[j] := bal[j] - p_costs[i];
      cnt[j] := cnt[j] + 1;
      ok := ok || true;
      remaining := remaining || bal[j];
    else
      ok := ok || false;
      remaining := remaining || bal[j];
    end if;
  end loop;
  for k in 1 .. coalesce(array_length(acc, 1), 0) loop
    if bal[k] <> before[k] then
      update accounts set points = bal[k] where id = acc[k];
      insert into ledger (account_id, at, kind, amount, balance, actor, charge_day, requests)
        values (acc[k], stamp, 'charge', bal[k] - before[k], bal[k], 'charge', left(stamp, 10), cnt[k])
        on conflict (account_id, charge_day) do update
        set amount = ledger.amount + excluded.amount, balance = excluded.balance, at = excluded.at, requests = ledger.requests + excluded.requests;
    end if;
  end loop;
end
$$`;
