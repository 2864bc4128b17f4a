import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Decimal } from '../money/decimal.js';
import { blend } from './blend.js';
import { outliers } from './consensus.js';
import { fixingMoment } from './fixing.js';
import { freshUntil } from './freshness.js';
import type { Figure, SourceInfo } from './inputs.js';
import { bankUpdate, rebase } from './rebase.js';
import { businessDaysBehind } from '../time/days.js';

const source = (code: string, currency: string, extra: Partial<SourceInfo> = {}): SourceInfo => ({ code, currency, cadence: 'daily', publishedAtUtc: '15:00:00', ...extra });
const row = (src: string, quote: string, date: string, rate: string, direction: 'direct' | 'indirect', table = ''): Figure =>
  ({ source: src, quote, date, rate, direction, unit: 1, table, storedAt: '2026-04-14T00:00:00Z' });
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
  // Weighed in floating point, kept to 15 digits: equal to the exact quotient in its first 14.
  assert.equal(out.get('CHF')!.perUsd.toSignificantDigits(14).toString(), d('650').div(700).times('0.8').toSignificantDigits(14).toString());
  assert.equal(out.get('CHF')!.contributions[0]!.bridge, 'EUR');
});

test('consensus: an outlier is dropped only when enough sources agree', () => {
  assert.deepEqual(outliers([150, 151, 152, 1.5]), [false, false, false, true]);
  assert.deepEqual(outliers([150, 151, 300]), [false, false, true]);
  assert.deepEqual(outliers([150, 300]), [false, false], 'two sources cannot outvote each other');
  assert.deepEqual(outliers([150, 151, 156]), [false, false, false], 'within 5% of the median is agreement');
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
  // Priors only (no measured quality): CCCC's figure is two trading days older, so the market's
  // move since weighs on it; AAAA and BBBB, fixed together, differ by 1.3% and share the rest.
  assert.ok(by.get('CCCC')!.weight < by.get('AAAA')!.weight / 10, 'a figure two days old counts far less');
  assert.ok(jpy.perUsd.gt(150) && jpy.perUsd.lt(152));
  assert.equal(jpy.bankUpdate, '2026-04-13 15:00:00');
  assert.equal(jpy.freshUntil, '2026-04-17');
});

test('fixing moments: the fixing hour where it differs from publication, the day offset applied', () => {
  assert.equal(fixingMoment({ code: 'ECBF', publishedAtUtc: '15:00:00' }, '2026-03-23', 'USD'), '2026-03-23 13:15:00');
  assert.equal(fixingMoment({ code: 'IMFD', publishedAtUtc: '18:00:00' }, '2026-03-23', 'KRW'), '2026-03-23 00:00:00');
  assert.equal(fixingMoment({ code: 'IMFD', publishedAtUtc: '18:00:00' }, '2026-03-23', 'XDR'), '2026-03-23 12:00:00');
  assert.equal(fixingMoment({ code: 'NBUA', publishedAtUtc: '14:00:00', publishedDayOffset: -1 }, '2026-03-24', 'USD'), '2026-03-23 14:00:00');
  // A day's average published the next morning was fixed on its own date, not on the publication day.
  assert.equal(fixingMoment({ code: 'CRPE', publishedAtUtc: '13:00:00', publishedDayOffset: 1 }, '2026-09-04', 'USD'), '2026-09-04 16:00:00');
});

test('business days: Friday to Monday is one, and the arithmetic count equals a day-by-day count', () => {
  assert.equal(businessDaysBehind('2026-04-10', '2026-04-13'), 1);
  assert.equal(businessDaysBehind('2026-04-13', '2026-04-13'), 0);
  assert.equal(businessDaysBehind('2026-04-06', '2026-04-13'), 5);

  const DAY = 86_400_000;
  for (let a = 0; a < 60; a++) {
    for (let span = -3; span < 30; span++) {
      const from = new Date(Date.UTC(2026, 0, 1) + a * DAY);
      const to = new Date(from.getTime() + span * DAY);
      let count = 0;
      for (let t = from.getTime() + DAY; t <= to.getTime(); t += DAY) if (![0, 6].includes(new Date(t).getUTCDay())) count++;
      assert.equal(businessDaysBehind(from.toISOString().slice(0, 10), to.toISOString().slice(0, 10)), count);
    }
  }
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

test('blend: a peg applies on the days it held, to the currencies the day quotes', () => {
  const on = (day: string, quotes?: (code: string) => boolean) =>
    blend([source('ECBF', 'EUR')], [row('ECBF', 'USD', day, '1.25', 'indirect'), row('ECBF', 'DEM', day, '2', 'indirect')], { referenceDay: day, graceDays: 0, quotes });
  const legacy = (code: string) => code !== 'XCG';
  assert.equal(on('2000-06-01', legacy).get('DEM')!.perUsd.toString(), d('0.8').times('1.95583').toString());
  assert.equal(on('2000-06-01', legacy).get('DEM')!.contributions[0]!.excluded, 'peg');
  // Before the euro the Deutsche Mark is its sources' figure; once the day no longer quotes it, it is gone.
  assert.equal(on('1998-06-01', legacy).get('DEM')!.perUsd.toString(), '1.6');
  assert.ok(!on('2000-06-01').has('DEM'));
  // A peg that began later does not reach back, and one the day does not quote adds nothing.
  assert.ok(!on('2020-06-01').has('XCG') && on('2026-04-13').has('XCG'));
  assert.ok(!on('2026-04-13', legacy).has('XCG'));
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
