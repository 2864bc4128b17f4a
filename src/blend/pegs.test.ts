import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HISTORIC_CURRENCIES } from '../currencies/iso4217.js';
import { addDays } from '../time/days.js';
import { PEGS, pegsOn } from './pegs.js';

const rateOn = (day: string, code: string) => {
  const p = pegsOn(day).get(code);
  return p && `${p.rate} per ${p.anchor}`;
};

test('pegsOn: the euro conversion rates hold from entry for as long as the legacy currency is quoted', () => {
  assert.equal(rateOn('2000-06-01', 'DEM'), '1.95583 per EUR');
  assert.equal(rateOn('1998-06-01', 'DEM'), undefined);
  assert.equal(rateOn('2001-12-31', 'DEM'), '1.95583 per EUR');
  assert.equal(rateOn('2002-01-01', 'DEM'), undefined);
  assert.equal(rateOn('2000-12-31', 'GRD'), undefined);
  assert.equal(rateOn('2001-01-01', 'GRD'), '340.75 per EUR');
  assert.equal(rateOn('2023-01-14', 'HRK'), '7.5345 per EUR');
  assert.equal(rateOn('2023-01-15', 'HRK'), undefined);
  const until = new Map(HISTORIC_CURRENCIES.map((c) => [c.code, c.until]));
  for (const p of PEGS.filter((p) => p.note === 'irrevocable conversion rate')) assert.equal(p.to, until.get(p.currency), p.currency);
});

test('pegsOn: pegs introduced later do not reach back before they began', () => {
  assert.equal(rateOn('2025-03-30', 'XCG'), undefined);
  assert.equal(rateOn('2025-03-31', 'XCG'), '1.79 per USD');
  assert.equal(rateOn('2017-12-31', 'STN'), undefined);
  assert.equal(rateOn('2018-01-01', 'STN'), '24.5 per EUR');
  assert.equal(rateOn('2009-12-31', 'STD'), undefined);
  assert.equal(rateOn('2018-06-30', 'STD'), '24500 per EUR');
  assert.equal(rateOn('2017-06-01', 'AZN'), undefined);
  assert.equal(rateOn('2018-04-01', 'AZN'), '1.7 per USD');
  // ANG hands over to XCG: both hold during the three months of dual circulation.
  assert.equal(rateOn('2025-06-30', 'ANG'), '1.79 per USD');
  assert.equal(rateOn('2025-07-01', 'ANG'), undefined);
});

test('pegsOn: the lev, from the Deutsche Mark to the currency board on the euro to the euro itself', () => {
  assert.equal(rateOn('1997-06-30', 'BGL'), undefined);
  assert.equal(rateOn('1997-07-01', 'BGL'), '1000 per DEM');
  assert.equal(rateOn('1999-01-01', 'BGL'), '1955.83 per EUR');
  assert.equal(rateOn('1999-07-04', 'BGN'), undefined);
  assert.equal(rateOn('1999-07-05', 'BGN'), '1.95583 per EUR');
  assert.equal(pegsOn('2008-09-15').get('BGN')!.authority, 'Bulgarian National Bank (currency board)');
  assert.match(pegsOn('2026-01-01').get('BGN')!.authority, /^Council of the European Union/);
  assert.equal(rateOn('2026-01-31', 'BGN'), '1.95583 per EUR');
  assert.equal(rateOn('2026-02-01', 'BGN'), undefined);
  // The CFA franc's anchor and rate change with the French franc's devaluation and the euro.
  assert.equal(rateOn('1994-01-11', 'XOF'), '50 per FRF');
  assert.equal(rateOn('1994-01-12', 'XOF'), '100 per FRF');
  assert.equal(rateOn('1999-01-01', 'XOF'), '655.957 per EUR');
});

test('every peg: a positive rate, from ≤ to, dates that are days', () => {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  for (const p of PEGS) {
    const name = `${p.currency} from ${p.from}`;
    assert.ok(p.rate.gt(0), name);
    assert.match(p.from, day, name);
    assert.ok(addDays(p.from, 0) === p.from, name);
    if (p.to !== undefined) {
      assert.ok(addDays(p.to, 0) === p.to, name);
      assert.ok(p.from <= p.to, name);
    }
    assert.ok(p.authority.length > 0 && p.currency !== p.anchor, name);
  }
});

test('at most one peg per currency on any day, and no anchor pegged itself that day', () => {
  // Every day on which some peg starts or ends, and the days either side: between them nothing changes.
  const days = new Set(PEGS.flatMap((p) => [p.from, addDays(p.from, -1), ...(p.to ? [p.to, addDays(p.to, 1)] : [])]));
  for (const day of days) {
    const inForce = PEGS.filter((p) => p.from <= day && (p.to === undefined || day <= p.to));
    assert.equal(new Set(inForce.map((p) => p.currency)).size, inForce.length, `two pegs for one currency on ${day}`);
    assert.deepEqual([...pegsOn(day).values()], inForce, day);
    // Pegs apply in one pass, so an anchor must not itself be pegged on the same day.
    for (const p of inForce) assert.ok(!pegsOn(day).has(p.anchor), `${p.currency}'s anchor ${p.anchor} is pegged on ${day}`);
  }
});

test('pegsOn answers the same map for every day of an interval', () => {
  assert.equal(pegsOn('2005-03-01'), pegsOn('2005-09-30'));
  assert.notEqual(pegsOn('2001-12-31'), pegsOn('2002-01-01'));
});
