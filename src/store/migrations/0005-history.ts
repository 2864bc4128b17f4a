import { type Kysely, type Migration } from 'kysely';

/**
 * Materialised history (D14–D16): one row per UTC day holding that day's blend, per USD, as written
 * by src/history/; and the snapshot id through which it is materialised, so a restart or another
 * instance knows which days an ingest has touched since. Plans gain the history endpoint ids (D16).
 */
const PLAN_ENDPOINTS: Record<string, string[]> = {
  starter: ['history'],
  professional: ['history', 'timeseries', 'fluctuation'],
  business: ['history', 'timeseries', 'fluctuation'],
};

export const history: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('history_days')
      .addColumn('day', 'varchar(10)', (c) => c.primaryKey())
      .addColumn('rates', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('history_state')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('snapshot_id', 'bigint', (c) => c.notNull())
      .addColumn('first_day', 'varchar(10)')
      .addColumn('last_day', 'varchar(10)')
      .execute();
    // Materialising reads observations by date across sources; a bank's dated answers and ranges
    // read one source by date (the primary key leads with the currency, so it would scan them all).
    await db.schema.createIndex('observations_date').on('observations').column('date').execute();
    await db.schema.createIndex('observations_source_date').on('observations').columns(['source', 'date']).execute();
    await db.insertInto('history_state').values({ id: 1, snapshot_id: 0, first_day: null, last_day: null }).execute();
    // Plans are data: add the new ids to the default plans as they stand, keeping operators' edits.
    const plans = await db.selectFrom('plans').select(['id', 'endpoints']).execute();
    for (const p of plans as { id: string; endpoints: string }[]) {
      const extra = PLAN_ENDPOINTS[p.id];
      if (!extra) continue;
      const endpoints = JSON.parse(p.endpoints) as string[];
      const merged = [...endpoints, ...extra.filter((e) => !endpoints.includes(e))];
      await db.updateTable('plans').set({ endpoints: JSON.stringify(merged) }).where('id', '=', p.id).execute();
    }
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('observations_source_date').execute();
    await db.schema.dropIndex('observations_date').execute();
    await db.schema.dropTable('history_state').execute();
    await db.schema.dropTable('history_days').execute();
  },
};
