// The store contract on a real PostgreSQL server: each test gets a fresh schema in the database
// that KURS_TEST_DATABASE_URL names (CI creates a throwaway one). Skipped when it is not set.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgres } from './open.js';
import { storeContract } from './store.contract.js';

const url = process.env.KURS_TEST_DATABASE_URL;

if (!url) {
  const { test } = await import('node:test');
  test('store contract: PostgreSQL', { skip: 'KURS_TEST_DATABASE_URL is not set' }, () => undefined);
} else {
  storeContract('PostgreSQL', async () => {
    const schema = `kurs_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const scoped = new URL(url);
    scoped.searchParams.set('options', `-c search_path=${schema}`);
    const store = openPostgres(scoped.toString(), { poolSize: 5 });
    await store.migrate();
    return {
      store,
      cleanup: async () => {
        await store.close();
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.end();
      },
    };
  });
}
