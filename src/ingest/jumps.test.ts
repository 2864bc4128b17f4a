import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findJump } from './jumps.js';

const row = (date: string, rate: string, direction: 'direct' | 'indirect' = 'direct', quote = 'ARS') => ({ quote, date, rate, direction });

test('a move within 50% either way passes', () => {
  assert.equal(findJump([row('2026-03-02', '100')], [row('2026-03-03', '149'), row('2026-03-04', '100')]), undefined);
});

test('a rise of more than 50% from the stored figure is held back with a reason', () => {
  const reason = findJump([row('2023-12-12', '0.0027')], [row('2023-12-13', '0.00124')]);
  assert.match(reason!, /^ARS moved .*2023-12-12.*2023-12-13/);
});

test('the payload\'s earliest figure is compared, whichever way it is quoted', () => {
  assert.ok(findJump([row('2026-03-02', '5', 'indirect', 'XYZ')], [row('2026-03-04', '5', 'indirect', 'XYZ'), row('2026-03-03', '10', 'indirect', 'XYZ')]));
  assert.equal(findJump([row('2026-03-02', '5', 'indirect', 'USD')], [row('2026-03-03', '0.2', 'direct', 'USD')]), undefined);
});

test('moves inside one payload are the bank\'s own history and pass (TRL, 2001-02-22)', () => {
  assert.equal(findJump([], [row('2001-02-21', '0.000001', 'direct', 'TRL'), row('2001-02-22', '0.0000007', 'direct', 'TRL')]), undefined);
});

test('figures more than 14 days apart are not compared (a feed gap of years proves nothing)', () => {
  assert.equal(findJump([row('2008-12-09', '290')], [row('2018-02-01', '124')]), undefined);
});
