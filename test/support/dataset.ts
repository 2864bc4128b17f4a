// A small dataset written for route tests, so that they assert facts stated here rather than facts of
// the bundled seed (which a seed refresh changes). Three sources with consistent cross rates:
// - ECBF (EUR base) on 8 and 9 June 2026: USD, JPY, CHF, GBP, CZK, PLN;
// - CNBA (CZK base) on 9 June: EUR, USD and JPY (per 100);
// - NBPL (PLN base): table A on 20 May and 9 June (USD, EUR); table B, weekly, last on 20 May: AFN
//   only, so AFN is listed by /latest but stale on the test day.
import type { Seed, SeedRow } from '../../src/ingest/seed.js';
import { loadSeed } from '../../src/ingest/seed.js';
import { SOURCES } from '../../src/sources/index.js';
import { testApp, type TestApp } from '../helpers.js';

/** The test day: the day after the dataset's newest figures. */
export const DATASET_TODAY = new Date('2026-06-10T12:00:00Z');
/** The newest publication in the dataset: the ECB's of 9 June at its 15:00 UTC. */
export const NEWEST_PUBLICATION = '2026-06-09 15:00:00';
export const NEWEST_PUBLICATION_HTTP = 'Tue, 09 Jun 2026 15:00:00 GMT';
/** Every currency the dataset quotes, in code order. */
export const DATASET_CURRENCIES = ['AFN', 'CHF', 'CZK', 'EUR', 'GBP', 'JPY', 'PLN', 'USD'];

const ecb = (date: string, rates: Record<string, string>): SeedRow[] => Object.entries(rates).map(([quote, rate]) => [date, quote, rate, 1, 'indirect', '']);

export const DATASET: Seed = {
  about: 'Written by hand for route tests (test/support/dataset.ts).',
  sources: [
    {
      source: 'ECBF',
      provenance: [],
      rows: [
        ...ecb('2026-06-08', { USD: '1.1450', JPY: '171.90', CHF: '0.9410', GBP: '0.84900', CZK: '25.010', PLN: '4.3050' }),
        ...ecb('2026-06-09', { USD: '1.1500', JPY: '172.50', CHF: '0.9400', GBP: '0.85000', CZK: '25.000', PLN: '4.3000' }),
      ],
    },
    {
      source: 'CNBA',
      provenance: [],
      rows: [
        ['2026-06-09', 'EUR', '25.000', 1, 'direct', ''],
        ['2026-06-09', 'USD', '21.739', 1, 'direct', ''],
        ['2026-06-09', 'JPY', '14.493', 100, 'direct', ''],
      ],
    },
    {
      source: 'NBPL',
      provenance: [],
      rows: [
        ['2026-05-20', 'AFN', '0.0530', 1, 'direct', 'B'],
        ['2026-05-20', 'EUR', '4.2800', 1, 'direct', 'A'],
        ['2026-05-20', 'USD', '3.7500', 1, 'direct', 'A'],
        ['2026-06-09', 'EUR', '4.3000', 1, 'direct', 'A'],
        ['2026-06-09', 'USD', '3.7391', 1, 'direct', 'A'],
      ],
    },
  ],
};

/** The rows of one source in the dataset. */
export const datasetRows = (code: string): SeedRow[] => DATASET.sources.find((s) => s.source === code)!.rows;

/** A test app on a temp SQLite file holding only DATASET, its clock on DATASET_TODAY. */
export async function datasetApp(): Promise<TestApp> {
  const t = await testApp({ now: DATASET_TODAY, seeded: false });
  const failed = (await loadSeed(t.store, SOURCES, DATASET, DATASET_TODAY)).filter((o) => o.status !== 'stored');
  if (failed.length > 0) throw new Error(`the test dataset did not load: ${JSON.stringify(failed)}`);
  await t.market.rebuild(DATASET_TODAY);
  return t;
}
