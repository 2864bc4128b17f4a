// The columns hold each currency from its own first day: what goes in comes out exactly (floats and
// the longer texts), days before a currency's first and after its last read as absent, a replaced
// day drops what it no longer has, and growing either way keeps what was there.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addDays } from '../time/days.js';
import { dayNumber, HistoryColumns, valueAt } from './columns.js';
import type { DayRates } from './day.js';

const day = (rates: Record<string, string>, stamp = '2020-01-01 16:00:00'): DayRates =>
  new Map(Object.entries(rates).map(([code, perUsd]) => [code, { perUsd, bankUpdate: stamp }]));
// A peg applied to a blend: more digits than a float keeps.
const XOF = '569.4813853457340218';

test('a currency that joins later gets a column from its first day, and reads back exactly', () => {
  const cols = new HistoryColumns();
  cols.reserve('2000-01-01', '2020-12-31');
  cols.set('2000-01-01', day({ EUR: '0.99' }, '2000-01-01 13:15:00'));
  cols.set('2020-06-15', day({ EUR: '0.889', XOF, KYD: '0.833333333333333333333333333333333333' }, '2020-06-15 13:15:00'));
  cols.set('2020-06-16', day({ EUR: '0.888', XOF: '569.4813853457340219', KYD: '0.833333333333333333333333333333333333' }));

  const eur = cols.series('EUR')!;
  const xof = cols.series('XOF')!;
  assert.equal(eur.first, dayNumber('2000-01-01'));
  assert.equal(xof.first, dayNumber('2020-06-15'), 'XOF starts on its own first day, not the span’s');
  assert.ok(xof.perUsd.length < eur.perUsd.length / 10, `XOF holds ${xof.perUsd.length} slots, EUR ${eur.perUsd.length}`);
  assert.ok(Number.isNaN(valueAt(xof, dayNumber('2019-01-01'))), 'a day before XOF’s first reads as absent');
  assert.ok(Number.isNaN(valueAt(eur, dayNumber('2010-01-01'))), 'a day not set reads as absent');

  const june15 = cols.get('2020-06-15')!;
  assert.equal(june15.get('XOF')!.perUsd.toString(), XOF);
  assert.equal(june15.get('EUR')!.perUsd.toString(), '0.889');
  assert.equal(june15.get('EUR')!.bankUpdate, '2020-06-15 13:15:00');
  assert.equal(cols.text(dayNumber('2020-06-16'), 'XOF'), '569.4813853457340219');
  assert.equal(cols.text(dayNumber('2020-06-16'), 'EUR'), '0.888000000000000');
  // The same peg text on consecutive days is kept once.
  assert.equal(cols.series('KYD')!.exact.get(dayNumber('2020-06-16')), cols.series('KYD')!.exact.get(dayNumber('2020-06-15')));
  assert.equal(cols.get('2000-01-01')!.has('XOF'), false);
  assert.equal(cols.get('2010-01-01'), undefined, 'a day never set is not materialised');
});

test('replacing a day drops the currencies it no longer has, texts included', () => {
  const cols = new HistoryColumns();
  cols.set('2020-06-15', day({ EUR: '0.889', XOF }));
  cols.set('2020-06-15', day({ EUR: '0.9' }));
  const again = cols.get('2020-06-15')!;
  assert.deepEqual([...again.keys()], ['EUR']);
  assert.equal(cols.series('XOF')!.exact.size, 0);
});

test('columns grow forward day by day and backward, keeping every value', () => {
  const cols = new HistoryColumns();
  const first = '2020-01-01';
  const days = Array.from({ length: 900 }, (_, i) => addDays(first, i));
  for (const [i, d] of days.entries()) cols.set(d, day({ USD: '1', EUR: `0.8${String(i).padStart(3, '0')}` }));
  cols.set('2015-03-02', day({ EUR: '0.75' }));
  for (const [i, d] of days.entries()) assert.equal(cols.get(d)!.get('EUR')!.perUsd.toString(), `0.8${String(i).padStart(3, '0')}`.replace(/0+$/, ''), d);
  assert.equal(cols.get('2015-03-02')!.get('EUR')!.perUsd.toString(), '0.75');
  assert.ok(cols.allPresent(first, days.at(-1)!));
  assert.equal(cols.allPresent('2015-03-02', first), false);
  assert.ok(Number.isNaN(valueAt(cols.series('USD')!, dayNumber('2015-03-02'))), 'USD was not on 2015-03-02');
});
