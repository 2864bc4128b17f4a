import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Decimal } from '../money/decimal.js';
import type { ObservationRow } from '../store/store.js';
import { blend } from './blend.js';
import { outliers } from './consensus.js';
import { freshUntil } from './freshness.js';
import { bankUpdate, rebase, type SourceInfo } from './rebase.js';
import { businessDaysBehind, hoursBehind, recencyWeight } from './weights.js';

const source = (code: string, currency: string, extra: Partial<SourceInfo> = {}): SourceInfo => ({ code, currency, cadence: 'daily', publishedAtUtc: '15:00:00', ...extra });
const row = (src: string, quote: string, date: string, rate: string, direction: 'direct' | 'indirect', table = ''): ObservationRow =>
  ({ source: src, quote, date, rate, direction, unit: 1, table, storedAt: '2026-04-14T00:00:00.000Z' });
const opts = { referenceDay: '2026-04-14', graceDays: 0 };
const d = (v: string) => new Decimal(v);

test('rebase: an indirect EUR source gives units per USD through its own USD figure', () => {
  const out = rebase(source('ECBF', 'EUR'), [row('ECBF', 'USD', '2026-04-13', '1.25', 'indirect'), row('ECBF', 'JPY', '2026-04-13', '150', 'indirect')]);
  const by = new Map(out.map((c) => [c.currency, c]));
  assert.equal(by.get('JPY')!.perUsd.toString(), '120');
  assert.equal(by.get('EUR')!.perUsd.toString(), '0.8');
  assert.equal(by.get('JPY')!.bankUpdate, '2026-04-13 15:00:00');
  assert.equal(by.get('JPY')!.published, '150');
});

test('bank_update: a rate dated by the day it takes effect was published the day before (D7)', () => {
  assert.equal(bankUpdate({ publishedAtUtc: '12:30:00', publishedDayOffset: -1 }, '2026-03-18'), '2026-03-17 12:30:00');
  assert.equal(bankUpdate({ publishedAtUtc: '15:00:00' }, '2026-03-18'), '2026-03-18 15:00:00');
});

test('rebase: a direct source (base per unit) is inverted before pivoting', () => {
  const out = rebase(source('NBPL', 'PLN'), [row('NBPL', 'USD', '2026-03-05', '4', 'direct'), row('NBPL', 'EUR', '2026-03-05', '5', 'direct')]);
  const by = new Map(out.map((c) => [c.currency, c.perUsd.toString()]));
  assert.equal(by.get('EUR'), '0.8');
  assert.equal(by.get('PLN'), '4');
});

test('rebase: a weekly table is paired with the USD figure of its own day, not the newest', () => {
  const rows = [row('NBPL', 'USD', '2026-03-04', '4', 'direct', 'A'), row('NBPL', 'USD', '2026-03-05', '5', 'direct', 'A'), row('NBPL', 'AFN', '2026-03-04', '0.05', 'direct', 'B')];
  const afn = rebase(source('NBPL', 'PLN', { tableCadence: { A: 'daily', B: 'weekly' } }), rows).find((c) => c.currency === 'AFN')!;
  assert.equal(afn.perUsd.toString(), '80');
  assert.equal(afn.cadence, 'weekly');
});

test('rebase: a source without USD is bridged through a currency the others price', () => {
  // BEAC-like: XAF per EUR 655.957 and per GBP 760; the other sources put EUR at 0.8 per USD.
  const rows = [row('ECBF', 'USD', '2026-04-13', '1.25', 'indirect'), row('ECBF', 'GBP', '2026-04-13', '0.875', 'indirect'), row('XXXX', 'EUR', '2026-04-13', '650', 'direct'), row('XXXX', 'CHF', '2026-04-13', '700', 'direct')];
  assert.deepEqual(rebase(source('XXXX', 'XAF'), rows.filter((r) => r.source === 'XXXX')), []);
  const out = blend([source('ECBF', 'EUR'), source('XXXX', 'XAF')], rows, opts);
  // CHF per USD = (CHF per XAF) / (EUR per XAF) × (EUR per USD) = (1/700)/(1/650) × 0.8
  assert.equal(out.get('CHF')!.perUsd.toSignificantDigits(30).toString(), d(650).div(700).times('0.8').toSignificantDigits(30).toString());
  assert.equal(out.get('CHF')!.contributions[0]!.bridge, 'EUR');
});

test('consensus: an outlier is dropped only when enough sources agree', () => {
  assert.deepEqual(outliers([d('150'), d('151'), d('152'), d('1.5')]), [false, false, false, true]);
  assert.deepEqual(outliers([d('150'), d('151'), d('300')]), [false, false, true]);
  assert.deepEqual(outliers([d('150'), d('300')]), [false, false], 'two sources cannot outvote each other');
  assert.deepEqual(outliers([d('150'), d('151'), d('156')]), [false, false, false], 'within 5% of the median is agreement');
});

test('weights: halve every four business hours behind the newest figure', () => {
  assert.equal(recencyWeight(0).toString(), '1');
  assert.equal(recencyWeight(4).toString(), '0.5');
  assert.equal(recencyWeight(8).toString(), '0.25');
  assert.equal(hoursBehind('2026-04-10 15:00:00', '2026-04-13 04:00:00'), 13, 'Friday 15:00 to Monday 04:00 skips the weekend');
  assert.equal(hoursBehind('2026-04-13 13:30:00', '2026-04-13 15:00:00'), 1.5);
  assert.equal(businessDaysBehind('2026-04-10', '2026-04-13'), 1, 'Friday to Monday is one business day');
  assert.equal(businessDaysBehind('2026-04-13', '2026-04-13'), 0);
  assert.equal(businessDaysBehind('2026-04-06', '2026-04-13'), 5);
});

test('blend: a stale source is down-weighted, a dissenting one excluded, an old one dropped', () => {
  const sources = ['AAAA', 'BBBB', 'CCCC', 'DDDD', 'EEEE'].map((c) => source(c, 'USD'));
  const rows = [
    row('AAAA', 'JPY', '2026-04-13', '150', 'indirect'),
    row('BBBB', 'JPY', '2026-04-13', '152', 'indirect'),
    row('CCCC', 'JPY', '2026-04-09', '140', 'indirect'),
    row('DDDD', 'JPY', '2026-04-13', '15.1', 'indirect'),
    row('EEEE', 'JPY', '2026-03-01', '100', 'indirect'),
  ];
  const jpy = blend(sources, rows, opts).get('JPY')!;
  const by = new Map(jpy.contributions.map((c) => [c.source, c]));
  assert.equal(by.get('DDDD')!.excluded, 'outlier');
  assert.equal(by.get('EEEE')!.excluded, 'stale');
  // CCCC is 2 business days (48 hours, Thu 9th → Mon 13th) behind the newest figure: weight 2^-12.
  const w = d(2).pow(-12);
  assert.equal(jpy.perUsd.toString(), d(150).plus(152).plus(w.times(140)).div(w.plus(2)).toString());
  assert.equal(by.get('CCCC')!.weight.toString(), w.div(w.plus(2)).toString());
  assert.equal(jpy.bankUpdate, '2026-04-13 15:00:00');
  assert.equal(jpy.freshUntil, '2026-04-17');
});

test('blend: a C-graded source counts half', () => {
  const rows = [row('AAAA', 'MMK', '2026-04-13', '2000', 'indirect'), row('BBBB', 'MMK', '2026-04-13', '2100', 'indirect')];
  const mmk = blend([source('AAAA', 'USD'), source('BBBB', 'USD', { grade: 'C' })], rows, opts).get('MMK')!;
  assert.equal(mmk.perUsd.toString(), d(2000).plus(d(2100).times('0.5')).div('1.5').toString());
});

test('blend: a peg overrides the blend and follows its anchor', () => {
  const rows = [row('ECBF', 'USD', '2026-04-13', '1.25', 'indirect'), row('ECBF', 'XOF', '2026-04-13', '650', 'indirect'), row('ECBF', 'AED', '2026-04-13', '4.6', 'indirect')];
  const out = blend([source('ECBF', 'EUR')], rows, opts);
  assert.equal(out.get('XOF')!.perUsd.toString(), d('0.8').times('655.957').toString());
  assert.equal(out.get('XOF')!.peg!.authority, "Banque Centrale des États de l'Afrique de l'Ouest");
  assert.equal(out.get('XOF')!.contributions[0]!.excluded, 'peg');
  assert.equal(out.get('AED')!.perUsd.toString(), '3.6725');
  // A pegged currency no source publishes still appears when its anchor does.
  assert.equal(out.get('XAF')!.perUsd.toString(), d('0.8').times('655.957').toString());
  assert.equal(out.get('XAF')!.bankUpdate, out.get('EUR')!.bankUpdate);
});

test('blend: defunct currencies stay out (D4); discontinued sources are never blended', () => {
  const rows = [row('MARK', 'USD', '2026-04-13', '2', 'direct'), row('MARK', 'EUR', '2026-04-13', '3', 'direct'), row('ECBF', 'USD', '2026-04-13', '1.25', 'indirect'), row('ECBF', 'HRK', '2026-04-13', '7.5', 'indirect')];
  const sources = [source('MARK', 'DEM'), source('ECBF', 'EUR')];
  assert.deepEqual(blend(sources, rows, opts).get('EUR')!.contributions.map((c) => c.source).sort(), ['ECBF', 'MARK']);
  const out = blend([{ ...sources[0]!, discontinued: '1998-12-31' }, sources[1]!], rows, opts);
  assert.deepEqual(out.get('EUR')!.contributions.map((c) => c.source), ['ECBF']);
  assert.ok(!out.has('HRK') && !out.has('DEM'));
  assert.equal(out.get('USD')!.perUsd.toString(), '1');
});

test('freshness windows follow the cadence and the grace days (D10)', () => {
  assert.equal(freshUntil('2026-04-13', 'daily', 0), '2026-04-17');
  assert.equal(freshUntil('2026-04-13', 'weekly', 0), '2026-04-23');
  assert.equal(freshUntil('2026-04-13', 'monthly', 0), '2026-05-23');
  assert.equal(freshUntil('2026-04-13', 'daily', 30), '2026-05-17');
});
