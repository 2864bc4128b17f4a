// A lock across every instance on one PostgreSQL database: a session advisory lock held on one
// pooled connection while `fn` runs on others. Like the ingester lock it is keyed by schema, so
// deployments sharing a database through search_path do not wait on each other.
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

export function advisoryLocked<T>(db: Kysely<Database>, name: string, fn: () => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(hashtext(current_schema() || ':' || ${name}))`.execute(conn);
    try {
      return await fn();
    } finally {
      await sql`select pg_advisory_unlock(hashtext(current_schema() || ':' || ${name}))`.execute(conn);
    }
  });
}
