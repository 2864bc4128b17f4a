import assert from 'node:assert/strict';
import { test } from 'node:test';
import { monthPeriod, windowMonths } from './periods.js';

test('a month as a period: its first and last day, leap years counted', () => {
  assert.deepEqual(monthPeriod(2026, 9), { from: '2026-09-01', to: '2026-09-30' });
  assert.deepEqual(monthPeriod(2024, 2), { from: '2024-02-01', to: '2024-02-29' });
  assert.deepEqual(monthPeriod(1900, 2), { from: '1900-02-01', to: '1900-02-28' });
  assert.deepEqual(monthPeriod(2025, 12), { from: '2025-12-01', to: '2025-12-31' });
});

test('the months of a window, the coming ones added; a window that starts after it ends counts from its end', () => {
  assert.deepEqual(windowMonths({ from: '2026-08-28', to: '2026-09-20' }), [[2026, 8], [2026, 9]]);
  assert.deepEqual(windowMonths({ from: '2026-11-28', to: '2026-12-20' }, 1), [[2026, 11], [2026, 12], [2027, 1]]);
  assert.deepEqual(windowMonths({ from: '2026-09-28', to: '2026-09-20' }, 1), [[2026, 9], [2026, 10]]);
  assert.equal(windowMonths({ from: '2021-01-01', to: '2026-09-30' }).length, 69);
});
