// The period-rate section of the store contract (D21), run by store.contract.ts on every engine.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PeriodRow, SnapshotInput, Store } from './store.js';

const AT = '2026-09-11T08:01:24.000Z';
const LATER = '2026-10-01T14:06:10.000Z';

const month = (quote: string, first: string, last: string, rate: string): SnapshotInput['rows'][number] => ({ quote, date: first, validTo: last, rate, direction: 'indirect', unit: 1, table: '' });
const seen = (rows: PeriodRow[]) => rows.map((r) => `${r.quote} ${r.validFrom}..${r.validTo} ${r.rate}`);

export function periodContract(withStore: (fn: (store: Store) => Promise<void>) => () => Promise<void>): void {
  test('periods: stored apart from fixings, read by the days they cover, never among observations', withStore(async (store) => {
    // HMRC's August and September 2026 customs rates (units per £1).
    const august = [month('USD', '2026-08-01', '2026-08-31', '1.3367'), month('EUR', '2026-08-01', '2026-08-31', '1.1719')];
    const september = [month('USD', '2026-09-01', '2026-09-30', '1.3554'), month('EUR', '2026-09-01', '2026-09-30', '1.1681')];
    assert.deepEqual(await store.storeSnapshot({ source: 'HMRC', name: 'monthly_csv_2026-8.csv', sha256: 'a'.repeat(64), rows: august, at: AT }), { status: 'stored', inserted: 2, revised: 0, unchanged: 0 });
    await store.storeSnapshot({ source: 'HMRC', name: 'monthly_csv_2026-9.csv', sha256: 'b'.repeat(64), rows: september, at: AT });
    assert.deepEqual(await store.storeSnapshot({ source: 'HMRC', name: 'again', sha256: 'b'.repeat(64), rows: september, at: AT }), { status: 'duplicate' });
    assert.deepEqual(seen(await store.sourcePeriods('HMRC', '2026-08-15', '2026-08-15')), ['EUR 2026-08-01..2026-08-31 1.1719', 'USD 2026-08-01..2026-08-31 1.3367']);
    assert.deepEqual(seen(await store.sourcePeriods('HMRC', '2026-08-31', '2026-09-01')), [
      'EUR 2026-08-01..2026-08-31 1.1719', 'USD 2026-08-01..2026-08-31 1.3367', 'EUR 2026-09-01..2026-09-30 1.1681', 'USD 2026-09-01..2026-09-30 1.3554',
    ]);
    assert.deepEqual(await store.sourcePeriods('HMRC', '2026-10-01', '2026-10-31'), []);
    assert.deepEqual(await store.sourcePeriods('EUIE', '2026-08-01', '2026-08-31'), []);
    const [usd] = await store.sourcePeriods('HMRC', '2026-08-01', '2026-08-01');
    assert.deepEqual(usd, { source: 'HMRC', quote: 'EUR', validFrom: '2026-08-01', validTo: '2026-08-31', rate: '1.1719', direction: 'indirect', unit: 1, table: '', storedAt: AT });
    // No blend, history day or bank table of fixings can meet them.
    assert.deepEqual(await store.recentObservations(400), []);
    assert.deepEqual(await store.observationsBetween('2026-01-01', '2026-12-31'), []);
    assert.deepEqual(await store.sourceObservationsBetween('HMRC', '2026-01-01', '2026-12-31'), []);
    assert.equal(await store.observationSpan(), undefined);
    assert.deepEqual(await store.previousRates('HMRC', '2026-09-01'), []);
    // A snapshot of fixings may not carry periods too.
    await assert.rejects(store.storeSnapshot({ source: 'HMRC', name: 'mixed', sha256: 'c'.repeat(64), rows: [august[0]!, { quote: 'JPY', date: '2026-08-03', rate: '197', direction: 'indirect', unit: 1, table: '' }], at: AT }), /period rates or fixings, not both/);
  }));

  test('periods: a restatement of the same period replaces it; an amendment is a period of its own', withStore(async (store) => {
    await store.storeSnapshot({ source: 'BISB', name: 'first', sha256: 'd'.repeat(64), rows: [month('ZAR', '2025-01-01', '2025-01-31', '18.66'), month('EUR', '2025-01-01', '2025-01-31', '0.962')], at: AT });
    // The BIS revises January: ZAR changes, EUR stays.
    assert.deepEqual(await store.storeSnapshot({ source: 'BISB', name: 'revised', sha256: 'e'.repeat(64), rows: [month('ZAR', '2025-01-01', '2025-01-31', '18.6605'), month('EUR', '2025-01-01', '2025-01-31', '0.962')], at: LATER }), { status: 'stored', inserted: 0, revised: 1, unchanged: 1 });
    const jan = await store.sourcePeriods('BISB', '2025-01-15', '2025-01-15');
    assert.deepEqual(seen(jan), ['EUR 2025-01-01..2025-01-31 0.962', 'ZAR 2025-01-01..2025-01-31 18.6605']);
    assert.deepEqual(jan.map((r) => r.storedAt), [AT, LATER]);
    // The US Treasury amends ILS from 2026-05-29, within the quarter of record date 2026-03-31.
    await store.storeSnapshot({ source: 'USTR', name: 'q1', sha256: 'f'.repeat(64), rows: [month('ILS', '2026-03-31', '2026-06-29', '3.132')], at: AT });
    await store.storeSnapshot({ source: 'USTR', name: 'amended', sha256: '0'.repeat(64), rows: [month('ILS', '2026-03-31', '2026-06-29', '3.132'), month('ILS', '2026-05-29', '2026-06-29', '2.854')], at: LATER });
    assert.deepEqual(seen(await store.sourcePeriods('USTR', '2026-06-01', '2026-06-01')), ['ILS 2026-03-31..2026-06-29 3.132', 'ILS 2026-05-29..2026-06-29 2.854']);
  }));

  test('periods: health holds their first and newest periods; their snapshots touch no history day', withStore(async (store) => {
    await store.storeSnapshot({ source: 'ECBF', name: 'fix', sha256: '1'.repeat(64), rows: [{ quote: 'USD', date: '2026-04-13', rate: '1.1684', direction: 'indirect', unit: 1, table: '' }], at: AT });
    const fixings = await store.snapshotsAfter(0);
    // The BIS's one series reaching back to 1900: history must not rebuild from 1900 for it.
    await store.storeSnapshot({ source: 'BISB', name: 'zar', sha256: '2'.repeat(64), rows: [month('ZAR', '1900-01-01', '1900-01-31', '0.4107')], at: AT });
    await store.storeSnapshot({ source: 'BISB', name: 'feb', sha256: '3'.repeat(64), rows: [month('ZAR', '2025-02-01', '2025-02-28', '18.45')], at: AT });
    assert.deepEqual(await store.snapshotsAfter(0), fixings);
    assert.equal(await store.snapshotsAfter(fixings!.lastId), undefined);
    assert.ok((await store.dataVersion()) > fixings!.lastId, 'a period snapshot is new data all the same');
    const health = new Map((await store.sourceHealth()).map((h) => [h.source, h]));
    assert.deepEqual([health.get('BISB')!.firstDate, health.get('BISB')!.newestDate, health.get('BISB')!.newestValidTo], ['1900-01-01', '2025-02-01', '2025-02-28']);
    assert.deepEqual([health.get('ECBF')!.firstDate, health.get('ECBF')!.newestDate, health.get('ECBF')!.newestValidTo], ['2026-04-13', '2026-04-13', null]);
  }));
}
