import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from './open.js';
import { storeContract } from './store.contract.js';

storeContract('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kurs-store-'));
  const store = openSqlite(join(dir, 'kurs.db'));
  await store.migrate();
  return {
    store,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
