import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Figure, SharedTexts } from './inputs.js';

const figure = (quote: string, date: string, rate: string): Figure => ({ source: 'ECBF', quote, date, rate, direction: 'indirect', unit: 1, table: '', storedAt: '2026-11-27T16:00:00.000Z' });

test('SharedTexts gives each figure back with the same values, as a new object, and leaves the input alone', () => {
  const texts = new SharedTexts();
  const given = [figure('USD', '2026-11-27', '1.0512'), figure('USD', '2026-11-26', '1.0498'), figure('JPY', '2026-11-27', '161.2')];
  const before = structuredClone(given);
  const shared = given.map((f) => texts.figure(f));
  assert.deepEqual(shared, before, 'every field as given, the rate and unit included');
  assert.deepEqual(given, before, 'the input is not changed');
  for (const [i, f] of shared.entries()) assert.notEqual(f, given[i], 'a copy, not the row itself');
});
