import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Decimal } from '../money/decimal.js';
import { blend } from './blend.js';
import { AGREEMENT_SCALE, agreementWeights, outliers, weightedMedian } from './consensus.js';
import { fixingMoment } from './fixing.js';
import { freshUntil } from './freshness.js';
import type { Figure, SourceInfo } from './inputs.js';
import { bankUpdate, rebase } from './rebase.js';
import { businessDaysBehind } from '../time/days.js';
import { hoursBehind, precisionWeight, recencyWeight, roundingError } from './weights.js';

const source = (code: string, currency: string, extra: Partial<SourceInfo> = {}): SourceInfo => ({ code, currency, cadence: 'daily', publishedAtUtc: '15:00:00', ...extra });
const row = (src: string, quote: string, date: string, rate: string, direction: 'direct' | 'indirect', table = ''): Figure =>
  ({ source: src, quote, date, rate, direction, unit: 1, table });
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

test('weights: halve every two business hours from the reference moment', () => {
  assert.equal(recencyWeight(0), 1);
  assert.equal(recencyWeight(2), 0.5);
  assert.equal(recencyWeight(4), 0.25);
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
  // CCCC is 2 business days (48 hours, Thu 9th → Mon 13th) behind the newest figure: recency 2^-24;
  // whole numbers are coarse figures (±0.5), weighed by precision; then agreement with the weighted
  // median, 1 / (1 + (distance / 1%)²).
  const prior = [precisionWeight('150'), precisionWeight('152'), 2 ** -24 * precisionWeight('140')];
  const m = weightedMedian([150, 152, 140], prior);
  assert.equal(m, 152, '152 is the finer of two otherwise equal figures');
  const agree = (v: number) => 1 / (1 + ((v / m - 1) / AGREEMENT_SCALE) ** 2);
  const w = [prior[0]! * agree(150), prior[1]! * agree(152), prior[2]! * agree(140)];
  const total = w[0]! + w[1]! + w[2]!;
  const mean = (150 * w[0]! + 152 * w[1]! + 140 * w[2]!) / total;
  assert.equal(jpy.perUsd.toSignificantDigits(14).toString(), d(mean.toPrecision(15)).toSignificantDigits(14).toString());
  assert.ok(Math.abs(by.get('CCCC')!.weight - w[2]! / total) < 1e-18);
  assert.ok(by.get('AAAA')!.weight < by.get('BBBB')!.weight / 2, 'the figure further from the consensus counts less');
  assert.equal(jpy.bankUpdate, '2026-04-13 15:00:00');
  assert.equal(jpy.freshUntil, '2026-04-17');
});

test('blend: figures near the reference moment count most, and a past moment discounts later ones', () => {
  // Same day: AAAA fixes at 04:00, BBBB at 15:00 (both USD-based, agreeing within 0.1%).
  const sources = [source('AAAA', 'USD', { publishedAtUtc: '04:00:00' }), source('BBBB', 'USD')];
  const rows = [row('AAAA', 'SEK', '2026-04-13', '10.0000', 'indirect'), row('BBBB', 'SEK', '2026-04-13', '10.0100', 'indirect')];
  const [pa, pb] = [precisionWeight('10.0000'), precisionWeight('10.0100')];
  const mean = (wa: number, wb: number) => d(((10 * wa + 10.01 * wb) / (wa + wb)).toPrecision(15)).toSignificantDigits(14).toString();
  // 11 hours apart: 2^-5.5 against 1.
  const early = 2 ** -5.5;
  assert.equal(blend(sources, rows, opts).get('SEK')!.perUsd.toSignificantDigits(14).toString(), mean(pa * early, pb));
  const atDawn = blend(sources, rows, { ...opts, referenceMoment: '2026-04-13 04:00:00' }).get('SEK')!;
  assert.equal(atDawn.perUsd.toSignificantDigits(14).toString(), mean(pa, pb * early));
});

test('blend: data months older than the reference moment keeps its weighting (no underflow)', () => {
  const sources = [source('AAAA', 'USD', { publishedAtUtc: '04:00:00' }), source('BBBB', 'USD')];
  const rows = [row('AAAA', 'SEK', '2026-04-13', '10.0000', 'indirect'), row('BBBB', 'SEK', '2026-04-13', '10.0100', 'indirect')];
  const now = blend(sources, rows, opts).get('SEK')!;
  const months = blend(sources, rows, { ...opts, referenceMoment: '2026-11-22 12:00:00' }).get('SEK')!;
  assert.equal(months.perUsd.toString(), now.perUsd.toString());
  assert.ok(months.contributions.every((c) => c.weight > 0 && c.weight < 1));
});

test('blend: the issuer counts double for its own currency, sources of one fixing share one weight', () => {
  // PPPP is based in PLN (its USD row gives PLN per USD); ECBF and DKNB, here USD-based, relay one
  // fixing, the concertation at 13:15 UTC; PPPP fixes at the same hour.
  const sources = [source('PPPP', 'PLN', { publishedAtUtc: '13:15:00' }), source('ECBF', 'USD'), source('DKNB', 'USD')];
  const rows = [row('PPPP', 'USD', '2026-04-13', '4.000', 'direct'), row('ECBF', 'PLN', '2026-04-13', '4.004', 'indirect'), row('DKNB', 'PLN', '2026-04-13', '4.004', 'indirect')];
  const pln = blend(sources, rows, opts).get('PLN')!;
  const by = new Map(pln.contributions.map((c) => [c.source, c.weight]));
  // Issuer 2 against the concertation's 1, split in two; agreement trims each by its distance from 4.
  const agree = (v: number) => 1 / (1 + ((v / 4 - 1) / AGREEMENT_SCALE) ** 2);
  const [p4, p4004] = [precisionWeight('4.000'), precisionWeight('4.004')];
  const w = { PPPP: 2 * p4 * agree(4), ECBF: 0.5 * p4004 * agree(4.004), DKNB: 0.5 * p4004 * agree(4.004) };
  const total = w.PPPP + w.ECBF + w.DKNB;
  for (const code of ['PPPP', 'ECBF', 'DKNB'] as const) assert.ok(Math.abs(by.get(code)! - w[code] / total) < 1e-15, code);
});

test('weights: a coarse figure counts less by its rounding error; fine figures count whole', () => {
  assert.ok(Math.abs(roundingError('0.391') - 0.0005 / 0.391) < 1e-15);
  assert.ok(precisionWeight('1.16060') > 0.999);
  // ±0.128% rounding, /√3 = 0.0738%, against the 0.05% spread: 0.05² / (0.05² + 0.0738²) ≈ 0.31.
  assert.ok(Math.abs(precisionWeight('0.391') - 0.31) < 0.01, String(precisionWeight('0.391')));
  assert.ok(precisionWeight('0.00008') < 0.001, 'one significant digit is nearly no information');
});

test('fixing moments: the fixing hour where it differs from publication, the day offset applied', () => {
  assert.equal(fixingMoment({ code: 'ECBF', publishedAtUtc: '15:00:00' }, '2026-03-23', 'USD'), '2026-03-23 13:15:00');
  assert.equal(fixingMoment({ code: 'IMFD', publishedAtUtc: '18:00:00' }, '2026-03-23', 'KRW'), '2026-03-23 00:00:00');
  assert.equal(fixingMoment({ code: 'IMFD', publishedAtUtc: '18:00:00' }, '2026-03-23', 'XDR'), '2026-03-23 12:00:00');
  assert.equal(fixingMoment({ code: 'NBUA', publishedAtUtc: '14:00:00', publishedDayOffset: -1 }, '2026-03-24', 'USD'), '2026-03-23 14:00:00');
});

test('consensus: the weighted median, and agreement that fades a dissenter instead of dropping it', () => {
  assert.equal(weightedMedian([1, 2, 3], [1, 1, 5]), 3);
  assert.equal(weightedMedian([1, 2, 3], [1, 1, 1]), 2);
  const [a, b, c] = agreementWeights([100, 100.2, 103], [2, 1, 1]);
  assert.equal(a, 1);
  assert.ok(Math.abs(b! - 1 / (1 + 0.04)) < 1e-12);
  assert.ok(c! < 0.1 && c! > 0, 'three percent off counts about a tenth');
});

test('business days: the arithmetic count equals a day-by-day count', () => {
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

test('blend: a C-graded source counts half', () => {
  const rows = [row('AAAA', 'MMK', '2026-04-13', '2000.0000', 'indirect'), row('BBBB', 'MMK', '2026-04-13', '2000.0000', 'indirect'), row('CCCC', 'MMK', '2026-04-13', '2002.0000', 'indirect')];
  const sources = [source('AAAA', 'USD'), source('BBBB', 'USD', { grade: 'C' }), source('CCCC', 'USD', { grade: 'C' })];
  const by = new Map(blend(sources, rows, opts).get('MMK')!.contributions.map((c) => [c.source, c.weight]));
  assert.ok(Math.abs(by.get('BBBB')! / by.get('AAAA')! - 0.5) < 1e-12, 'the same figure counts half from a C-graded source');
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
