// The history section of the store contract (issue 14), run by store.contract.ts on every engine.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Store } from './store.js';

const AT = '2026-04-14T12:00:00.000Z';

export function historyContract(withStore: (fn: (store: Store) => Promise<void>) => () => Promise<void>): void {
  test('history: days are written, replaced and read by range; the mark starts empty', withStore(async (store) => {
    assert.deepEqual(await store.historyMark(), { snapshotId: 0, firstDay: null, lastDay: null });
    await store.saveHistoryDays([{ day: '2020-01-02', rates: '{"EUR":["0.9","2020-01-02 15:00:00"]}' }, { day: '2020-01-03', rates: '{}' }]);
    await store.saveHistoryDays([{ day: '2020-01-03', rates: '{"EUR":["0.91","2020-01-03 15:00:00"]}' }], { snapshotId: 7, firstDay: '2020-01-02', lastDay: '2020-01-03' });
    assert.deepEqual(await store.historyDays('2020-01-01', '2020-01-03'), [
      { day: '2020-01-02', rates: '{"EUR":["0.9","2020-01-02 15:00:00"]}' },
      { day: '2020-01-03', rates: '{"EUR":["0.91","2020-01-03 15:00:00"]}' },
    ]);
    assert.deepEqual(await store.historyDays('2020-01-03', '2020-01-03'), [{ day: '2020-01-03', rates: '{"EUR":["0.91","2020-01-03 15:00:00"]}' }]);
    assert.deepEqual(await store.historyMark(), { snapshotId: 7, firstDay: '2020-01-02', lastDay: '2020-01-03' });
  }));

  test('history: snapshots after a mark give their dates; observations are read by date', withStore(async (store) => {
    assert.equal(await store.snapshotsAfter(0), undefined);
    assert.equal(await store.observationSpan(), undefined);
    const row = (date: string, rate: string) => ({ quote: 'USD', date, rate, direction: 'direct' as const, unit: 1, table: '' });
    await store.storeSnapshot({ source: 'ECBF', name: 'a', sha256: 'a'.repeat(64), rows: [row('2001-03-01', '1.1'), row('2001-03-05', '1.2')], at: AT });
    const first = await store.snapshotsAfter(0);
    assert.deepEqual(first && { firstDate: first.firstDate, lastDate: first.lastDate }, { firstDate: '2001-03-01', lastDate: '2001-03-05' });
    await store.storeSnapshot({ source: 'ECBF', name: 'b', sha256: 'b'.repeat(64), rows: [row('1999-01-04', '1.17')], at: AT });
    const later = await store.snapshotsAfter(first!.lastId);
    assert.deepEqual(later && { firstDate: later.firstDate, lastDate: later.lastDate }, { firstDate: '1999-01-04', lastDate: '1999-01-04' });
    assert.equal(await store.snapshotsAfter(later!.lastId), undefined);
    assert.deepEqual(await store.observationSpan(), { first: '1999-01-04', last: '2001-03-05' });
    assert.deepEqual((await store.observationsBetween('2001-01-01', '2001-03-04')).map((r) => [r.date, r.rate]), [['2001-03-01', '1.1']]);
    assert.deepEqual((await store.sourceObservationsBetween('ECBF', '1999-01-01', '2001-03-01')).map((r) => r.date), ['1999-01-04', '2001-03-01']);
    assert.deepEqual(await store.sourceObservationsBetween('BCAN', '1999-01-01', '2001-03-01'), []);
  }));
}
