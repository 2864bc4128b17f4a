// A throwaway PostgreSQL database per test file, on the server KURS_TEST_DATABASE_URL names: the
// ingester lock and NOTIFY channel are database-wide, so tests running in parallel must not share one.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const PG_TEST_URL = process.env.KURS_TEST_DATABASE_URL;

export interface TempPg {
  url: string;
  drop(): Promise<void>;
}

export async function tempPgDatabase(): Promise<TempPg> {
  const base = new URL(PG_TEST_URL!);
  const name = `${base.pathname.slice(1) || 'kurs'}_${randomBytes(4).toString('hex')}`;
  const adminUrl = new URL(base);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
