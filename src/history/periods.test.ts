import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PeriodRow } from '../store/store.js';
import { inForce } from '../rates/bank-table.js';
import { PeriodWalk } from './periods.js';

const row = (quote: string, validFrom: string, validTo: string, rate: string): PeriodRow => ({ source: 'USTR', quote, validFrom, validTo, rate, direction: 'indirect', unit: 1, table: '', storedAt: '2026-09-10T11:47:53.000Z' });
// US Treasury figures for the quarter of record date 2026-03-31 (in force to the day before the next
// record date), an ILS amendment from 2026-05-29 within it, and the next quarter's figures.
const ROWS = [
  row('ILS', '2026-03-31', '2026-06-29', '3.132'),
  row('EUR', '2026-03-31', '2026-06-29', '0.87'),
  row('ILS', '2026-05-29', '2026-06-29', '2.854'),
  row('EUR', '2026-06-30', '2026-09-29', '0.851'),
  row('ILS', '2026-06-30', '2026-09-29', '2.913'),
];
const rates = (rows: PeriodRow[]) => rows.map((r) => `${r.quote} ${r.rate}`);

test('the figure in force is the latest that starts on or before the day and covers it', () => {
  assert.deepEqual(rates(inForce(ROWS, '2026-05-28')), ['EUR 0.87', 'ILS 3.132']);
  // The amendment replaces the quarter's figure from its own first day on.
  assert.deepEqual(rates(inForce(ROWS, '2026-05-29')), ['EUR 0.87', 'ILS 2.854']);
  assert.deepEqual(rates(inForce(ROWS, '2026-06-29')), ['EUR 0.87', 'ILS 2.854']);
  assert.deepEqual(rates(inForce(ROWS, '2026-06-30')), ['EUR 0.851', 'ILS 2.913']);
  // A day outside every period has none.
  assert.deepEqual(inForce(ROWS, '2026-03-30'), []);
  assert.deepEqual(inForce(ROWS, '2026-09-30'), []);
});

test('an amendment shorter than the figure it falls within hands back to it when it ends', () => {
  const rows = [row('USD', '2026-08-01', '2026-08-31', '1.3367'), row('USD', '2026-08-10', '2026-08-20', '1.40')];
  assert.deepEqual(rates(inForce(rows, '2026-08-15')), ['USD 1.40']);
  assert.deepEqual(rates(inForce(rows, '2026-08-21')), ['USD 1.3367']);
  assert.deepEqual(new PeriodWalk().changes(rows, '2026-08-01', '2026-08-31').map(([day, f]) => [day, rates(f)]), [
    ['2026-08-01', ['USD 1.3367']],
    ['2026-08-10', ['USD 1.40']],
    ['2026-08-21', ['USD 1.3367']],
  ]);
});

test('a range has one row per period: the figures in force on its first day, then each new period', () => {
  const walk = new PeriodWalk();
  assert.deepEqual(walk.changes(ROWS, '2026-04-15', '2026-09-29').map(([day, f]) => [day, rates(f)]), [
    ['2026-04-15', ['EUR 0.87', 'ILS 3.132']],
    ['2026-05-29', ['ILS 2.854']],
    ['2026-06-30', ['EUR 0.851', 'ILS 2.913']],
  ]);
  // Walked in consecutive ranges (the route reads a year at a time), nothing already in force repeats.
  const split = new PeriodWalk();
  const parts = [...split.changes(ROWS, '2026-04-15', '2026-06-01'), ...split.changes(ROWS, '2026-06-02', '2026-09-29')];
  assert.deepEqual(parts.map(([day]) => day), ['2026-04-15', '2026-05-29', '2026-06-30']);
});
