// Opens the store a KURS_DATABASE_URL names. SQLite is embedded: the file and its folder are created.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { SqlStore } from './sql-store.js';
import type { Store } from './store.js';

export async function openStore(url: string): Promise<Store> {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length));
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url);
  throw new Error(`unsupported database URL: ${redactDbUrl(url)}`);
}

/** Database URLs may carry a password: never print one. */
export const redactDbUrl = (url: string) => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');

export function openPostgres(url: string, poolSize = 10): Store {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5_000 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return new SqlStore(new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), 'postgres');
}

export function openSqlite(path: string): Store {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new BetterSqlite3(path);
  // WAL: readers never wait for the writer; NORMAL sync is durable across process crashes in WAL mode.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  return new SqlStore(new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }), 'sqlite');
}
