import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Observation } from '../sources/types.js';
import { IngestRejected, normalize } from './validate.js';

const obs = (o: Partial<Observation> = {}): Observation => ({ date: '2026-04-13', quote: 'JPY', rate: '15.123', unit: 100, direction: 'direct', ...o });
const TODAY = '2026-04-14';

test('divides unit multipliers out in decimal and keeps the direction', () => {
  const { rows } = normalize([obs(), obs({ quote: 'USD', rate: '21.5', unit: 1 })], TODAY);
  assert.deepEqual(rows[0], { quote: 'JPY', date: '2026-04-13', rate: '0.15123', direction: 'direct', unit: 100, table: '' });
  assert.equal(rows[1]!.rate, '21.5');
});

test('rejects a payload with a zero, negative or non-numeric rate', () => {
  for (const rate of ['0', '-1.5', 'abc', 'Infinity']) {
    assert.throws(() => normalize([obs({ quote: 'USD', unit: 1 }), obs({ rate })], TODAY), IngestRejected, rate);
  }
});

test('rejects dates more than two days ahead and impossible dates', () => {
  assert.doesNotThrow(() => normalize([obs({ date: '2026-04-16' })], TODAY));
  assert.throws(() => normalize([obs({ date: '2026-04-17' })], TODAY), /ahead/);
  assert.throws(() => normalize([obs({ date: '2026-02-30' })], TODAY), /not a date/);
});

test('rejects an empty payload and one whose rows contradict each other', () => {
  assert.throws(() => normalize([], TODAY), /no rates/);
  assert.throws(() => normalize([obs(), obs({ rate: '15.2' })], TODAY), /two different rates/);
  assert.equal(normalize([obs(), obs()], TODAY).rows.length, 1);
});

test('drops codes that are not currencies, reports them, and keeps the rest', () => {
  const { rows, skipped } = normalize([obs(), obs({ quote: 'CLF' }), obs({ quote: 'XAU', unit: 1 })], TODAY);
  assert.deepEqual(rows.map((r) => r.quote), ['JPY', 'XAU']);
  assert.deepEqual(skipped, ['CLF']);
  assert.throws(() => normalize([obs({ quote: 'CLF' })], TODAY), /no rates of known currencies/);
});
