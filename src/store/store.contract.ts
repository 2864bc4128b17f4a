// The contract every Store engine must pass. Engine test files call `storeContract` with a factory
// that returns a fresh, empty, migrated store.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chargeContract } from './charge.contract.js';
import { historyContract } from './history.contract.js';
import { periodContract } from './period.contract.js';
import type { Store } from './store.js';

const NOW = '2026-04-14T12:00:00.000Z';

export function storeContract(engine: string, open: () => Promise<{ store: Store; cleanup: () => Promise<void> }>): void {
  const withStore = (fn: (store: Store) => Promise<void>) => async () => {
    const { store, cleanup } = await open();
    try {
      await fn(store);
    } finally {
      await cleanup();
    }
  };

  describe(`store contract: ${engine}`, () => {
    test('migrating twice is harmless and the default plans exist', withStore(async (store) => {
      await store.migrate();
      const plans = await store.listPlans();
      assert.deepEqual(plans.map((p) => p.id), ['starter', 'professional', 'business']);
      assert.deepEqual((await store.getPlan('starter'))!.endpoints, ['latest', 'rate', 'convert', 'banks', 'currencies', 'history']);
      assert.equal((await store.getPlan('business'))!.requestsPerMinute, null);
      assert.equal(await store.getPlan('gold'), undefined);
    }));

    test('marks: unset until set, then the last value set (D30)', withStore(async (store) => {
      assert.equal(await store.mark('seed-history'), undefined);
      await store.setMark('seed-history', 'a');
      await store.setMark('seed-history', 'b');
      await store.setMark('other', 'c');
      assert.equal(await store.mark('seed-history'), 'b');
      assert.equal(await store.mark('other'), 'c');
    }));

    test('each source\'s first and newest date in its health, as a GROUP BY over every figure finds them (D30)', withStore(async (store) => {
      const row = (quote: string, date: string) => ({ quote, date, rate: '1.1', direction: 'indirect' as const, unit: 1, table: '' });
      await store.storeSnapshot({ source: 'ECBF', name: 'a', sha256: 'a'.repeat(64), rows: [row('USD', '2026-01-05'), row('JPY', '2026-02-03'), row('USD', '2026-03-02')], at: NOW });
      await store.storeSnapshot({ source: 'BOCA', name: 'b', sha256: 'b'.repeat(64), rows: [row('USD', '2025-12-31')], at: NOW });
      await store.storeSnapshot({ source: 'NBPL', name: 'c', sha256: 'c'.repeat(64), rows: [row('EUR', '2026-01-02'), row('USD', '2026-01-09')], at: NOW });
      const spans = (await store.sourceHealth()).map((h) => [h.source, h.firstDate, h.newestDate]);
      assert.deepEqual(spans, [['BOCA', '2025-12-31', '2025-12-31'], ['ECBF', '2026-01-05', '2026-03-02'], ['NBPL', '2026-01-02', '2026-01-09']]);
      assert.deepEqual((await store.recentObservations(7)).map((f) => `${f.source} ${f.quote} ${f.date}`).sort(), ['BOCA USD 2025-12-31', 'ECBF USD 2026-03-02', 'NBPL EUR 2026-01-02', 'NBPL USD 2026-01-09']);
    }));

    test('accounts: create, read, update, top up', withStore(async (store) => {
      assert.equal(await store.hasAccounts(), false);
      await store.createAccount({ id: 'acc_1', planId: 'starter', points: 10, expiresAt: null, createdAt: NOW });
      assert.equal(await store.hasAccounts(), true);
      assert.deepEqual(await store.getAccount('acc_1'), { id: 'acc_1', planId: 'starter', points: 10, expiresAt: null, createdAt: NOW });
      assert.equal(await store.topUp('acc_1', 5), 15);
      assert.equal(await store.topUp('acc_none', 5), undefined);
      const updated = await store.updateAccount('acc_1', { planId: 'business', expiresAt: '2027-01-01T00:00:00.000Z' });
      assert.equal(updated!.planId, 'business');
      assert.equal(updated!.expiresAt, '2027-01-01T00:00:00.000Z');
      assert.equal((await store.updateAccount('acc_1', { expiresAt: null }))!.expiresAt, null);
      assert.deepEqual((await store.listAccounts()).map((a) => a.id), ['acc_1']);
    }));

    test('keys: found by hash with account and plan until revoked', withStore(async (store) => {
      await store.createAccount({ id: 'acc_1', planId: 'professional', points: 3, expiresAt: null, createdAt: NOW });
      await store.createKey({ id: 'key_1', accountId: 'acc_1', hash: 'a'.repeat(64), prefix: 'abcdefgh', createdAt: NOW, revokedAt: null });
      const found = await store.findKey('a'.repeat(64));
      assert.equal(found!.keyId, 'key_1');
      assert.equal(found!.account.points, 3);
      assert.equal(found!.plan.id, 'professional');
      assert.equal(await store.findKey('b'.repeat(64)), undefined);
      assert.equal(await store.revokeKey('key_1'), true);
      assert.equal(await store.revokeKey('key_1'), false);
      assert.equal(await store.findKey('a'.repeat(64)), undefined);
      assert.equal((await store.listKeys('acc_1'))[0]!.revokedAt !== null, true);
    }));

    test('snapshots: stored atomically once; a revision is counted; versions grow', withStore(async (store) => {
      assert.equal(await store.dataVersion(), 0);
      const rows = [
        { quote: 'USD', date: '2026-04-13', rate: '1.1684', direction: 'indirect' as const, unit: 1, table: '' },
        { quote: 'JPY', date: '2026-04-13', rate: '187.10', direction: 'indirect' as const, unit: 1, table: '' },
      ];
      assert.deepEqual(await store.storeSnapshot({ source: 'ECBF', name: 'a.xml', sha256: '1'.repeat(64), rows, at: NOW }), { status: 'stored', inserted: 2, revised: 0, unchanged: 0 });
      const v1 = await store.dataVersion();
      assert.ok(v1 > 0);
      assert.deepEqual(await store.storeSnapshot({ source: 'ECBF', name: 'a.xml', sha256: '1'.repeat(64), rows, at: NOW }), { status: 'duplicate' });
      assert.equal(await store.dataVersion(), v1);
      const revised = [{ ...rows[0]!, rate: '1.1690' }, rows[1]!];
      assert.deepEqual(await store.storeSnapshot({ source: 'ECBF', name: 'b.xml', sha256: '2'.repeat(64), rows: revised, at: NOW }), { status: 'stored', inserted: 0, revised: 1, unchanged: 1 });
      assert.ok((await store.dataVersion()) > v1);
      await assert.rejects(store.storeSnapshot({ source: 'ECBF', name: 'c.xml', sha256: '3'.repeat(64), rows: [], at: NOW }));
      const recent = await store.recentObservations(45);
      assert.deepEqual(recent.map((r) => `${r.quote} ${r.rate} ${r.direction} ${r.table}`).sort(), ['JPY 187.10 indirect ', 'USD 1.1690 indirect ']);
      assert.equal(recent[0]!.storedAt, NOW);
    }));

    test('a snapshot spans the figures it wrote; one that wrote none is no new data and touches no day of history (D29)', withStore(async (store) => {
      const row = (date: string, rate: string) => ({ quote: 'USD', date, rate, direction: 'indirect' as const, unit: 1, table: '' });
      const history = [row('2026-01-02', '1.10'), row('2026-02-02', '1.20'), row('2026-03-02', '1.30')];
      await store.storeSnapshot({ source: 'ECBF', name: 'h1', sha256: 'a'.repeat(64), rows: history, at: NOW });
      const mark = await store.dataVersion();
      assert.deepEqual(await store.storeSnapshot({ source: 'ECBF', name: 'h2', sha256: 'b'.repeat(64), rows: history, at: NOW }), { status: 'stored', inserted: 0, revised: 0, unchanged: 3 });
      assert.equal(await store.snapshotsAfter(mark), undefined);
      assert.equal(await store.dataVersion(), mark, 'no new data');
      await store.storeSnapshot({ source: 'ECBF', name: 'h3', sha256: 'c'.repeat(64), rows: [history[0]!, row('2026-02-02', '1.25'), history[2]!], at: NOW });
      assert.deepEqual(await store.snapshotsAfter(mark), { lastId: await store.dataVersion(), firstDate: '2026-02-02', lastDate: '2026-02-02' });
    }));

    test('a snapshot compared in slices, while another of its source lands, counts against what is stored at its commit', withStore(async (store) => {
      // 12,000 figures: several compared slices, so the other snapshot can land in between.
      const days = Array.from({ length: 12_000 }, (_, i) => new Date(Date.UTC(1990, 0, 1 + i)).toISOString().slice(0, 10));
      const long = days.map((date) => ({ quote: 'USD', date, rate: '1.5', direction: 'indirect' as const, unit: 1, table: '' }));
      const one = [{ ...long[9_000]!, rate: '1.6' }];
      const [a, b] = await Promise.all([
        store.storeSnapshot({ source: 'ECBF', name: 'long', sha256: 'd'.repeat(64), rows: long, at: NOW }),
        store.storeSnapshot({ source: 'ECBF', name: 'one', sha256: 'e'.repeat(64), rows: one, at: NOW }),
      ]);
      assert.equal(a.status === 'stored' && a.inserted + a.revised + a.unchanged, 12_000);
      assert.ok(a.status === 'stored' && b.status === 'stored');
      // Whichever committed last wrote the figure for that day, and counted it as a revision.
      const stored = (await store.recentObservations(100_000)).find((r) => r.date === long[9_000]!.date)!;
      assert.equal(a.revised + b.revised, 1);
      assert.equal(stored.rate, a.revised === 1 ? '1.5' : '1.6');
    }));

    test('source health: successes reset failures, errors and rejections are counted', withStore(async (store) => {
      await store.recordFetch({ source: 'ECBF', at: '2026-04-14T15:00:00.000Z' });
      await store.recordFetch({ source: 'ECBF', at: '2026-04-15T15:00:00.000Z', error: 'HTTP 503', rejected: false });
      await store.recordFetch({ source: 'ECBF', at: '2026-04-15T15:30:00.000Z', error: 'ECBF: malformed XML', rejected: true });
      let [h] = await store.sourceHealth();
      assert.deepEqual(h, {
        source: 'ECBF', lastAttemptAt: '2026-04-15T15:30:00.000Z', lastSuccessAt: '2026-04-14T15:00:00.000Z', lastErrorAt: '2026-04-15T15:30:00.000Z',
        lastError: 'ECBF: malformed XML', failures: 2, rejections: 1, firstDate: null, newestDate: null, newestValidTo: null,
      });
      await store.recordFetch({ source: 'ECBF', at: '2026-04-16T15:00:00.000Z' });
      await store.storeSnapshot({ source: 'ECBF', name: 'x', sha256: '6'.repeat(64), rows: [{ quote: 'USD', date: '2026-04-16', rate: '1.17', direction: 'indirect', unit: 1, table: '' }], at: NOW });
      [h] = await store.sourceHealth();
      assert.equal(h!.failures, 0);
      assert.equal(h!.rejections, 1);
      assert.equal(h!.lastError, 'ECBF: malformed XML');
      assert.equal(h!.newestDate, '2026-04-16');
      assert.equal(h!.firstDate, '2026-04-16');
    }));

    test('previousRates gives the newest figure per currency before a date', withStore(async (store) => {
      const row = (quote: string, date: string, rate: string) => ({ quote, date, rate, direction: 'direct' as const, unit: 1, table: '' });
      await store.storeSnapshot({ source: 'NBPL', name: 'x', sha256: '7'.repeat(64), rows: [row('USD', '2026-03-02', '4.0'), row('USD', '2026-03-03', '4.1'), row('EUR', '2026-03-02', '4.3'), row('USD', '2026-03-05', '4.2')], at: NOW });
      const prev = await store.previousRates('NBPL', '2026-03-05');
      assert.deepEqual(prev.map((r) => `${r.quote} ${r.date} ${r.rate}`).sort(), ['EUR 2026-03-02 4.3', 'USD 2026-03-03 4.1']);
      assert.deepEqual(await store.previousRates('ECBF', '2026-03-05'), []);
      // Not before `since`: EUR's figure is older, so none.
      assert.deepEqual((await store.previousRates('NBPL', '2026-03-05', '2026-03-03')).map((r) => `${r.quote} ${r.date} ${r.rate}`), ['USD 2026-03-03 4.1']);
    }));

    test('recentObservations looks back from each source\'s own newest date', withStore(async (store) => {
      const row = (date: string) => ({ quote: 'USD', date, rate: '1', direction: 'direct' as const, unit: 1, table: '' });
      await store.storeSnapshot({ source: 'AAAA', name: 'x', sha256: '4'.repeat(64), rows: [row('2020-01-01'), row('2020-03-01'), row('2020-03-20')], at: NOW });
      await store.storeSnapshot({ source: 'BBBB', name: 'y', sha256: '5'.repeat(64), rows: [row('2026-04-13')], at: NOW });
      const dates = (await store.recentObservations(45)).map((r) => `${r.source} ${r.date}`).sort();
      assert.deepEqual(dates, ['AAAA 2020-03-01', 'AAAA 2020-03-20', 'BBBB 2026-04-13']);
    }));

    // Usage, request limits and the monthly refill (issue 6).
    test('usage: batches add up per account and day, all or nothing', withStore(async (store) => {
      await store.addUsage([]);
      await store.addUsage([
        { accountId: 'acc_1', day: '2026-04-13', requests: 3, points: 2 },
        { accountId: 'acc_1', day: '2026-04-14', requests: 5, points: 5 },
        { accountId: 'acc_2', day: '2026-04-14', requests: 1, points: 0 },
      ]);
      await store.addUsage([{ accountId: 'acc_1', day: '2026-04-14', requests: 2, points: 1 }]);
      assert.deepEqual(await store.usageDays('acc_1', '2026-04-01', '2026-04-30'), [
        { accountId: 'acc_1', day: '2026-04-13', requests: 3, points: 2 },
        { accountId: 'acc_1', day: '2026-04-14', requests: 7, points: 6 },
      ]);
      assert.deepEqual((await store.usageDays('acc_1', '2026-04-14', '2026-04-14')).map((u) => u.requests), [7]);
      assert.deepEqual(await store.usageDays('acc_3', '2026-04-01', '2026-04-30'), []);
      // A batch with a bad row (NULL day) fails whole: the good row before it is not kept.
      await assert.rejects(store.addUsage([
        { accountId: 'acc_2', day: '2026-04-15', requests: 1, points: 1 },
        { accountId: 'acc_2', day: null as unknown as string, requests: 1, points: 1 },
      ]));
      assert.deepEqual(await store.usageDays('acc_2', '2026-04-15', '2026-04-15'), []);
    }));

    test('request windows: concurrent hits count exactly; a newer window restarts, an older one does not', withStore(async (store) => {
      const w = Date.parse('2026-04-14T12:00:00Z');
      const counts = await Promise.all(Array.from({ length: 30 }, () => store.hitRequestWindow('acc_1', w)));
      assert.deepEqual(counts.sort((a, b) => a - b), Array.from({ length: 30 }, (_, i) => i + 1));
      assert.equal(await store.hitRequestWindow('acc_2', w), 1);
      assert.equal(await store.hitRequestWindow('acc_1', w - 60_000), 31);
      assert.equal(await store.hitRequestWindow('acc_1', w + 60_000), 1);
      assert.equal(await store.hitRequestWindow('acc_1', w + 60_000), 2);
    }));

    test('refill raises to the allowance once per period, never lowers, skips new accounts', withStore(async (store) => {
      const before = '2026-03-20T00:00:00.000Z';
      await store.createAccount({ id: 'acc_low', planId: 'starter', points: 10, expiresAt: null, createdAt: before });
      await store.createAccount({ id: 'acc_high', planId: 'starter', points: 5_000, expiresAt: null, createdAt: before });
      await store.createAccount({ id: 'acc_new', planId: 'professional', points: 7, expiresAt: null, createdAt: '2026-04-02T00:00:00.000Z' });
      const points = async () => Object.fromEntries((await store.listAccounts()).map((a) => [a.id, a.points]));
      assert.equal(await store.refill('2026-04', '2026-04-01T00:00:00.000Z'), 2);
      assert.deepEqual(await points(), { acc_low: 1_000, acc_high: 5_000, acc_new: 7 });
      await store.charge('acc_low', 100);
      // A crash and rerun (or a second instance) in the same period grants nothing.
      assert.equal(await store.refill('2026-04', '2026-04-01T00:00:00.000Z'), 0);
      assert.deepEqual(await store.refill('2026-03', '2026-03-01T00:00:00.000Z'), 0);
      assert.deepEqual(await points(), { acc_low: 900, acc_high: 5_000, acc_new: 7 });
      const [a, b] = await Promise.all([store.refill('2026-05', '2026-05-01T00:00:00.000Z'), store.refill('2026-05', '2026-05-01T00:00:00.000Z')]);
      assert.equal(a + b, 3);
      assert.deepEqual(await points(), { acc_low: 1_000, acc_high: 5_000, acc_new: 100_000 });
    }));

    // The points ledger, usage per key and retention (issue 17).
    test('ledger: every balance change is appended with its actor, and the sums reconcile', withStore(async (store) => {
      await store.createAccount({ id: 'acc_1', planId: 'starter', points: 100, expiresAt: null, createdAt: '2026-03-01T00:00:00.000Z' }, 'admin-api');
      await store.createKey({ id: 'key_1', accountId: 'acc_1', hash: 'c'.repeat(64), prefix: 'abcdefgh', createdAt: NOW, revokedAt: null }, 'admin-api');
      assert.equal(await store.topUp('acc_1', 50, 'cli'), 150);
      await store.chargeBatch([{ accountId: 'acc_1', cost: 3 }, { accountId: 'acc_1', cost: 2 }]);
      await store.chargeBatch([{ accountId: 'acc_1', cost: 5 }, { accountId: 'acc_1', cost: 500 }]);
      await store.charge('acc_1', 4);
      await store.updateAccount('acc_1', { planId: 'professional', expiresAt: '2027-01-01T00:00:00.000Z' }, 'cli');
      await store.updateAccount('acc_1', { planId: 'professional' }, 'cli');
      assert.equal(await store.setPoints('acc_1', 30, 'cli', 'goodwill'), 136);
      assert.equal(await store.setPoints('acc_none', 30, 'cli'), undefined);
      assert.equal(await store.revokeKey('key_1', 'admin-api'), true);
      assert.equal(await store.refill('2026-04', '2026-04-01T00:00:00.000Z'), 1);
      const entries = await store.ledger('acc_1');
      const charge = entries.find((e) => e.kind === 'charge')!;
      // Charges of one UTC day share one row: 3 granted requests of the batches and 1 direct charge.
      assert.deepEqual([charge.amount, charge.requests, charge.actor], [-14, 4, 'charge']);
      assert.deepEqual(
        entries.filter((e) => e.kind !== 'charge').map((e) => [e.kind, e.amount, e.balance, e.actor]),
        [
          ['open', 100, 100, 'admin-api'],
          ['key_create', 0, 100, 'admin-api'],
          ['topup', 50, 150, 'cli'],
          ['plan_change', 0, 136, 'cli'],
          ['expiry_change', 0, 136, 'cli'],
          ['admin_edit', -106, 30, 'cli'],
          ['key_revoke', 0, 30, 'admin-api'],
          ['refill', 99_970, 100_000, 'refill'],
        ],
      );
      assert.equal(entries.find((e) => e.kind === 'plan_change')!.detail, 'starter → professional');
      assert.deepEqual((await store.ledger('acc_1', 2)).map((e) => e.kind), ['key_revoke', 'refill']);
      assert.deepEqual(await store.ledgerSums(), [{ accountId: 'acc_1', opening: 100, credits: 100_020, debits: 120, balance: 100_000 }]);
    }));

    test('ledger: concurrent charges, top-ups and a refill still reconcile', withStore(async (store) => {
      for (const id of ['acc_a', 'acc_b']) await store.createAccount({ id, planId: 'starter', points: 200, expiresAt: null, createdAt: '2026-03-01T00:00:00.000Z' });
      await Promise.all([
        ...Array.from({ length: 6 }, (_, b) => store.chargeBatch(Array.from({ length: 30 }, (_, i) => ({ accountId: (b + i) % 2 ? 'acc_a' : 'acc_b', cost: 2 })))),
        ...Array.from({ length: 5 }, () => store.topUp('acc_a', 7)),
        store.refill('2026-04', '2026-04-01T00:00:00.000Z'),
        ...Array.from({ length: 5 }, () => store.charge('acc_b', 3)),
      ]);
      for (const s of await store.ledgerSums()) assert.equal(s.opening + s.credits - s.debits, s.balance, JSON.stringify(s));
    }));

    test('usage per key: counted apart, summed per day; pruning drops old days and stale windows only', withStore(async (store) => {
      await store.addUsage([
        { accountId: 'acc_1', day: '2025-01-01', keyId: 'key_a', requests: 1, points: 1 },
        { accountId: 'acc_1', day: '2026-04-14', keyId: 'key_a', requests: 3, points: 3 },
        { accountId: 'acc_1', day: '2026-04-14', keyId: 'key_b', requests: 2, points: 0 },
        { accountId: 'acc_1', day: '2026-04-14', requests: 1, points: 1 },
      ]);
      assert.deepEqual((await store.usageDays('acc_1', '2026-04-14', '2026-04-14')).map((u) => [u.requests, u.points]), [[6, 4]]);
      assert.deepEqual((await store.usageByKey('acc_1', '2026-04-14', '2026-04-14')).map((u) => [u.keyId, u.requests, u.points]), [['', 1, 1], ['key_a', 3, 3], ['key_b', 2, 0]]);
      const w = Date.parse('2026-04-14T12:00:00Z');
      await store.hitRequestWindow('acc_old', w - 600_000);
      await store.hitRequestWindow('acc_now', w);
      assert.deepEqual(await store.prune('2025-03-10', w - 60_000), { usage: 1, windows: 1 });
      assert.deepEqual((await store.usageByKey('acc_1', '2000-01-01', '2100-01-01')).length, 3);
      assert.equal(await store.hitRequestWindow('acc_now', w), 2);
      assert.deepEqual(await store.prune('2025-03-10', w - 60_000), { usage: 0, windows: 0 });
    }));

    test('exclusive: one holder at a time for a name', withStore(async (store) => {
      const order: string[] = [];
      const hold = (tag: string) => store.exclusive('contract-test', async () => {
        order.push(`${tag}+`);
        await new Promise((r) => setTimeout(r, 30));
        order.push(`${tag}-`);
        return tag;
      });
      assert.deepEqual(await Promise.all([hold('a'), hold('b')]), ['a', 'b']);
      assert.ok(order.join() === 'a+,a-,b+,b-' || order.join() === 'b+,b-,a+,a-', order.join());
    }));

    chargeContract(withStore);
    historyContract(withStore);
    periodContract(withStore);
  });
}
