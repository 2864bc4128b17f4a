// What tables a database holds, their columns, primary keys and foreign keys, read from the
// database itself, so that `kurs copy` moves every table, including ones added after it was written.
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface TableInfo {
  name: string;
  columns: string[];
  /** Primary-key columns in key order: the keyset pagination order. */
  key: string[];
  /** Tables this one references by foreign key. */
  references: string[];
}

type Db = Kysely<Database>;
const rows = async <T>(db: Db, q: ReturnType<typeof sql<T>>) => (await q.execute(db)).rows;

async function sqliteTables(db: Db): Promise<TableInfo[]> {
  const names = await rows<{ name: string }>(db, sql`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`);
  const out: TableInfo[] = [];
  for (const { name } of names) {
    const cols = await rows<{ name: string; pk: number }>(db, sql`select name, pk from pragma_table_info(${name}) order by cid`);
    const fks = await rows<{ table: string }>(db, sql`select "table" from pragma_foreign_key_list(${name})`);
    out.push({
      name,
      columns: cols.map((c) => c.name),
      key: cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name),
      references: [...new Set(fks.map((f) => f.table))],
    });
  }
  return out;
}

async function postgresTables(db: Db): Promise<TableInfo[]> {
  const names = await rows<{ name: string }>(db, sql`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`);
  const out: TableInfo[] = [];
  for (const { name } of names) {
    const cols = await rows<{ name: string }>(db, sql`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${name} order by ordinal_position`);
    const key = await rows<{ name: string }>(db, sql`
      select a.attname as name from pg_index i
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indrelid = (quote_ident(current_schema()) || '.' || quote_ident(${name}))::regclass and i.indisprimary
      order by array_position(i.indkey::int2[], a.attnum)`);
    const fks = await rows<{ ref: string }>(db, sql`
      select distinct ccu.table_name as ref from information_schema.table_constraints tc
      join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
      where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema() and tc.table_name = ${name}`);
    out.push({ name, columns: cols.map((c) => c.name), key: key.map((k) => k.name), references: fks.map((f) => f.ref).filter((r) => r !== name) });
  }
  return out;
}

export function tables(db: Db, dialect: 'sqlite' | 'postgres'): Promise<TableInfo[]> {
  return dialect === 'sqlite' ? sqliteTables(db) : postgresTables(db);
}

/** Referenced tables before the tables that reference them; otherwise by name. */
export function dependencyOrder(list: TableInfo[]): TableInfo[] {
  const byName = new Map(list.map((t) => [t.name, t]));
  const done = new Set<string>();
  const out: TableInfo[] = [];
  const visit = (t: TableInfo, path: Set<string>) => {
    if (done.has(t.name) || path.has(t.name)) return;
    path.add(t.name);
    for (const r of [...t.references].sort()) {
      const ref = byName.get(r);
      if (ref) visit(ref, path);
    }
    done.add(t.name);
    out.push(t);
  };
  for (const t of [...list].sort((a, b) => (a.name < b.name ? -1 : 1))) visit(t, new Set());
  return out;
}

/** PostgreSQL: moves every serial column's sequence past the highest copied value. */
export async function resetSequences(db: Db, table: string): Promise<void> {
  const serials = await rows<{ name: string }>(db, sql`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${table} and column_default like 'nextval(%'`);
  for (const { name } of serials) {
    await sql`select setval(pg_get_serial_sequence(quote_ident(current_schema()) || '.' || quote_ident(${table}), ${name}), coalesce((select max(${sql.ref(name)}) from ${sql.table(table)}), 0) + 1, false)`.execute(db);
  }
}
