// Issue 25 over the whole bundled history, in one pass: every day of the seed blended as a first start
// materialises it (the same day blend), then
// - the yardstick: the blended EUR crosses against the ECB's whole history file, which is independent
//   of the method (the ECB is one source among up to 80), with the targets;
// - real moves that come through on their day, and closed days that do not move;
// - every peg and fixed conversion rate exact on every day it held, and none forced before it began.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { before, describe, test } from 'node:test';
import { isMarketClosed, tradingDay } from '../src/blend/hours.js';
import { pegsOn } from '../src/blend/pegs.js';
import { inputWindow } from '../src/blend/window.js';
import { blendDay, DayMemo, quotedOn, type DayRate, type DayRates } from '../src/history/day.js';
import { pairText } from '../src/history/pair-text.js';
import { firstHistoryDay } from '../src/history/touched.js';
import { toRateText } from '../src/money/decimal.js';
import { enabledSources } from '../src/sources/enabled.js';
import { SOURCES as REGISTRY } from '../src/sources/index.js';
import { addDays } from '../src/time/days.js';
import { fixtureDir } from './support/fixtures.js';
import { seedRows } from './support/seed-rows.js';
import { blendEachDay, EIGHTEEN, measure, readEcbFile, type EcbFile, type Yardstick } from './support/yardstick.js';

/** The sources a default start blends (D22): those whose terms allow commercial use. */
const SOURCES = enabledSources(REGISTRY, []);

const dir = fixtureDir('ECBF');

/** Units of `target` per 1 `base`, as the history API writes it. */
const pair = (base: DayRate, target: DayRate) => pairText(Number(target.perUsd), Number(base.perUsd), () => [target.perUsd, base.perUsd]);

describe('the whole history, blended as a first start materialises it', () => {
  let ecb: EcbFile;
  const eur = new Map<string, Map<string, number>>();
  /** The days the checks below look at, whole. */
  const kept = new Map<string, DayRates>();
  const KEEP = new Set(['2008-09-15', '2008-12-24', '2008-12-25', '2008-12-26', '2014-12-31', '2015-01-14', '2015-01-15']);
  const pegs = { checked: 0, wrong: [] as string[], eurDem: [] as string[], demPte1998: new Set<string>(), firstSeen: new Map<string, string>() };
  let closedDiffer: string[] = [];
  let last: { day: string; rates: DayRates } | undefined;

  before(() => {
    ecb = readEcbFile(fileURLToPath(new URL('eurofxref-hist-2026-04-13.csv', dir)));
    const rows = seedRows();
    const memo = new DayMemo(SOURCES);
    const started = Date.now();
    blendEachDay(rows, firstHistoryDay(rows[0]!.date), rows[rows.length - 1]!.date, (r, day) => blendDay(SOURCES, r, day, 0, memo), inputWindow, addDays, (day, rates) => {
      if (KEEP.has(day)) kept.set(day, rates);
      const e = rates.get('EUR');
      if (e) eur.set(day, new Map([...rates].map(([code, r]) => [code, Number(r.perUsd) / Number(e.perUsd)])));
      checkPegs(day, rates);
      // A day the market is shut answers the last trading day's figures, currency by currency, but
      // for a peg that begins on it (the drachma's conversion rate on 2001-01-01).
      if (isMarketClosed(day) && last?.day === tradingDay(day)) {
        const [now, then] = [pegsOn(day), pegsOn(last.day)];
        for (const [code, r] of rates) if (last.rates.get(code)?.perUsd !== r.perUsd && now.get(code) === then.get(code)) closedDiffer.push(`${day} ${code}`);
      } else if (!isMarketClosed(day)) last = { day, rates };
    });
    console.log(`# ${eur.size} days with EUR blended in ${Date.now() - started} ms`);
  });

  function checkPegs(day: string, rates: DayRates): void {
    const quoted = quotedOn(day);
    for (const [code, peg] of pegsOn(day)) {
      const own = rates.get(code);
      const anchor = rates.get(peg.anchor);
      if (!quoted(code)) {
        if (own) pegs.wrong.push(`${day} ${code} is not quoted that day but has ${own.perUsd}`);
        continue;
      }
      if (!anchor) continue;
      pegs.checked++;
      const text = own ? pair(anchor, own) : 'nothing';
      if (text !== toRateText(peg.rate)) pegs.wrong.push(`${day} ${peg.anchor}/${code} ${text}, pegged at ${toRateText(peg.rate)}`);
    }
    for (const code of ['XCG', 'STN', 'STD', 'BGN', 'BGL', 'AZN']) if (rates.has(code) && !pegs.firstSeen.has(code)) pegs.firstSeen.set(code, day);
    const [e, dem, pte] = [rates.get('EUR'), rates.get('DEM'), rates.get('PTE')];
    if (day.startsWith('1998') && dem && pte) pegs.demPte1998.add(pair(dem, pte));
    if (e && day >= '1999-01-04' && day <= '2001-12-31') pegs.eurDem.push(pair(e, dem!));
  }

  const yardstick = (): Yardstick => measure(ecb, (day, code) => eur.get(day)?.get(code), (day, code) => EIGHTEEN.has(code) && quotedOn(day)(code));

  test("the issue's targets against the ECB's whole file", () => {
    const y = yardstick();
    const outside = y.beyond2.filter((b) => !b.inSpan);
    const list = (l: Yardstick['beyond2']) => l.map((b) => `${b.day} ${b.code} ${b.blended.toPrecision(5)} (ECB ${b.ecb}, next ${b.next})`).join('; ');
    console.log(`# ${y.pairs} pairs: ${(y.share * 100).toFixed(2)}% within 0.5% of the ECB's span, ${y.beyond2.length} beyond 2% (${outside.length} outside the span), ${y.spikes.length} spikes, DKK outside ERM II on ${y.dkkOutside.length} days`);
    assert.ok(y.pairs > 120_000, `${y.pairs} pairs measured`);
    assert.ok(y.share >= 0.995, `within span ${y.share}`);
    assert.deepEqual(y.spikes.map((s) => `${s.day} ${s.code}`), [], 'one-day spikes the ECB did not see');
    assert.deepEqual(y.dkkOutside.map((d) => d.day), [], 'DKK outside ERM II');
    // Beyond 2% of the ECB's figure of the day: market moves after its 13:15 UTC fixing and before 4 pm
    // in London, the moment a past day stands for (docs/blending.md): no more than measured, and at
    // most these 3 also outside the span to the ECB's next figure.
    assert.ok(y.beyond2.length <= 10, `${y.beyond2.length} beyond 2%: ${list(y.beyond2)}`);
    assert.ok(outside.length <= 3, `${outside.length} beyond 2% and outside the span: ${list(outside)}`);
  });

  test('real moves come through on the day the sources show them', () => {
    // The CHF floor's end, the rouble's fall of 16 December 2014, the pound after the referendum, the
    // lira's fall of August 2018.
    for (const [day, code] of [['2015-01-15', 'CHF'], ['2014-12-16', 'RUB'], ['2016-06-24', 'GBP'], ['2018-08-10', 'TRY'], ['2018-08-13', 'TRY']] as const) {
      const b = eur.get(day)!.get(code)!;
      const e = Number(ecb.get(day)!.get(code));
      assert.ok(Math.abs(b / e - 1) < 0.01, `${day} EUR/${code} ${b} against the ECB's ${e}`);
    }
    const chf = (day: string) => eur.get(day)!.get('CHF')!;
    assert.ok(chf('2015-01-15') / chf('2015-01-14') < 0.9, 'the franc 15% stronger on the 15th');
  });

  test('a day the market is shut answers the last trading day: Christmas 2008 does not move EUR/GBP', () => {
    assert.deepEqual(closedDiffer.slice(0, 10), [], `${closedDiffer.length} closed-day figures differ from the trading day's`);
    const gbp = (day: string) => pair(kept.get(day)!.get('EUR')!, kept.get(day)!.get('GBP')!);
    assert.equal(gbp('2008-12-25'), gbp('2008-12-24'));
    assert.ok(Math.abs(Number(gbp('2008-12-24')) / 0.9487 - 1) < 0.005, `EUR/GBP ${gbp('2008-12-24')} on 2008-12-24 (ECB 0.9487)`);
    closedDiffer = [];
  });

  test('every peg and conversion rate holds exactly on every day of the history it was in force, and not before', () => {
    assert.deepEqual(pegs.wrong.slice(0, 20), [], `${pegs.wrong.length} days off their peg`);
    assert.ok(pegs.checked > 400_000, `${pegs.checked} pegged figures`);
    // The figures: EUR/BGN on 2008-09-15 was 1.9652, EUR/DEM wandered in 1999–2001.
    assert.equal(pair(kept.get('2008-09-15')!.get('EUR')!, kept.get('2008-09-15')!.get('BGN')!), '1.95583');
    assert.equal(pegs.eurDem.length, 1093);
    assert.deepEqual(new Set(pegs.eurDem), new Set(['1.95583']));
    // Before the euro, DEM/PTE is what the sources said each day (the ERM held it near 102.5, not still).
    assert.ok(pegs.demPte1998.size > 50, `${pegs.demPte1998.size} distinct DEM/PTE figures in 1998`);
    // A currency no source quotes before its peg appears on the peg's first day, not before; AZN
    // first appears with CBAR's own bulletin of 2011-09-26 (NABZ, based in AZN), years before its peg.
    assert.deepEqual(Object.fromEntries(pegs.firstSeen), { BGL: '1997-07-01', BGN: '1999-07-05', STD: '2010-01-01', STN: '2018-01-01', AZN: '2011-09-26', XCG: '2025-03-31' });
    // Lithuania's figure of AZN in December 2014 is the market's (0.78 per USD), not the later 1.7.
    const day = kept.get('2014-12-31')!;
    assert.ok(Number(pair(day.get('USD')!, day.get('AZN')!)) < 1, 'USD/AZN on 2014-12-31');
  });
});

test('the yardstick sees a wrong day: a blend 5% off on one calm day is a spike and beyond 2%', () => {
  const ecb = readEcbFile(fileURLToPath(new URL('eurofxref-hist-2026-04-13.csv', dir)));
  const exact = (day: string, code: string) => Number(ecb.get(day)?.get(code));
  const y = measure(ecb, (day, code) => (day === '2019-06-12' && code === 'GBP' ? exact(day, code) * 1.05 : exact(day, code)), (_, code) => code === 'GBP');
  assert.equal(y.share, (y.pairs - 1) / y.pairs);
  assert.deepEqual(y.beyond2.map((b) => `${b.day} ${b.code}`), ['2019-06-12 GBP']);
  assert.deepEqual(y.spikes.map((b) => `${b.day} ${b.code}`), ['2019-06-12 GBP']);
});
