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

test('a period source\'s figures carry their last day, start up to 45 days ahead, and a fixing carries none (D21)', () => {
  const period = (o: Partial<Observation> = {}) => obs({ quote: 'USD', rate: '1.3554', unit: 1, direction: 'indirect', date: '2026-05-01', validTo: '2026-05-31', ...o });
  assert.deepEqual(normalize([period()], TODAY, true).rows, [{ quote: 'USD', date: '2026-05-01', rate: '1.3554', direction: 'indirect', unit: 1, table: '', validTo: '2026-05-31' }]);
  assert.doesNotThrow(() => normalize([period({ date: '2026-05-29', validTo: '2026-06-30' })], TODAY, true));
  assert.throws(() => normalize([period({ date: '2026-05-30', validTo: '2026-06-30' })], TODAY, true), /more than 45 days ahead/);
  assert.throws(() => normalize([period({ validTo: undefined })], TODAY, true), /without its last day/);
  assert.throws(() => normalize([period({ date: '2026-04-13' })], TODAY), /a fixing with a period/);
  assert.throws(() => normalize([period({ validTo: '2026-04-30' })], TODAY, true), /bad end of period "2026-04-30"/);
  assert.throws(() => normalize([period({ validTo: '2026-05-32' })], TODAY, true), /bad end of period/);
  // The same currency and first day twice (XOF for eight countries in one HMRC file): one row when
  // both agree, a rejection when their rate or period differs.
  assert.equal(normalize([period(), period()], TODAY, true).rows.length, 1);
  assert.throws(() => normalize([period(), period({ validTo: '2026-05-15' })], TODAY, true), /two different rates/);
});
