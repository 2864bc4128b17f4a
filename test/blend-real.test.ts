// The blend on the real recorded payloads of every source: reciprocal and cross consistency, no
// rate ≤ 0, no float noise, and agreement with the ECB, the Bank of Canada and the NBP on their own
// days. Built in memory from the parsers, as ingest would store it.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { before, describe, test } from 'node:test';
import { addDays } from '../src/blend/freshness.js';
import { blend } from '../src/blend/blend.js';
import { normalize } from '../src/ingest/validate.js';
import { Decimal } from '../src/money/decimal.js';
import { RatesTable } from '../src/rates/table.js';
import { SOURCES } from '../src/sources/index.js';
import type { ObservationRow } from '../src/store/store.js';
import { NoPublication } from '../src/sources/types.js';
import { fixturesDir } from './helpers.js';

const FIXTURES = fileURLToPath(fixturesDir);
const skip = existsSync(FIXTURES) ? false : `shared fixtures not found at ${FIXTURES}`;
const LOOKBACK_DAYS = 45;
/** The bound the majors are held to now. The goal is 0.5% (issue "blending engine"); banks fixing at
 *  different hours still put the blend up to ~0.65% from one bank's own figure (docs/blending.md). */
const TOLERANCE = 0.01;
/** Deep-market currencies, where banks' figures of one day agree closely. Across every currency the
 *  worst deviation is printed, not asserted: see docs/blending.md. */
const MAJORS = new Set(['USD', 'EUR', 'JPY', 'GBP', 'CHF', 'AUD', 'CAD', 'NZD', 'SEK', 'NOK', 'DKK', 'CNY', 'HKD', 'SGD', 'PLN', 'CZK']);

describe('the blend on real data', { skip }, () => {
  const rows: ObservationRow[] = [];
  before(async () => {
    for (const s of SOURCES) {
      const dir = `${FIXTURES}/${s.code}`;
      if (!existsSync(dir)) continue;
      for (const file of readdirSync(dir).filter((f) => s.accepts(f)).sort()) {
        let observations;
        try {
          observations = await s.parse({ name: file, body: readFileSync(`${dir}/${file}`) });
        } catch (err) {
          if (err instanceof NoPublication) continue;
          throw err;
        }
        const { rows: normal } = normalize(observations, '2026-12-31');
        for (const r of normal) rows.push({ ...r, source: s.code, storedAt: '2026-11-22T00:00:00.000Z' });
      }
    }
  });

  /** The table as of `day`: what a server would have served that evening. */
  const asOf = (day: string) => {
    const from = addDays(day, -LOOKBACK_DAYS);
    return new RatesTable(blend([...SOURCES], rows.filter((r) => r.date <= day && r.date >= from), { referenceDay: day, graceDays: 0 }));
  };

  test('every base and target: rates positive, reciprocal and cross consistent, no float noise', () => {
    const table = asOf('2026-04-13');
    const codes = table.codes;
    assert.ok(codes.length > 100, `only ${codes.length} currencies`);
    const started = Date.now();
    asOf('2026-04-14');
    const ms = Date.now() - started;
    console.log(`# full blend over ${SOURCES.length} sources: ${ms} ms`);
    for (const a of codes) {
      for (const b of codes) {
        const ab = table.pair(a, b)!.text;
        assert.ok(new Decimal(ab).gt(0), `${a}/${b} = ${ab}`);
        assert.ok(new Decimal(ab).sd() <= 8 && !/e/i.test(ab), `${a}/${b} = ${ab}`);
        const ba = new Decimal(table.pair(b, a)!.text);
        // Two 8-digit roundings: the product is 1 within about 1e-7 relative.
        assert.ok(new Decimal(ab).times(ba).minus(1).abs().lt('2e-7'), `${a}/${b} × ${b}/${a}`);
      }
    }
    for (const [a, b, c] of [['EUR', 'JPY', 'GBP'], ['CHF', 'PLN', 'CZK'], ['TRY', 'INR', 'BRL'], ['KZT', 'UAH', 'GEL']]) {
      const cross = new Decimal(table.pair(a!, b!)!.text).times(table.pair(b!, c!)!.text).div(table.pair(a!, c!)!.text);
      assert.ok(cross.minus(1).abs().lt('3e-7'), `${a}/${b} × ${b}/${c} / ${a}/${c} = ${cross}`);
    }
  });

  const agreement = (bank: string, base: string) => () => {
    const days = [...new Set(rows.filter((r) => r.source === bank && r.date >= '2026-03-02' && r.date <= '2026-04-13').map((r) => r.date))].sort();
    assert.ok(days.length > 0, `${bank} has no day in the compared period`);
    let worst = { deviation: 0, what: '' };
    let worstMajor = { deviation: 0, what: '' };
    for (const day of days) {
      const table = asOf(day);
      for (const r of rows.filter((x) => x.source === bank && x.date === day)) {
        if (!table.has(r.quote) || !table.has(base)) continue;
        // The bank's own figure as units of the quote per 1 base.
        const own = r.direction === 'indirect' ? new Decimal(r.rate) : new Decimal(1).div(r.rate);
        const deviation = new Decimal(table.pair(base, r.quote)!.text).div(own).minus(1).abs().toNumber();
        if (deviation > worst.deviation) worst = { deviation, what: `${base}/${r.quote} on ${day}` };
        if (MAJORS.has(r.quote) && deviation > worstMajor.deviation) worstMajor = { deviation, what: `${base}/${r.quote} on ${day}` };
      }
    }
    const pct = (d: number) => `${(d * 100).toFixed(3)}%`;
    console.log(`# ${bank}: worst deviation ${pct(worst.deviation)} (${worst.what}); majors ${pct(worstMajor.deviation)} (${worstMajor.what}); ${days.length} days`);
    assert.ok(worstMajor.what !== '', `${bank}: no major currency compared`);
    assert.ok(worstMajor.deviation < TOLERANCE, `${bank} ${worstMajor.what} deviates ${worstMajor.deviation}`);
  };

  test('blended EUR crosses of the majors agree with the ECB on its own days within 1%', agreement('ECBF', 'EUR'));
  test('blended CAD crosses of the majors agree with the Bank of Canada within 1%', agreement('BCAN', 'CAD'));
  test('blended PLN crosses of the majors agree with the NBP within 1%', agreement('NBPL', 'PLN'));
});
