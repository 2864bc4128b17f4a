import assert from 'node:assert/strict';
import { test } from 'node:test';
import { utcDay } from './freshness.js';

test('utcDay follows the clock across midnights, backwards too, and refuses an invalid date', () => {
  const at = (iso: string) => utcDay(new Date(iso));
  assert.equal(at('2026-11-23T23:59:59.999Z'), '2026-11-23');
  assert.equal(at('2026-11-24T00:00:00.000Z'), '2026-11-24');
  assert.equal(at('2026-11-23T12:00:00.000Z'), '2026-11-23');
  assert.equal(at('1999-01-04T00:00:00.000Z'), '1999-01-04');
  assert.equal(at('2026-11-23T00:00:00.000Z'), '2026-11-23');
  // Every hour over two days against toISOString, the definition it replaces.
  for (let h = 0; h < 48; h++) {
    const d = new Date(Date.UTC(2026, 2, 28, h, 30));
    assert.equal(utcDay(d), d.toISOString().slice(0, 10));
  }
  assert.throws(() => utcDay(new Date(Number.NaN)), RangeError);
});
