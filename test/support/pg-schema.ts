// A throwaway schema in the PostgreSQL database KURS_TEST_DATABASE_URL names, for tests that run
// several app instances on one real database.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const pgTestUrl = process.env.KURS_TEST_DATABASE_URL;

export async function pgSchema(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `kurs_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const scoped = new URL(url);
  scoped.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: scoped.toString(),
    drop: async () => {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}
