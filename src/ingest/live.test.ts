import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FIRST_FETCH_DAYS, MAX_WINDOW_DAYS, REFETCH_DAYS, fetchWindow } from './live.js';

test('a source with data asks from a few days before its newest figure (revisions) to today', () => {
  assert.equal(REFETCH_DAYS, 3);
  assert.deepEqual(fetchWindow('2026-04-15', '2026-04-16'), { from: '2026-04-12', to: '2026-04-16' });
});

test('after downtime the window reaches back over the whole gap, so it is backfilled in one run', () => {
  assert.deepEqual(fetchWindow('2026-01-30', '2026-04-16'), { from: '2026-01-27', to: '2026-04-16' });
});

test('a source with no data starts 30 days back; a gap over a year is closed over several runs', () => {
  assert.equal(FIRST_FETCH_DAYS, 30);
  assert.deepEqual(fetchWindow(null, '2026-04-16'), { from: '2026-03-17', to: '2026-04-16' });
  assert.equal(MAX_WINDOW_DAYS, 366);
  assert.deepEqual(fetchWindow('2024-01-10', '2026-04-16'), { from: '2025-04-15', to: '2026-04-16' });
});
