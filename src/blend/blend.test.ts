import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ObservationRow } from '../store/store.js';
import { blend } from './blend.js';
import { freshUntil } from './freshness.js';
import { rebaseToUsd, type SourceInfo } from './rebase.js';

const source = (code: string, currency: string, cadence: SourceInfo['cadence'] = 'daily'): SourceInfo => ({ code, currency, cadence, publishedAtUtc: '15:00:00' });
const row = (src: string, quote: string, date: string, rate: string, direction: 'direct' | 'indirect', table = ''): ObservationRow =>
  ({ source: src, quote, date, rate, direction, unit: 1, table, storedAt: '2026-04-14T00:00:00.000Z' });

test('rebase: an indirect EUR source gives units per USD through its own USD figure', () => {
  const out = rebaseToUsd(source('ECBF', 'EUR'), [row('ECBF', 'USD', '2026-04-13', '1.25', 'indirect'), row('ECBF', 'JPY', '2026-04-13', '150', 'indirect')]);
  const by = new Map(out.map((c) => [c.currency, c]));
  assert.equal(by.get('JPY')!.perUsd.toString(), '120');
  assert.equal(by.get('EUR')!.perUsd.toString(), '0.8');
  assert.equal(by.get('JPY')!.bankUpdate, '2026-04-13 15:00:00');
});

test('rebase: a direct source (base per unit) is inverted before pivoting', () => {
  // PLN per 1 USD = 4, PLN per 1 EUR = 5 → EUR per USD = 0.8
  const out = rebaseToUsd(source('NBPL', 'PLN'), [row('NBPL', 'USD', '2026-03-05', '4', 'direct'), row('NBPL', 'EUR', '2026-03-05', '5', 'direct')]);
  const by = new Map(out.map((c) => [c.currency, c.perUsd.toString()]));
  assert.equal(by.get('EUR'), '0.8');
  assert.equal(by.get('PLN'), '4');
});

test('rebase: a weekly table is paired with the USD figure of its own day, not the newest', () => {
  const rows = [
    row('NBPL', 'USD', '2026-03-04', '4', 'direct', 'A'),
    row('NBPL', 'USD', '2026-03-05', '5', 'direct', 'A'),
    row('NBPL', 'AFN', '2026-03-04', '0.05', 'direct', 'B'),
  ];
  const afn = rebaseToUsd({ ...source('NBPL', 'PLN'), tableCadence: { A: 'daily', B: 'weekly' } }, rows).find((c) => c.currency === 'AFN')!;
  assert.equal(afn.perUsd.toString(), '80');
  assert.equal(afn.cadence, 'weekly');
});

test('rebase: a source without any USD figure contributes nothing yet', () => {
  assert.deepEqual(rebaseToUsd(source('XXXX', 'CZK'), [row('XXXX', 'EUR', '2026-04-13', '25', 'direct')]), []);
});

test('blend: the median of current contributions; a stale source does not pull the rate back', () => {
  const sources = [source('AAAA', 'USD'), source('BBBB', 'USD'), source('CCCC', 'USD'), source('DDDD', 'USD')];
  const rows = [
    row('AAAA', 'JPY', '2026-04-13', '150', 'indirect'),
    row('BBBB', 'JPY', '2026-04-13', '152', 'indirect'),
    row('CCCC', 'JPY', '2026-04-12', '151', 'indirect'),
    row('DDDD', 'JPY', '2026-03-01', '100', 'indirect'),
  ];
  const jpy = blend(sources, rows, 0).get('JPY')!;
  assert.equal(jpy.perUsd.toString(), '151');
  assert.deepEqual(jpy.contributions.map((c) => c.source).sort(), ['AAAA', 'BBBB', 'CCCC']);
  assert.equal(jpy.bankUpdate, '2026-04-13 15:00:00');
  assert.equal(jpy.freshUntil, '2026-04-17');
});

test('blend: defunct currencies stay out of blended rates (D4); USD is the pivot at 1', () => {
  const out = blend([source('ECBF', 'EUR')], [row('ECBF', 'USD', '2026-04-13', '1.25', 'indirect'), row('ECBF', 'HRK', '2026-04-13', '7.5', 'indirect')], 0);
  assert.deepEqual([...out.keys()].sort(), ['EUR', 'USD']);
  assert.equal(out.get('USD')!.perUsd.toString(), '1');
});

test('freshness windows follow the cadence and the grace days (D10)', () => {
  assert.equal(freshUntil('2026-04-13', 'daily', 0), '2026-04-17');
  assert.equal(freshUntil('2026-04-13', 'weekly', 0), '2026-04-23');
  assert.equal(freshUntil('2026-04-13', 'monthly', 0), '2026-05-23');
  assert.equal(freshUntil('2026-04-13', 'daily', 30), '2026-05-17');
});
