import type { Kysely, Migration } from 'kysely';

/**
 * Period rates (D21): customs, tax and accounting rates valid from one day to another, kept apart
 * from the fixings in `observations`, which every blend, history day and quality measure reads, so
 * that no query of theirs can meet one. A snapshot of period rates is marked, so the days history
 * rebuilds after an ingest never follow a period's dates (a BIS series reaches back to 1900).
 */
export const periods: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('period_rates')
      .addColumn('source', 'varchar(8)', (c) => c.notNull())
      .addColumn('quote', 'varchar(3)', (c) => c.notNull())
      .addColumn('valid_from', 'varchar(10)', (c) => c.notNull())
      .addColumn('valid_to', 'varchar(10)', (c) => c.notNull())
      .addColumn('rate', 'text', (c) => c.notNull())
      .addColumn('direction', 'varchar(8)', (c) => c.notNull())
      .addColumn('unit', 'integer', (c) => c.notNull())
      .addColumn('tbl', 'varchar(16)', (c) => c.notNull())
      .addColumn('snapshot_id', 'integer', (c) => c.notNull())
      .addColumn('stored_at', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('period_rates_pk', ['source', 'quote', 'valid_from'])
      .execute();
    // A bank's dated answer and its range read one source by period.
    await db.schema.createIndex('period_rates_source_from').on('period_rates').columns(['source', 'valid_from']).execute();
    await db.schema.alterTable('snapshots').addColumn('period', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('snapshots').dropColumn('period').execute();
    await db.schema.dropIndex('period_rates_source_from').execute();
    await db.schema.dropTable('period_rates').execute();
  },
};
