// A throwaway schema in the database KURS_TEST_DATABASE_URL names, so that a test's server process
// has PostgreSQL to itself; the URL carries the search_path for every connection it opens.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export async function pgSchema(baseUrl: string): Promise<{ url: string; cleanup: () => Promise<void> }> {
  const schema = `kurs_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const scoped = new URL(baseUrl);
  scoped.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: scoped.toString(),
    cleanup: async () => {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}
