import type { Kysely, Migration } from 'kysely';

/**
 * Usage counts per account and UTC day (GET /v1/usage), the shared per-minute request counter
 * (one row per account: the limit holds across instances on PostgreSQL), and the period each
 * account was last refilled (so a rerun of the monthly refill never grants twice).
 */
export const usageLimits: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('usage_daily')
      .addColumn('account_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('day', 'varchar(10)', (c) => c.notNull())
      .addColumn('requests', 'bigint', (c) => c.notNull())
      .addColumn('points', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('usage_daily_pk', ['account_id', 'day'])
      .execute();
    await db.schema
      .createTable('request_windows')
      .addColumn('account_id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('window_start', 'bigint', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.alterTable('accounts').addColumn('refilled_period', 'varchar(7)').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('accounts').dropColumn('refilled_period').execute();
    await db.schema.dropTable('request_windows').execute();
    await db.schema.dropTable('usage_daily').execute();
  },
};
