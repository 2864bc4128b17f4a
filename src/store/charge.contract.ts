// The points charge section of the store contract (D2: exact under concurrency, never inside
// another transaction), run by store.contract.ts on every engine.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Store } from './store.js';

const NOW = '2026-04-14T12:00:00.000Z';

export function chargeContract(withStore: (fn: (store: Store) => Promise<void>) => () => Promise<void>): void {
  test('charge: concurrent charges never spend more than the balance', withStore(async (store) => {
    await store.createAccount({ id: 'acc_1', planId: 'business', points: 20, expiresAt: null, createdAt: NOW });
    const results = await Promise.all(Array.from({ length: 50 }, () => store.charge('acc_1', 1)));
    assert.equal(results.filter((r) => r.ok).length, 20);
    assert.deepEqual(results.filter((r) => r.ok).map((r) => r.remaining).sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i));
    assert.ok(results.filter((r) => !r.ok).every((r) => r.remaining === 0));
    assert.equal((await store.getAccount('acc_1'))!.points, 0);
    assert.deepEqual(await store.charge('acc_1', 0), { ok: true, remaining: 0 });
  }));

  test('chargeBatch: grants in order while the balance covers the cost, per account', withStore(async (store) => {
    await store.createAccount({ id: 'acc_a', planId: 'business', points: 5, expiresAt: null, createdAt: NOW });
    await store.createAccount({ id: 'acc_b', planId: 'business', points: 2, expiresAt: null, createdAt: NOW });
    const results = await store.chargeBatch([
      { accountId: 'acc_a', cost: 3 },
      { accountId: 'acc_b', cost: 1 },
      { accountId: 'acc_a', cost: 3 },
      { accountId: 'acc_a', cost: 2 },
      { accountId: 'acc_none', cost: 1 },
      { accountId: 'acc_b', cost: 2 },
      { accountId: 'acc_b', cost: 1 },
    ]);
    assert.deepEqual(results, [
      { ok: true, remaining: 2 },
      { ok: true, remaining: 1 },
      // Too dear for what is left; a cheaper request after it still fits.
      { ok: false, remaining: 2 },
      { ok: true, remaining: 0 },
      { ok: false, remaining: 0 },
      { ok: false, remaining: 1 },
      { ok: true, remaining: 0 },
    ]);
    assert.equal((await store.getAccount('acc_a'))!.points, 0);
    assert.equal((await store.getAccount('acc_b'))!.points, 0);
    assert.deepEqual(await store.chargeBatch([]), []);
  }));

  test('chargeBatch: concurrent batches on overlapping accounts never overspend', withStore(async (store) => {
    const ids = ['acc_1', 'acc_2', 'acc_3'];
    for (const id of ids) await store.createAccount({ id, planId: 'business', points: 30, expiresAt: null, createdAt: NOW });
    const batches = await Promise.all(
      Array.from({ length: 8 }, (_, b) => store.chargeBatch(Array.from({ length: 20 }, (_, i) => ({ accountId: ids[(b + i) % 3]!, cost: 1 })))),
    );
    const granted = batches.flat().filter((r) => r.ok).length;
    assert.equal(granted, 90);
    for (const id of ids) assert.equal((await store.getAccount(id))!.points, 0);
    await store.ping();
  }));

  test('chargeBatch: charges asked for while another write holds a transaction open land outside it', withStore(async (store) => {
    await store.createAccount({ id: 'acc_1', planId: 'business', points: 500, expiresAt: null, createdAt: NOW });
    // A date of its own per snapshot: on PostgreSQL they run on separate connections, and two
    // inserting the same (source, quote, date) would make one fail on the unique key.
    const row = (i: number, rate: string) => ({ quote: 'USD', date: `2026-04-${String(10 + i).padStart(2, '0')}`, rate, direction: 'indirect' as const, unit: 1, table: '' });
    // Snapshots are stored in transactions that span awaits; odd ones hold a rate of null and roll
    // back at their last insert. Charges are asked for in between; none may roll back with them.
    const snapshots = Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => store.storeSnapshot({ source: 'ECBF', name: `s${i}.xml`, sha256: String(i).repeat(64), rows: [row(i, i % 2 ? (null as unknown as string) : `1.16${i}`)], at: NOW })),
    );
    const charges: Promise<{ ok: boolean; remaining: number }[]>[] = [];
    for (let i = 0; i < 200; i++) {
      charges.push(store.chargeBatch([{ accountId: 'acc_1', cost: 2 }]));
      await Promise.resolve();
    }
    assert.deepEqual((await snapshots).map((r) => r.status), Array.from({ length: 10 }, (_, i) => (i % 2 ? 'rejected' : 'fulfilled')));
    const results = await Promise.all(charges);
    assert.deepEqual(results.map((r) => r[0]!.ok), Array(200).fill(true));
    assert.deepEqual(results.map((r) => r[0]!.remaining).sort((a, b) => b - a), Array.from({ length: 200 }, (_, i) => 498 - 2 * i));
    assert.equal((await store.getAccount('acc_1'))!.points, 100);
  }));
}
