// The market model (issue 25): trading time, measured quality, inverse-variance weights and the
// witness's rules, each on a small day built to show one rule.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blend } from './blend.js';
import { robustWeights, weightedMedian } from './consensus.js';
import { tradingHoursApart } from './hours.js';
import type { Figure, SourceInfo } from './inputs.js';
import { measureQuality, PRIOR_ERROR } from './quality.js';
import { witnesses } from './witness.js';

const source = (code: string, currency: string, extra: Partial<SourceInfo> = {}): SourceInfo => ({ code, currency, cadence: 'daily', publishedAtUtc: '15:00:00', ...extra });
const row = (src: string, quote: string, date: string, rate: string): Figure => ({ source: src, quote, date, rate, direction: 'indirect', unit: 1, table: '' });
const day = '2026-04-14';
const END = `${day} 23:59:59`;

/** The blend of `day` witnessed by `before` (the figures of the days before), as history does. */
function witnessed(sources: SourceInfo[], rows: Figure[], before: Figure[]) {
  return blend(sources, rows, { referenceDay: day, referenceMoment: END, graceDays: 0, witness: witnesses(sources, before, END, {}) });
}
const weightsOf = (b: ReturnType<typeof blend>, code: string) => new Map(b.get(code)!.contributions.map((c) => [c.source, c]));

/** Five calm days of CHF at 0.80 from the ECB-like source and at its level from the late relayer. */
const calm = (sources: string[]) => ['2026-04-07', '2026-04-08', '2026-04-09', '2026-04-10', '2026-04-13'].flatMap((date, i) => sources.map((s) => row(s, 'CHF', date, (0.8 + i * 0.0004).toFixed(4))));

test('trading hours: a weekend adds none, so Friday afternoon is as near to Sunday as to Friday night', () => {
  assert.equal(tradingHoursApart('2026-04-10 13:15:00', '2026-04-12 23:59:59'), 10.75);
  assert.equal(tradingHoursApart('2026-04-11 10:00:00', '2026-04-12 10:00:00'), 0);
  assert.equal(tradingHoursApart('2026-04-13 04:00:00', '2026-04-10 13:15:00'), 14.75, 'either order');
});

test('a two-figure day with one typo: the figure far from the witness and from the other is a jump', () => {
  const sources = [source('ECBF', 'USD', { publishedAtUtc: '13:15:00' }), source('RBFJ', 'USD', { publishedAtUtc: '21:00:00' })];
  // RBFJ's CHF is 1.33, a typo for 0.8008 (Fiji, 23 November 2005: 2.19 for 1.31).
  const b = witnessed(sources, [row('ECBF', 'CHF', day, '0.8010'), row('RBFJ', 'CHF', day, '1.3300')], calm(['ECBF', 'RBFJ']));
  const by = weightsOf(b, 'CHF');
  assert.equal(by.get('RBFJ')!.excluded, 'jump');
  assert.equal(by.get('RBFJ')!.weight, 0);
  assert.equal(b.get('CHF')!.perUsd.toString(), '0.801');
});

test('a lone late small bank against the ECB: fixed later, 4% off and uncorroborated, it is a jump', () => {
  const sources = [source('ECBF', 'USD', { publishedAtUtc: '13:15:00' }), source('SMAL', 'USD', { publishedAtUtc: '21:00:00' })];
  const b = witnessed(sources, [row('ECBF', 'CHF', day, '0.8010'), row('SMAL', 'CHF', day, '0.8330')], calm(['ECBF', 'SMAL']));
  assert.equal(weightsOf(b, 'CHF').get('SMAL')!.excluded, 'jump');
  assert.equal(b.get('CHF')!.perUsd.toString(), '0.801');
});

test('a real devaluation comes through: two sources show it, and what was fixed before it is superseded', () => {
  // The CHF floor's end, 15 January 2015: Asia fixed at the old level, then the ECB and a later
  // relayer both showed the franc 15% stronger.
  const at = (code: string, time: string) => source(code, 'USD', { publishedAtUtc: time });
  const sources = [at('ASIA', '03:00:00'), at('ASI2', '04:00:00'), at('ECBF', '13:15:00'), at('LATE', '20:00:00')];
  const rows = [row('ASIA', 'CHF', day, '0.8012'), row('ASI2', 'CHF', day, '0.8014'), row('ECBF', 'CHF', day, '0.6850'), row('LATE', 'CHF', day, '0.6880')];
  const b = witnessed(sources, rows, calm(['ASIA', 'ASI2', 'ECBF', 'LATE']));
  const by = weightsOf(b, 'CHF');
  assert.equal(by.get('ECBF')!.excluded, false);
  assert.equal(by.get('LATE')!.excluded, false);
  assert.equal(by.get('ASIA')!.excluded, 'superseded');
  assert.equal(by.get('ASI2')!.excluded, 'superseded');
  const chf = b.get('CHF')!.perUsd.toNumber();
  assert.ok(chf > 0.685 && chf < 0.688, String(chf));
});

test("a devaluation the issuer alone shows on the day is believed; a relayer's alone is not", () => {
  // The issuer's own figure of its currency (a source's base currency) after an earlier relayer.
  const sources = [source('ASIA', 'USD', { publishedAtUtc: '03:00:00' }), source('ISSU', 'EGP', { publishedAtUtc: '12:00:00' })];
  const before = ['2026-04-07', '2026-04-08', '2026-04-09', '2026-04-10', '2026-04-13'].flatMap((date) => [row('ASIA', 'EGP', date, '30.90'), row('ISSU', 'USD', date, '0.032362')]);
  const issuer = witnessed(sources, [row('ASIA', 'EGP', day, '30.90'), row('ISSU', 'USD', day, '0.020800')], before);
  assert.equal(weightsOf(issuer, 'EGP').get('ASIA')!.excluded, 'superseded');
  assert.ok(Math.abs(issuer.get('EGP')!.perUsd.toNumber() - 1 / 0.0208) < 1e-9);
  const relayers = [source('ASIA', 'USD', { publishedAtUtc: '03:00:00' }), source('RELY', 'USD', { publishedAtUtc: '12:00:00' })];
  const relayed = witnessed(relayers, [row('ASIA', 'EGP', day, '30.90'), row('RELY', 'EGP', day, '48.08')], before.map((r) => (r.source === 'ISSU' ? row('RELY', 'EGP', r.date, '30.90') : r)));
  assert.equal(weightsOf(relayed, 'EGP').get('RELY')!.excluded, 'jump');
});

test('a new source without a track record starts from its grade; a C grade counts less at the same moment', () => {
  const sources = [source('AAAA', 'USD'), source('CCCC', 'USD', { grade: 'C' })];
  const b = blend(sources, [row('AAAA', 'MMK', day, '2000.0000'), row('CCCC', 'MMK', day, '2000.0000')], { referenceDay: day, graceDays: 0 });
  const by = weightsOf(b, 'MMK');
  assert.equal(by.get('AAAA')!.error, PRIOR_ERROR.none);
  assert.equal(by.get('CCCC')!.error, PRIOR_ERROR.C);
  // Inverse variance at one moment: (0.1%)² against (0.3%)², nine to one.
  assert.ok(Math.abs(by.get('AAAA')!.weight / by.get('CCCC')!.weight - 9) < 1e-6, 'rounding of 2000.0000 adds next to nothing');
});

test('measured quality: a noisy source measures a larger error than steady ones, and moves give the volatility', () => {
  const sources = ['AAAA', 'BBBB', 'CCCC', 'NOIS'].map((c) => source(c, 'USD'));
  const rows: Figure[] = [];
  for (let i = 0; i < 40; i++) {
    const date = new Date(Date.UTC(2026, 1, 2) + i * 86_400_000).toISOString().slice(0, 10);
    if ([0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay())) continue;
    const level = 10 * (1 + 0.004 * Math.sin(i)); // the market: moves of about 0.3% a day
    for (const s of ['AAAA', 'BBBB', 'CCCC']) rows.push(row(s, 'SEK', date, level.toFixed(4)));
    rows.push(row('NOIS', 'SEK', date, (level * (1 + (i % 2 ? 0.02 : -0.02))).toFixed(4)));
  }
  const q = measureQuality(sources, rows);
  const error = (s: string) => q.error.get(`${s} SEK`)!;
  assert.ok(error('NOIS') > 0.01, `noisy: ${error('NOIS')}`);
  assert.ok(error('AAAA') < 0.002, `steady: ${error('AAAA')}`);
  const vol = q.volatility.get('SEK')!;
  assert.ok(vol > 0.001 && vol < 0.01, `volatility ${vol}`);
});

test('robust weights: a dissenter beyond its own deviations fades; one its variance explains keeps its weight', () => {
  assert.equal(weightedMedian([1, 2, 3], [1, 1, 5]), 3);
  const v = 0.001 ** 2;
  const [a, b, c] = robustWeights([0, 0.0005, 0.03], [v, v, v]);
  assert.ok(a! * v > 0.95 && a! * v < 1, 'half a deviation from the median keeps nearly all');
  assert.equal(b! * v, 1, 'the median itself keeps all');
  assert.ok(c! * v < 0.02, 'thirty deviations off counts almost nothing');
});
