// The rebuild queue on a real SQLite store, with faults injected around the store's one read a
// rebuild makes: a failed rebuild is retried until the new data is served, overlapping rebuilds end
// with the newest data, and the day boundary follows the injected clock.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, beforeEach, describe, test } from 'node:test';
import { tempDb } from '../../test/helpers.js';
import { ingestPayload } from '../ingest/ingest.js';
import { SOURCES, sourceByCode } from '../sources/index.js';
import { openSqlite } from '../store/open.js';
import type { Store } from '../store/store.js';
import { Market } from './market.js';
import { RebuildQueue, type RebuildLog } from './rebuild-queue.js';

const NOW = new Date('2026-04-15T18:00:00Z');
const ecbf = sourceByCode('ECBF')!;
const ecbDaily = (date: string, usd: string) =>
  Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
<Cube><Cube time='${date}'><Cube currency='USD' rate='${usd}'/><Cube currency='JPY' rate='187.10'/></Cube></Cube>
</gesmes:Envelope>`);

/** The store with `around` wrapped around each read of recent observations (after the read). */
function wrapped(store: Store, around: () => Promise<void>): Store {
  return new Proxy(store, {
    get(target, prop) {
      if (prop === 'recentObservations') {
        return async (days: number) => {
          const rows = await target.recentObservations(days);
          await around();
          return rows;
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Polls `check` until it holds or `ms` pass; the queue's retries and timers run meanwhile. */
async function eventually(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await sleep(20);
}

describe('the rebuild queue', () => {
  const db = tempDb();
  const store = openSqlite(db.path);
  let around: () => Promise<void> = async () => undefined;
  const market = new Market(wrapped(store, () => around()), SOURCES, 0);
  const logged: string[] = [];
  const log: RebuildLog = { info: (_o, msg) => void logged.push(msg), error: (o, msg) => void logged.push(`${msg} ${JSON.stringify({ retryInMs: (o as { retryInMs?: number }).retryInMs })}`) };
  const usd = () => market.current.banks.get('ECBF')?.rows.find((r) => r.currency === 'USD')?.reciprocal;
  let day = 10;
  const land = async (rate: string) => {
    const outcome = await ingestPayload(store, ecbf, { name: `eurofxref-daily-${day}.xml`, body: ecbDaily(`2026-04-${day++}`, rate) }, NOW);
    assert.equal(outcome.status, 'stored');
  };
  const queues: RebuildQueue[] = [];
  const queue = (clock: () => Date = () => NOW, on = market) => {
    const q = new RebuildQueue({ market: on, dataVersion: () => store.dataVersion(), now: clock, log, retryMs: 20 });
    queues.push(q);
    return q;
  };

  beforeEach(async () => {
    await store.migrate();
    around = async () => undefined;
    logged.length = 0;
  });
  after(async () => {
    for (const q of queues) q.stop();
    await store.close();
    db.cleanup();
  });

  test('a rebuild that fails once is retried: the new rates are served without another ingest', async () => {
    await land('1.1700');
    const q = queue();
    const hooked: number[] = [];
    q.onData.push((v) => void hooked.push(v));
    await q.boot();
    assert.equal(usd(), '1.17');

    let failures = 1;
    around = async () => {
      if (failures-- > 0) throw new Error('SQLITE_BUSY: database is locked');
    };
    await land('1.1800');
    await q.refresh();
    assert.equal(usd(), '1.17', 'the failed rebuild changed the tables');
    assert.deepEqual(logged, ['rates rebuild failed; retrying {"retryInMs":20}']);
    await eventually(() => usd() === '1.18');
    assert.equal(usd(), '1.18');
    assert.deepEqual(logged, ['rates rebuild failed; retrying {"retryInMs":20}', 'rates rebuilt']);
    assert.deepEqual(hooked, [await store.dataVersion()], 'the after-data steps run once, after the rebuild that succeeded');
  });

  test('a table built from older data never replaces one built from newer data', async () => {
    await land('1.1900');
    const older = await store.dataVersion();
    let entered: () => void = () => undefined;
    let release: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    around = async () => {
      entered();
      await held;
    };
    // The first rebuild read the older rows and is held; the second reads the newer ones and finishes first.
    const first = market.rebuild(NOW, older);
    await inside;
    around = async () => undefined;
    await land('1.2000');
    await market.rebuild(NOW, await store.dataVersion());
    assert.equal(usd(), '1.2');
    release();
    await first;
    assert.equal(usd(), '1.2', 'the late rebuild from older data replaced the newer table');
  });

  test('requests that overlap a running rebuild wait for it, and the newest data is served at the end', async () => {
    const q = queue();
    await q.boot();
    let running = 0;
    let most = 0;
    around = async () => {
      most = Math.max(most, ++running);
      await sleep(50);
      running--;
    };
    const day = q.dayBoundary();
    await sleep(10);
    await land('1.2100');
    await Promise.all([q.refresh(), q.refresh(), day]);
    assert.equal(usd(), '1.21');
    assert.equal(most, 1, 'two rebuilds ran at once');
  });

  test('the day boundary is found and rebuilt on the injected clock', async () => {
    let clock = new Date('2026-04-14T23:59:59.500Z');
    const fresh = new Market(store, SOURCES, 0);
    const q = queue(() => clock, fresh);
    let daySteps = 0;
    q.onDay.push(() => daySteps++);
    await q.boot();
    assert.equal(fresh.current.builtAt.toISOString(), '2026-04-14T23:59:59.500Z');
    clock = new Date('2026-04-15T00:00:01.000Z');
    // Half a second to midnight on that clock, then the one-second margin.
    await eventually(() => fresh.current.builtAt.getTime() === clock.getTime(), 4_000);
    assert.equal(fresh.current.builtAt.toISOString(), '2026-04-15T00:00:01.000Z');
    assert.deepEqual(logged, ['rates rebuilt for the new day']);
    assert.equal(daySteps, 1, 'the day-boundary steps (retention) ran once');
  });
});
