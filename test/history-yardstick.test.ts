// Issue 25's yardstick: the blended EUR crosses of every day of the bundled seed (what a first start
// materialises, through the same day blend) against the ECB's whole history file. The issue's targets
// (≥ 99.5% within 0.5% of the ECB's day-to-next-day span, none beyond 2%, no spikes, DKK always in
// ERM II) are not met yet: the measured model that is to meet them is in progress (docs/blending.md,
// "Past days"). Until then this test holds the line: the blend of the past may not get worse than
// the figures measured on 2026-11-26, and it prints them.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { blendDay, inputWindow, quotedOn } from '../src/history/day.js';
import { SOURCES } from '../src/sources/index.js';
import { addDays } from '../src/time/days.js';
import { fixtureDir } from './support/fixtures.js';
import { seedRows } from './support/seed-rows.js';
import { blendedEur, EIGHTEEN, measure, readEcbFile } from './support/yardstick.js';

const { dir, skip } = fixtureDir('ECBF');

/** Measured with the blend of 2026-11-26 (9f2dd49): the line not to fall behind. */
const MEASURED = { share: 0.969, beyond2: 121, spikes: 1, dkkOutside: 9 };

test('the blended history against the ECB\'s whole file: no worse than measured', { skip }, () => {
  const ecb = readEcbFile(fileURLToPath(new URL('eurofxref-hist-2026-04-13.csv', dir)));
  const days = [...ecb.keys()];
  const memo = new Map();
  const eur = blendedEur(seedRows(), days[0]!, days[days.length - 1]!, (rows, day) => blendDay(SOURCES, rows, day, 0, memo), inputWindow, addDays);
  const y = measure(ecb, (day, code) => eur.get(day)?.get(code), (day, code) => EIGHTEEN.has(code) && quotedOn(day)(code));
  console.log(`# ${y.pairs} pairs: ${(y.share * 100).toFixed(2)}% within 0.5% of the ECB's span, ${y.beyond2.length} beyond 2% (worst ${y.beyond2[0]?.day} ${y.beyond2[0]?.code} ${y.beyond2[0]?.blended.toPrecision(5)} vs ${y.beyond2[0]?.ecb}), ${y.spikes.length} spikes, DKK outside ERM II on ${y.dkkOutside.length} days`);
  assert.ok(y.pairs > 120_000, `${y.pairs} pairs measured`);
  assert.ok(y.share >= MEASURED.share, `within span ${y.share}`);
  assert.ok(y.beyond2.length <= MEASURED.beyond2, `${y.beyond2.length} pairs beyond 2%`);
  assert.ok(y.spikes.length <= MEASURED.spikes, `${y.spikes.length} spikes: ${y.spikes.map((s) => `${s.day} ${s.code}`).join(', ')}`);
  assert.ok(y.dkkOutside.length <= MEASURED.dkkOutside, `DKK outside ERM II on ${y.dkkOutside.map((d) => d.day).join(', ')}`);
  // Real moves come through on the day the sources show them: the CHF floor's end, the rouble's
  // fall of 16 December 2014, the pound after the referendum.
  for (const [day, code] of [['2015-01-15', 'CHF'], ['2014-12-16', 'RUB'], ['2016-06-24', 'GBP']] as const) {
    const b = eur.get(day)!.get(code)!;
    const e = Number(ecb.get(day)!.get(code));
    assert.ok(Math.abs(b / e - 1) < 0.01, `${day} EUR/${code} ${b} against the ECB's ${e}`);
  }
});

test('the yardstick sees a wrong day: a blend 5% off on one calm day is a spike and beyond 2%', { skip }, () => {
  const ecb = readEcbFile(fileURLToPath(new URL('eurofxref-hist-2026-04-13.csv', dir)));
  const exact = (day: string, code: string) => Number(ecb.get(day)?.get(code));
  const y = measure(ecb, (day, code) => (day === '2019-06-12' && code === 'GBP' ? exact(day, code) * 1.05 : exact(day, code)), (_, code) => code === 'GBP');
  assert.equal(y.share, (y.pairs - 1) / y.pairs);
  assert.deepEqual(y.beyond2.map((b) => `${b.day} ${b.code}`), ['2019-06-12 GBP']);
  assert.deepEqual(y.spikes.map((b) => `${b.day} ${b.code}`), ['2019-06-12 GBP']);
});
