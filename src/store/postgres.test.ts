// The store contract on a real PostgreSQL server: each test gets a fresh schema in the database
// that KURS_TEST_DATABASE_URL names (CI creates a throwaway one). Skipped when it is not set.
import { pgSchema, pgTestUrl } from '../../test/support/pg-schema.js';
import { openPostgres } from './open.js';
import { storeContract } from './store.contract.js';

if (!pgTestUrl) {
  const { test } = await import('node:test');
  test('store contract: PostgreSQL', { skip: 'KURS_TEST_DATABASE_URL is not set' }, () => undefined);
} else {
  const url = pgTestUrl;
  storeContract('PostgreSQL', async () => {
    const schema = await pgSchema(url);
    const store = openPostgres(schema.url, { poolSize: 5 });
    await store.migrate();
    return {
      store,
      cleanup: async () => {
        await store.close();
        await schema.drop();
      },
    };
  });
}
