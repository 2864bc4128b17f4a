// Opens the store a KURS_DATABASE_URL names. SQLite is embedded: the file and its folder are created.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';
import { type SqliteSync, sqlitePathOf } from '../config.js';
import { pgLib } from './pg-lib.js';
import type { Database } from './schema.js';
import { SqlStore } from './sql-store.js';
import type { Store } from './store.js';

export interface PgOptions {
  poolSize: number;
  connectTimeoutMs: number;
  /** A query that takes longer fails, so a stalled database turns into 503s instead of hung requests. */
  queryTimeoutMs: number;
}

export const PG_DEFAULTS: PgOptions = { poolSize: 10, connectTimeoutMs: 5_000, queryTimeoutMs: 15_000 };

export async function openStore(url: string, pgOptions: PgOptions = PG_DEFAULTS, sqliteSync: SqliteSync = 'normal'): Promise<Store> {
  const path = sqlitePathOf(url);
  if (path !== undefined) return openSqlite(path, sqliteSync);
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url, pgOptions);
  throw new Error(`unsupported database URL: ${redactDbUrl(url)}`);
}

/** Database URLs may carry a password: never print one. */
export const redactDbUrl = (url: string) => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');

export function openPostgres(url: string, options: Partial<PgOptions> = {}): Store {
  const o = { ...PG_DEFAULTS, ...options };
  const pool = new (pgLib().Pool)({ connectionString: url, max: o.poolSize, connectionTimeoutMillis: o.connectTimeoutMs, query_timeout: o.queryTimeoutMs, keepAlive: true });
  // A client losing its connection must not crash the process: idle ones report to the pool, and a
  // checked-out one (between two statements of a transaction) emits on itself. The query in hand
  // fails instead, the pool drops the client, and the next query connects afresh.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return new SqlStore(new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), 'postgres');
}

/**
 * SQLite transactions begin IMMEDIATE, taking the write lock at once: a deferred one that reads
 * first fails at once with SQLITE_BUSY when another process commits in between (WAL), where an
 * immediate one waits out busy_timeout like any writer. Seen with `kurs ingest` while a server loads
 * the seed history.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }
}

/** SQLite's page cache a connection, in KiB (D34). better-sqlite3 builds SQLite with 16 MB, and a
 *  server holds two connections (its own and the rates worker's, D31): reading the whole history
 *  into the columns filled one, a rates build the other. With 4 MB the history row's peak RSS was
 *  216–229 MB in four runs instead of 244–245 (2 MB: 213, 8 MB: 227), and the rows that read and
 *  write the most (ingest, blend, cold start, materialising) did not move beyond their noise: the
 *  file's pages stay in the OS's cache, a miss is a read from it. */
export const SQLITE_CACHE_KIB = 4096;

export function openSqlite(path: string, sync: SqliteSync = 'normal'): Store {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new BetterSqlite3(path);
  // WAL: readers never wait for the writer; NORMAL sync is durable across process crashes in WAL mode,
  // FULL (KURS_SQLITE_SYNC=full) also across power loss: an fsync of the WAL at every commit.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${sync === 'full' ? 'FULL' : 'NORMAL'}`);
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
  return new SqlStore(new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) }), 'sqlite', sqlite);
}
