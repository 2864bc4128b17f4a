import type { Kysely, Migration } from 'kysely';

/**
 * Marks: small facts a start reads before deciding work, one row per name. The first is the seed
 * history's (src/ingest/seed-history.ts): every SQLite start spawned a worker that decompressed the
 * 3.4 MB history only to find its last batch already stored (~1 s of a core, ~40 MB); the mark of
 * the loaded history's digest lets a start skip it (D30).
 */
export const marks: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('marks')
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('marks').execute();
  },
};
