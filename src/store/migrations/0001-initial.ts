import { sql, type Kysely, type Migration } from 'kysely';

/** Default plans (D12). Operators change them as data, not code. */
const DEFAULT_PLANS = [
  { id: 'starter', name: 'Starter', monthly_points: 1_000, requests_per_minute: 60, endpoints: ['latest', 'rate', 'convert', 'banks', 'currencies'] },
  { id: 'professional', name: 'Professional', monthly_points: 100_000, requests_per_minute: 600, endpoints: ['latest', 'rate', 'convert', 'bank', 'banks', 'currencies'] },
  { id: 'business', name: 'Business', monthly_points: 1_000_000, requests_per_minute: null, endpoints: ['latest', 'rate', 'convert', 'bank', 'banks', 'currencies'] },
];

export type DialectName = 'sqlite' | 'postgres';

export const initial = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('plans')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('monthly_points', 'bigint', (c) => c.notNull())
      .addColumn('requests_per_minute', 'integer')
      .addColumn('endpoints', 'text', (c) => c.notNull())
      .execute();
    await db
      .insertInto('plans')
      .values(DEFAULT_PLANS.map((p) => ({ ...p, endpoints: JSON.stringify(p.endpoints) })))
      .execute();

    await db.schema
      .createTable('accounts')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('plan_id', 'varchar(32)', (c) => c.notNull().references('plans.id'))
      .addColumn('points', 'bigint', (c) => c.notNull().check(sql`points >= 0`))
      .addColumn('expires_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('account_id', 'varchar(32)', (c) => c.notNull().references('accounts.id'))
      .addColumn('hash', 'char(64)', (c) => c.notNull().unique())
      .addColumn('prefix', 'varchar(8)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('revoked_at', 'varchar(32)')
      .execute();
    await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();

    await db.schema
      .createTable('snapshots')
      .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => c.primaryKey())
      .addColumn('source', 'varchar(8)', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('sha256', 'char(64)', (c) => c.notNull())
      .addColumn('first_date', 'varchar(10)', (c) => c.notNull())
      .addColumn('last_date', 'varchar(10)', (c) => c.notNull())
      .addColumn('rows', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('snapshots_source_sha256', ['source', 'sha256'])
      .execute();

    await db.schema
      .createTable('observations')
      .addColumn('source', 'varchar(8)', (c) => c.notNull())
      .addColumn('quote', 'varchar(3)', (c) => c.notNull())
      .addColumn('date', 'varchar(10)', (c) => c.notNull())
      .addColumn('rate', 'text', (c) => c.notNull())
      .addColumn('direction', 'varchar(8)', (c) => c.notNull())
      .addColumn('unit', 'integer', (c) => c.notNull())
      .addColumn('tbl', 'varchar(16)', (c) => c.notNull())
      .addColumn('snapshot_id', 'integer', (c) => c.notNull())
      .addColumn('stored_at', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('observations_pk', ['source', 'quote', 'date'])
      .execute();
  },
  async down(db: Kysely<any>) {
    for (const t of ['observations', 'snapshots', 'api_keys', 'accounts', 'plans']) await db.schema.dropTable(t).execute();
  },
});
