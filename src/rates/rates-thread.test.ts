// The rates built in the worker thread are the rates built in this one, to the last key and digit:
// on the bundled seed (pegs, anchors, every bank's rows), directly and through Market.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seed, SEED_TODAY, tempDb } from '../../test/helpers.js';
import { QualityCache } from '../blend/quality-cache.js';
import { loadSeed } from '../ingest/seed.js';
import { Decimal } from '../money/decimal.js';
import { enabledSources } from '../sources/enabled.js';
import { SOURCES } from '../sources/index.js';
import type { Source } from '../sources/types.js';
import { openSqlite, PG_DEFAULTS } from '../store/open.js';
import { buildRates } from './build.js';
import { Market, type MarketSnapshot } from './market.js';
import { factsOf, RatesThread } from './rates-thread.js';
import { fromWire, toWire } from './rates-wire.js';

/** What a snapshot serves, as plain data: each rate, each bank's rows, the quality. */
const served = (s: MarketSnapshot) => ({
  rates: s.rates.codes.map((c) => s.rates.get(c)),
  banks: [...s.banks].map(([code, t]) => [code, t.bank.code, t.base, t.rows]),
  quality: s.quality,
});

describe('the rates worker', () => {
  const db = tempDb();
  const store = openSqlite(db.path);
  const sources = enabledSources(SOURCES, []);
  const thread = new RatesThread({ databaseUrl: db.url, pg: PG_DEFAULTS });

  before(async () => {
    await store.migrate();
    await loadSeed(store, sources, seed(), SEED_TODAY);
  });

  after(async () => {
    await thread.close();
    await store.close();
    db.cleanup();
  });

  test('a build crosses between threads unchanged, Decimals and pegs included', async () => {
    const here = await buildRates(store, sources, SEED_TODAY, 0, new QualityCache());
    assert.ok([...here.rates.values()].some((r) => r.peg), 'the seed blends a pegged currency');
    assert.deepStrictEqual(fromWire(structuredClone(toWire(here))), here);
  });

  test('builds what this thread builds', async () => {
    const here = await buildRates(store, sources, SEED_TODAY, 2, new QualityCache());
    const there = await thread.build(sources, SEED_TODAY, 2);
    assert.ok(here.rates.size > 100);
    assert.deepStrictEqual(there, here);
    for (const r of there.rates.values()) assert.ok(r.perUsd instanceof Decimal);
  });

  test('a market building off the thread serves what one building here serves', async () => {
    const here = new Market(store, sources, 0);
    const there = new Market(store, sources, 0);
    there.buildOffThread({ databaseUrl: db.url, pg: PG_DEFAULTS });
    try {
      await here.rebuild(SEED_TODAY, 1);
      await there.rebuild(SEED_TODAY, 1);
      // The second build runs in the worker; a later moment, so it replaces the first.
      const later = new Date(SEED_TODAY.getTime() + 60_000);
      await here.rebuild(later, 1);
      await there.rebuild(later, 1);
      assert.deepStrictEqual(served(there.current), served(here.current));
      assert.equal(there.current.builtAt, later);
    } finally {
      await there.close();
    }
  });

  test('a worker that cannot open the store fails each build it is given', async () => {
    const broken = new RatesThread({ databaseUrl: 'mysql://nowhere', pg: PG_DEFAULTS });
    await assert.rejects(broken.build(sources, SEED_TODAY, 0), /unsupported database URL/);
    await assert.rejects(broken.build(sources, SEED_TODAY, 0), /unsupported database URL/);
    await broken.close();
  });

  test('the worker builds from the sources it is given, as data: a source changed here is built as changed', async () => {
    // The ECB marked discontinued: never blended into current rates, so the build differs from the
    // registry's. The worker has no registry to fall back on; it must use what the job carries.
    const changed: Source[] = sources.map((s) => (s.code === 'ECBF' ? { ...s, discontinued: '2026-01-01' } : s));
    const here = await buildRates(store, changed, SEED_TODAY, 2, new QualityCache());
    const there = await thread.build(changed, SEED_TODAY, 2);
    assert.deepStrictEqual(there, here);
    assert.notDeepStrictEqual(there.rates, (await thread.build(sources, SEED_TODAY, 2)).rates);
    assert.deepEqual(Object.keys(factsOf(changed.find((s) => s.code === 'ECBF')!)).filter((k) => ['parse', 'accepts', 'requests'].includes(k)), []);
  });
});
