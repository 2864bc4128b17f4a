import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from './0001-initial.js';

/**
 * PostgreSQL: the group-commit charge as one server-side function, so a batch is a single round trip
 * and the hot account's row lock is held only while the server runs it, never across network hops
 * or a busy event loop. Rows are locked in id order (no deadlocks between instances); requests are
 * granted in the given order while each balance covers the cost, exactly as if run one by one.
 * SQLite runs the same steps in process (src/store/charge-sql.ts) and needs nothing here.
 */
export function chargeBatchFunction(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`
        create or replace function kurs_charge_batch(p_ids text[], p_costs bigint[], out ok boolean[], out remaining bigint[])
        language plpgsql as $$
        declare
          acc text[] := '{}';
          bal bigint[] := '{}';
          before bigint[];
          r record;
          j int;
        begin
          for r in select id, points from accounts where id = any(p_ids) order by id for update loop
            acc := acc || r.id::text;
            bal := bal || r.points;
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
            end if;
          end loop;
        end
        $$`.execute(db);
    },
    async down(db: Kysely<any>) {
      if (dialect === 'postgres') await sql`drop function if exists kurs_charge_batch(text[], bigint[])`.execute(db);
    },
  };
}
