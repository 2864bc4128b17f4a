// The market model (issue 25): trading time, measured quality, the witness's rules, anchors and the
// smoother, each on a small day built to show one rule.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blend, type BlendOptions } from './blend.js';
import { publishedOn } from './fixing.js';
import { track, type Reading } from './filter.js';
import { tradingHoursApart } from './hours.js';
import type { Figure, SourceInfo } from './inputs.js';
import { measureQuality, PRIOR_ERROR, type Quality } from './quality.js';
import { snapshotsOf } from './snapshots.js';

const source = (code: string, currency: string, extra: Partial<SourceInfo> = {}): SourceInfo => ({ code, currency, cadence: 'daily', publishedAtUtc: '15:00:00', ...extra });
const at = (code: string, time: string) => source(code, 'USD', { publishedAtUtc: time });
const row = (src: string, quote: string, date: string, rate: string): Figure => ({ source: src, quote, date, rate, direction: 'indirect', unit: 1, table: '', storedAt: '2026-04-14T00:00:00Z' });
const day = '2026-04-14';
/** A past day's blend stands for 4 pm in London (15:00 UTC in April). */
const PAST: Pick<BlendOptions, 'referenceDay' | 'referenceMoment' | 'graceDays'> = { referenceDay: day, referenceMoment: `${day} 15:00:00`, graceDays: 0 };
const weightsOf = (b: ReturnType<typeof blend>, code: string) => new Map(b.get(code)!.contributions.map((c) => [c.source, c]));
const WEEK = ['2026-04-07', '2026-04-08', '2026-04-09', '2026-04-10', '2026-04-13'];

/** Five calm days of CHF at about 0.80 from each source, the witness of the day. */
const calm = (sources: string[], code = 'CHF', level = 0.8) => WEEK.flatMap((date, i) => sources.map((s) => row(s, code, date, (level * (1 + i * 0.0005)).toFixed(4))));

test('trading hours: a weekend adds none, so Friday afternoon is as near to Sunday as to Friday night', () => {
  assert.equal(tradingHoursApart('2026-04-10 13:15:00', '2026-04-12 23:59:59'), 10.75);
  assert.equal(tradingHoursApart('2026-04-11 10:00:00', '2026-04-12 10:00:00'), 0);
  assert.equal(tradingHoursApart('2026-04-13 04:00:00', '2026-04-10 13:15:00'), 14.75, 'either order');
});

test('a two-figure day with one typo: the figure far from the witness and contradicted by the other is a jump', () => {
  // Fiji, 23 November 2005: its figure dated the 23rd, fixed on the 22nd at 21:00, put CHF at 2.19
  // for 1.31; the ECB's of the 23rd, fixed after it, stays at the level of the days before.
  const sources = [at('ECBF', '13:15:00'), source('RBFJ', 'USD', { publishedAtUtc: '21:00:00', publishedDayOffset: -1 })];
  const b = blend(sources, [...calm(['ECBF', 'RBFJ']), row('ECBF', 'CHF', day, '0.8020'), row('RBFJ', 'CHF', day, '1.3300')], PAST);
  const by = weightsOf(b, 'CHF');
  assert.equal(by.get('RBFJ')!.excluded, 'jump');
  assert.equal(by.get('RBFJ')!.weight, 0);
  // Fiji's figure of the day before still says where the market stood then, a day before the moment.
  const chf = b.get('CHF')!;
  assert.ok(chf.earlier! > 0 && chf.earlier! < 0.05, `earlier ${chf.earlier}`);
  assert.ok(Math.abs(chf.perUsd.toNumber() / 0.802 - 1) < 0.0001, String(chf.perUsd));
});

test('a lone late small bank against the ECB: 4% off after the day\'s moment, it is not the day\'s rate, and the next day\'s ECB makes it a jump', () => {
  const sources = [at('ECBF', '13:15:00'), at('SMAL', '21:00:00')];
  const rows = [...calm(['ECBF', 'SMAL']), row('ECBF', 'CHF', day, '0.8020'), row('SMAL', 'CHF', day, '0.8340')];
  const past = blend(sources, rows, PAST);
  assert.equal(weightsOf(past, 'CHF').get('SMAL')!.excluded, 'later');
  assert.ok(Math.abs(past.get('CHF')!.perUsd.toNumber() / 0.802 - 1) < 0.0001, String(past.get('CHF')!.perUsd));
  const next = '2026-04-15';
  const after = blend(sources, [...rows, row('ECBF', 'CHF', next, '0.8021')], { referenceDay: next, referenceMoment: `${next} 15:00:00`, graceDays: 0 });
  assert.equal(after.get('CHF')!.contributions.length, 2);
  assert.equal(weightsOf(after, 'CHF').get('SMAL')!.excluded, 'jump');
  assert.ok(Math.abs(after.get('CHF')!.perUsd.toNumber() / 0.8021 - 1) < 0.0001, String(after.get('CHF')!.perUsd));
});

test('a real move comes through: the CHF floor\'s end, shown by two sources, supersedes what was fixed before it', () => {
  // 15 January 2015: Asia fixed at the old level, then the ECB and a later relayer showed the franc
  // 15% stronger.
  const sources = [at('ASIA', '03:00:00'), at('ASI2', '04:00:00'), at('ECBF', '13:15:00'), at('LATE', '20:00:00')];
  const rows = [...calm(['ASIA', 'ASI2', 'ECBF', 'LATE']), row('ASIA', 'CHF', day, '0.8012'), row('ASI2', 'CHF', day, '0.8014'), row('ECBF', 'CHF', day, '0.6850'), row('LATE', 'CHF', day, '0.6880')];
  const b = blend(sources, rows, PAST);
  const by = weightsOf(b, 'CHF');
  assert.equal(by.get('ECBF')!.excluded, false);
  assert.equal(by.get('LATE')!.excluded, false);
  assert.equal(by.get('ASIA')!.excluded, 'superseded');
  assert.equal(by.get('ASI2')!.excluded, 'superseded');
  const chf = b.get('CHF')!.perUsd.toNumber();
  assert.ok(chf > 0.685 && chf < 0.688, String(chf));
});

test('a devaluation one source alone shows on the day is believed when nothing fixed with or after it stays at the old level', () => {
  // The issuer's own figure of its currency after an earlier relayer (Egypt's float).
  const sources = [at('ASIA', '03:00:00'), source('ISSU', 'EGP', { publishedAtUtc: '12:00:00' })];
  const before = WEEK.flatMap((date) => [row('ASIA', 'EGP', date, '30.90'), row('ISSU', 'USD', date, '0.032362')]);
  const issuer = blend(sources, [...before, row('ASIA', 'EGP', day, '30.90'), row('ISSU', 'USD', day, '0.020800')], PAST);
  assert.equal(weightsOf(issuer, 'EGP').get('ASIA')!.excluded, 'superseded');
  assert.ok(Math.abs(issuer.get('EGP')!.perUsd.toNumber() - 1 / 0.0208) < 1e-9);
  // A smaller move from a relayer, with a third source fixed after it still at the old level: a jump
  // (within 5% of the others, it is no consensus outlier).
  const three = [at('ASIA', '03:00:00'), at('RELY', '12:00:00'), at('EVEN', '14:00:00')];
  const relayed = blend(three, [...calm(['ASIA', 'RELY', 'EVEN'], 'EGP', 30.9), row('ASIA', 'EGP', day, '30.93'), row('RELY', 'EGP', day, '32.20'), row('EVEN', 'EGP', day, '30.95')], PAST);
  assert.equal(weightsOf(relayed, 'EGP').get('RELY')!.excluded, 'jump');
});

test('a new source without a track record starts from its grade; a C grade counts less at the same moment', () => {
  const sources = [source('AAAA', 'USD'), source('CCCC', 'USD', { grade: 'C' })];
  const b = blend(sources, [row('AAAA', 'MMK', day, '2000.0000'), row('CCCC', 'MMK', day, '2000.0000')], PAST);
  const by = weightsOf(b, 'MMK');
  assert.equal(by.get('AAAA')!.error, PRIOR_ERROR.none);
  assert.equal(by.get('CCCC')!.error, PRIOR_ERROR.C);
  // Inverse variance at one moment: (0.1%)² against (0.3%)², nine to one.
  assert.ok(Math.abs(by.get('AAAA')!.weight / by.get('CCCC')!.weight - 9) < 1e-6, 'rounding of 2000.0000 adds next to nothing');
});

test('a lone source is its newest figure, not a mix of its days', () => {
  const b = blend([at('ECBF', '13:15:00')], [...calm(['ECBF'], 'ISK', 140), row('ECBF', 'ISK', day, '143.50')], PAST);
  assert.equal(b.get('ISK')!.perUsd.toString(), '143.5');
  assert.equal(b.get('ISK')!.contributions[0]!.weight, 1);
});

/** Forty business days of a market with moves of about 0.3% a day. */
function market(sources: string[], figure: (source: string, level: number, i: number) => number, code = 'SEK'): Figure[] {
  const rows: Figure[] = [];
  for (let i = 0; i < 56; i++) {
    const date = new Date(Date.UTC(2026, 1, 2) + i * 86_400_000).toISOString().slice(0, 10);
    if ([0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay())) continue;
    const level = 10 * (1 + 0.004 * Math.sin(i));
    for (const s of sources) rows.push(row(s, code, date, figure(s, level, i).toFixed(5)));
  }
  return rows;
}
const measure = (sources: SourceInfo[], rows: Figure[]) => measureQuality(sources, snapshotsOf(new Map(sources.map((s) => [s.code, s])), rows).snapshots);

test('measured quality: each source\'s error from every pair of sources at once, and moves give the volatility', () => {
  const sources = ['AAAA', 'BBBB', 'CCCC', 'NOIS'].map((c) => source(c, 'USD'));
  // Three sources with their own small noise, one with ±2%.
  const noise = (s: string, i: number) => (s === 'NOIS' ? (i % 2 ? 0.02 : -0.02) : 0.0005 * Math.sin(i * 7 + s.charCodeAt(0)));
  const q = measure(sources, market(sources.map((s) => s.code), (s, level, i) => level * (1 + noise(s, i))));
  const error = (s: string) => q.errors.get('SEK')!.get(s)!;
  assert.ok(error('NOIS') > 0.01, `noisy: ${error('NOIS')}`);
  for (const s of ['AAAA', 'BBBB', 'CCCC']) assert.ok(error(s) < 0.002, `${s}: ${error(s)}`);
  // The noisy source does not make the steady ones look bad: its pairs are known to say little.
  assert.ok(error('AAAA') < error('NOIS') / 10);
  const vol = q.volatility.get('SEK')!;
  assert.ok(vol > 0.001 && vol < 0.01, `volatility ${vol}`);
});

test('a currency is blended against the anchor it moves least against: DKK follows a later move of EUR', () => {
  // DKK is held to the euro; the dollar moves. Measured: DKK's anchor is EUR.
  const sources = ['AAAA', 'BBBB', 'CCCC'].map((c) => source(c, 'USD'));
  const rows = market(sources.map((s) => s.code), (_, level) => level, 'EUR').map((r) => ({ ...r, rate: (Number(r.rate) / 12).toFixed(6) }));
  for (const r of [...rows]) rows.push(row(r.source, 'DKK', r.date, (Number(r.rate) * 7.46).toFixed(6)));
  const q = measure(sources, rows);
  assert.equal(q.anchor.get('DKK'), 'EUR');
  // On the day: the ECB-like source fixes EUR and DKK at 13:15; a later one only EUR, 1% weaker.
  const daily = [at('ECBF', '13:15:00'), at('LATE', '14:45:00')];
  const anchored: Quality = { errors: new Map(), relays: new Map(), anchor: new Map([['DKK', 'EUR']]), volatility: new Map([['DKK', 0.0002], ['EUR', 0.006]]) };
  const dayRows = [row('ECBF', 'EUR', day, '0.8000'), row('ECBF', 'DKK', day, '5.9680'), row('LATE', 'EUR', day, '0.8080')];
  const b = blend(daily, dayRows, { ...PAST, quality: anchored });
  const [eur, dkk] = [b.get('EUR')!.perUsd.toNumber(), b.get('DKK')!.perUsd.toNumber()];
  assert.ok(eur > 0.802, `EUR ${eur}: the later figure counts`);
  assert.ok(Math.abs(dkk / eur - 7.46) < 1e-9, `EUR/DKK ${dkk / eur}: the ECB's cross, at EUR's later level`);
  assert.equal(b.get('DKK')!.anchor, 'EUR');
});

test('sources relaying one fixing are found by their identical figures and count as one reading', () => {
  const sources = ['AAAA', 'BBBB', 'CCCC', 'COPY'].map((c) => source(c, 'USD'));
  const noise = (s: string, i: number) => 0.001 * Math.sin(i * 3 + (s === 'COPY' ? 'AAAA' : s).charCodeAt(0));
  const q = measure(sources, market(sources.map((s) => s.code), (s, level, i) => level * (1 + noise(s, i))));
  assert.deepEqual(q.relays.get('SEK'), new Map([['AAAA', 'AAAA'], ['COPY', 'AAAA']]));
  // Two of three figures are one: they share one reading's weight.
  const b = blend(sources.slice(0, 2).concat(sources[3]!), [row('AAAA', 'SEK', day, '10.0000'), row('COPY', 'SEK', day, '10.0000'), row('BBBB', 'SEK', day, '10.1000')], { ...PAST, quality: q });
  const by = weightsOf(b, 'SEK');
  assert.equal(by.get('AAAA')!.weight, by.get('COPY')!.weight);
  assert.ok(Math.abs(by.get('AAAA')!.weight + by.get('COPY')!.weight - (1 - by.get('BBBB')!.weight)) < 1e-12);
});

test('a dissenter within 2% fades: its variance grows with its distance in its own deviations', () => {
  const r = (group: string, y: number): Reading => ({ hours: 100, y, variance: 0.001 ** 2, group });
  const t = track([r('A', 0), r('B', 0.0005), r('C', 0.015)], 0, 100);
  assert.ok(t.weights[2]! < 0.05, `15 deviations off: ${t.weights[2]}`);
  assert.ok(Math.abs(t.weights.reduce((s, w) => s + w, 0) - 1) < 1e-12);
  assert.deepEqual(t.screens, [false, false, false]);
});

test('a figure fixed nearer the moment screens off one further from it: weights follow the market\'s move', () => {
  // Two precise figures of one market, six and one trading hours before the moment.
  const t = track([{ hours: 94, y: 0, variance: 1e-8, group: 'A' }, { hours: 99, y: 0.001, variance: 1e-8, group: 'B' }], 1e-6, 100);
  assert.ok(t.weights[1]! > 0.99, `the later: ${t.weights[1]}`);
});

test('Samoa moved west of the date line on 30 December 2011: its day offset applies from then on', () => {
  const cbsa = { publishedDayOffset: -1, publishedDayOffsetFrom: '2011-12-30' };
  assert.equal(publishedOn(cbsa, '2008-10-14'), '2008-10-14');
  assert.equal(publishedOn(cbsa, '2012-01-03'), '2012-01-02');
  assert.equal(publishedOn({ publishedDayOffset: -1 }, '2008-10-14'), '2008-10-13');
});

test('a newcomer cannot move a major: read but not weighed while three measured sources speak, weighed by its grade where fewer do or the currency is no major', () => {
  const measuredThree = ['AAAA', 'BBBB', 'CCCC'].map((c) => source(c, 'USD'));
  const q = measure(measuredThree, market(['AAAA', 'BBBB', 'CCCC'], (s, level, i) => level * (1 + 0.0005 * Math.sin(i * 7 + s.charCodeAt(0)))));
  const sources = [...measuredThree, source('NEWB', 'USD')];
  // The newcomer 1% off the others: within the consensus' tolerance, so no outlier by that rule.
  const rows = [row('AAAA', 'SEK', day, '10.0000'), row('BBBB', 'SEK', day, '10.0010'), row('CCCC', 'SEK', day, '9.9990'), row('NEWB', 'SEK', day, '10.1000')];
  const without = blend(measuredThree, rows.slice(0, 3), { ...PAST, quality: q }).get('SEK')!;
  const b = blend(sources, rows, { ...PAST, quality: q });
  const newb = weightsOf(b, 'SEK').get('NEWB')!;
  assert.equal(newb.excluded, 'unmeasured');
  assert.equal(newb.weight, 0);
  assert.equal(b.get('SEK')!.perUsd.toString(), without.perUsd.toString(), 'the blend is what the measured three make it');
  // Two measured voices only: the newcomer counts from its grade's prior, as before.
  const two = blend(sources.filter((s) => s.code !== 'CCCC'), rows.filter((r) => r.source !== 'CCCC'), { ...PAST, quality: q });
  assert.equal(weightsOf(two, 'SEK').get('NEWB')!.excluded, false);
  assert.ok(weightsOf(two, 'SEK').get('NEWB')!.weight > 0);
  // No major (Iceland's krona): every voice counts, the newcomer by its grade's prior.
  const isk = (r: Figure) => ({ ...r, quote: 'ISK' });
  const minor = blend(sources, rows.map(isk), { ...PAST, quality: measure(measuredThree, market(['AAAA', 'BBBB', 'CCCC'], (_, level) => level, 'ISK')) });
  assert.equal(weightsOf(minor, 'ISK').get('NEWB')!.excluded, false);
});
