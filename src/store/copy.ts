// `kurs copy`: every table of one database into a PostgreSQL database (issue 17). Generic: tables,
// columns and keys are read from the databases, so tables added by later migrations move too.
// Tables go in foreign-key order, in batches read by keyset pagination on the primary key, each
// batch one upsert on the target: a rerun after a failure rewrites what was copied (it converges to
// the source) and never duplicates a row. Each table is then counted and checksummed on both sides.
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { dependencyOrder, resetSequences, tables, type TableInfo } from './introspect.js';
import type { Database } from './schema.js';

type Db = Kysely<Database>;
export interface Side {
  db: Db;
  dialect: 'sqlite' | 'postgres';
}

/** Kysely's bookkeeping and the copy's own marker stay with their database. */
const SKIP = new Set(['kysely_migration', 'kysely_migration_lock', 'copy_runs']);
/** Bound parameters per INSERT, well under PostgreSQL's 65,535. */
const MAX_PARAMS = 20_000;
const READ_BATCH = 1_000;

export interface TableReport {
  table: string;
  sourceRows: number;
  targetRows: number;
  sourceChecksum: string;
  targetChecksum: string;
}

export interface CopyEvents {
  /** A table is about to be copied: its row count on the source. */
  start(table: string, rows: number): void;
  /** `rows` more rows of the current table were written. */
  progress(rows: number): void;
}

type Row = Record<string, unknown>;

/** Every row of a table in primary-key order, a batch at a time. */
async function* batches(side: Side, t: TableInfo, columns: string[], size = READ_BATCH): AsyncGenerator<Row[]> {
  const key = t.key;
  let last: Row | undefined;
  for (;;) {
    const after = last ? sql`where (${sql.join(key.map((k) => sql.ref(k)))}) > (${sql.join(key.map((k) => last![k]))})` : sql``;
    const { rows } = await sql<Row>`select ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(t.name)} ${after} order by ${sql.join(key.map((k) => sql.ref(k)))} limit ${size}`.execute(side.db);
    if (rows.length === 0) return;
    yield rows;
    last = rows[rows.length - 1];
    if (rows.length < size) return;
  }
}

/** Order-independent (the engines sort text differently): the sum of each row's hash, mod 2^64. */
async function checksum(side: Side, t: TableInfo, columns: string[]): Promise<{ rows: number; sum: string }> {
  let n = 0;
  let total = 0n;
  const cols = [...columns].sort();
  for await (const rows of batches(side, t, cols)) {
    for (const r of rows) {
      // PostgreSQL hands bigints over as text, SQLite as numbers: both print the same digits.
      const text = cols.map((c) => (r[c] === null || r[c] === undefined ? '\u0000' : Buffer.isBuffer(r[c]) ? (r[c] as Buffer).toString('hex') : String(r[c]))).join('\u001f');
      total = (total + createHash('sha256').update(text).digest().readBigUInt64BE(0)) & 0xffffffffffffffffn;
      n++;
    }
  }
  return { rows: n, sum: total.toString(16).padStart(16, '0') };
}

async function copyTable(source: Side, target: Side, t: TableInfo, columns: string[], events: CopyEvents): Promise<void> {
  const rest = columns.filter((c) => !t.key.includes(c));
  const key = sql.join(t.key.map((k) => sql.ref(k)));
  const conflict =
    rest.length === 0 ? sql`on conflict (${key}) do nothing` : sql`on conflict (${key}) do update set ${sql.join(rest.map((c) => sql`${sql.ref(c)} = excluded.${sql.ref(c)}`))}`;
  const perInsert = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  for await (const rows of batches(source, t, columns, Math.min(READ_BATCH, perInsert))) {
    const values = rows.map((r) => sql`(${sql.join(columns.map((c) => r[c] ?? null))})`);
    await sql`insert into ${sql.table(t.name)} (${sql.join(columns.map((c) => sql.ref(c)))}) values ${sql.join(values)} ${conflict}`.execute(target.db);
    events.progress(rows.length);
  }
  if (target.dialect === 'postgres') await resetSequences(target.db, t.name);
}

/** The tables to copy, in order, with the columns both sides have; a source table or column the
 *  target lacks stops the copy before anything is written. */
export async function plan(source: Side, target: Side): Promise<{ table: TableInfo; columns: string[] }[]> {
  const theirs = new Map((await tables(target.db, target.dialect)).map((t) => [t.name, t]));
  const out: { table: TableInfo; columns: string[] }[] = [];
  for (const t of dependencyOrder((await tables(source.db, source.dialect)).filter((t) => !SKIP.has(t.name)))) {
    const there = theirs.get(t.name);
    if (!there) throw new Error(`the target has no table ${t.name}: run the same Kurs version on both`);
    const missing = t.columns.filter((c) => !there.columns.includes(c));
    if (missing.length > 0) throw new Error(`the target's ${t.name} lacks ${missing.join(', ')}: run the same Kurs version on both`);
    // The upsert on the primary key is what makes a rerun duplicate nothing.
    if (there.key.length === 0) throw new Error(`table ${t.name} has no primary key on the target, so a rerun could duplicate its rows`);
    out.push({ table: { ...t, key: there.key }, columns: t.columns });
  }
  return out;
}

export async function copyAll(source: Side, target: Side, events: CopyEvents): Promise<TableReport[]> {
  const steps = await plan(source, target);
  for (const { table, columns } of steps) {
    const { count } = (await sql<{ count: string | number }>`select count(*) as count from ${sql.table(table.name)}`.execute(source.db)).rows[0]!;
    events.start(table.name, Number(count));
    await copyTable(source, target, table, columns, events);
  }
  return verify(source, target, steps);
}

/** Row counts and checksums of every copied table on both sides. */
export async function verify(source: Side, target: Side, steps: { table: TableInfo; columns: string[] }[]): Promise<TableReport[]> {
  const out: TableReport[] = [];
  for (const { table, columns } of steps) {
    const [s, t] = [await checksum(source, table, columns), await checksum(target, table, columns)];
    out.push({ table: table.name, sourceRows: s.rows, targetRows: t.rows, sourceChecksum: s.sum, targetChecksum: t.sum });
  }
  return out;
}
