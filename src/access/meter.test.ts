import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { tempDb } from '../../test/helpers.js';
import { openSqlite } from '../store/open.js';
import type { ChargeRequest, Store } from '../store/store.js';
import { BatchMeter, DirectMeter } from './meter.js';

const NOW = '2026-04-14T12:00:00.000Z';

describe('points meter on a real SQLite file', () => {
  const db = tempDb();
  let store: Store;
  before(async () => {
    store = openSqlite(db.path);
    await store.migrate();
  });
  after(async () => {
    await store.close();
    db.cleanup();
  });

  test('group commit: concurrent charges share transactions and spend exactly the balance', async () => {
    await store.createAccount({ id: 'acc_hot', planId: 'business', points: 37, expiresAt: null, createdAt: NOW });
    const batches: number[] = [];
    const counting = { chargeBatch: (items: readonly ChargeRequest[]) => (batches.push(items.length), store.chargeBatch(items)) };
    const meter = new BatchMeter(counting);
    const results = await Promise.all(Array.from({ length: 300 }, () => meter.charge('acc_hot', 1)));
    assert.equal(results.filter((r) => r.ok).length, 37);
    // Arrival order is grant order: the first 37 callers got the points, in order.
    assert.deepEqual(results.slice(0, 37).map((r) => r.remaining), Array.from({ length: 37 }, (_, i) => 36 - i));
    assert.ok(results.slice(37).every((r) => !r.ok && r.remaining === 0));
    assert.equal((await store.getAccount('acc_hot'))!.points, 0);
    assert.ok(batches.length < 300 / 10, `expected batching, got ${batches.length} transactions`);
    assert.equal(batches.reduce((a, b) => a + b, 0), 300);
  });

  test('a batch is capped, and the next batch follows without a new caller', async () => {
    await store.createAccount({ id: 'acc_cap', planId: 'business', points: 1000, expiresAt: null, createdAt: NOW });
    const batches: number[] = [];
    const meter = new BatchMeter({ chargeBatch: (items) => (batches.push(items.length), store.chargeBatch(items)) }, 40);
    const results = await Promise.all(Array.from({ length: 100 }, () => meter.charge('acc_cap', 2)));
    assert.ok(results.every((r) => r.ok));
    assert.deepEqual(batches, [40, 40, 20]);
    assert.equal((await store.getAccount('acc_cap'))!.points, 800);
  });

  test('a failing transaction rejects every waiting charge and takes nothing', async () => {
    await store.createAccount({ id: 'acc_err', planId: 'business', points: 5, expiresAt: null, createdAt: NOW });
    let fail = true;
    const meter = new BatchMeter({
      chargeBatch: async (items) => {
        if (fail) throw new Error('connection lost');
        return store.chargeBatch(items);
      },
    });
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => meter.charge('acc_err', 1)));
    assert.ok(outcomes.every((o) => o.status === 'rejected'));
    fail = false;
    assert.deepEqual(await meter.charge('acc_err', 1), { ok: true, remaining: 4 });
  });

  test('chargeThen: answers each caller once, after the call returns, and a throwing callback stops no one', async () => {
    await store.createAccount({ id: 'acc_cb', planId: 'business', points: 3, expiresAt: null, createdAt: NOW });
    const thrown: unknown[] = [];
    const meter = new BatchMeter(store, undefined, (err) => thrown.push(err));
    const seen: string[] = [];
    const all = Array.from({ length: 5 }, (_, i) =>
      new Promise<void>((resolve) =>
        meter.chargeThen(
          'acc_cb',
          1,
          (r) => {
            seen.push(`${i}:${r.ok}:${r.remaining}`);
            resolve();
            if (i === 1) throw new Error('a bug in a callback');
          },
          () => seen.push(`${i}:failed`),
        ),
      ),
    );
    assert.deepEqual(seen, [], 'never answered synchronously');
    await Promise.all(all);
    // Grant order is call order; the callback after the throwing one was still answered.
    assert.deepEqual(seen, ['0:true:2', '1:true:1', '2:true:0', '3:false:0', '4:false:0']);
    assert.deepEqual(thrown.map((e) => (e as Error).message), ['a bug in a callback']);
    // The meter is not left busy: a later charge is served.
    await store.topUp('acc_cb', 1);
    assert.deepEqual(await meter.charge('acc_cb', 1), { ok: true, remaining: 0 });
  });

  test('the direct meter is one conditional update per charge', async () => {
    await store.createAccount({ id: 'acc_direct', planId: 'business', points: 3, expiresAt: null, createdAt: NOW });
    const meter = new DirectMeter(store);
    const results = await Promise.all(Array.from({ length: 5 }, () => meter.charge('acc_direct', 1)));
    assert.equal(results.filter((r) => r.ok).length, 3);
    assert.equal((await store.getAccount('acc_direct'))!.points, 0);
  });
});
