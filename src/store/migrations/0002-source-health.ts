import type { Kysely, Migration } from 'kysely';

/** One row per source: the outcome of its latest fetches, for `kurs sources` and the status page. */
export const sourceHealth: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('source_health')
      .addColumn('source', 'varchar(8)', (c) => c.primaryKey())
      .addColumn('last_attempt_at', 'varchar(32)')
      .addColumn('last_success_at', 'varchar(32)')
      .addColumn('last_error_at', 'varchar(32)')
      .addColumn('last_error', 'text')
      .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('rejections', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('source_health').execute();
  },
};
