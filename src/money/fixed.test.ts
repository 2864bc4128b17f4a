import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decimalText } from '../../test/support/decimals.js';
import { Decimal, parseAmount } from './decimal.js';
import { Fixed, multiply } from './fixed.js';

/** The reference: decimal.js at 80 digits (exact for every case below), rounded half-even to 6 places. */
const Exact = Decimal.clone({ precision: 80 });
const reference = (a: string, b: string) => new Exact(a).times(b).toDecimalPlaces(6, Decimal.ROUND_HALF_EVEN).toString();
const times = (a: string, b: string) => multiply(Fixed.parse(a), Fixed.parse(b), 6);

test('multiply is exact and rounds half-even to 6 places', () => {
  assert.equal(times('0.1', '3'), '0.3');
  assert.equal(times('0.1', '0.2'), '0.02');
  assert.equal(times('1', '0.0000005'), '0');
  assert.equal(times('1', '0.0000015'), '0.000002');
  assert.equal(times('1', '0.0000025'), '0.000002');
  assert.equal(times('3', '0.0000005'), '0.000002');
  assert.equal(times('1000000000000000', '1234.5678'), '1234567800000000000');
  assert.equal(times('1234.56', '1.1606993'), '1432.952928');
  assert.equal(times('2', '0.5'), '1');
  assert.equal(times('1e-51', '25000'), '0');
  assert.equal(times('5e3', '2'), '10000');
  // The BigInt path: digits whose product passes 2^52.
  assert.equal(times('123456789012345.678', '98765.432'), '12193263100137174221.002896');
  assert.equal(times('999999999999999.9999999', '0.00000125'), '1250000000');
});

test('multiply agrees with decimal arithmetic on every amount and rate shape', () => {
  fc.assert(
    fc.property(decimalText(18, 12), decimalText(8, 14), (amount, rate) => {
      assert.equal(times(amount, rate), reference(amount, rate), `${amount} × ${rate}`);
    }),
    { numRuns: 20_000 },
  );
});

test('amounts as parseAmount writes them parse back to the same value', () => {
  for (const raw of ['12.50', '1e3', '1e-30', '0.000001', '999999999999999.999999']) {
    const text = parseAmount(raw)!.toString();
    assert.equal(times(text, '1'), reference(text, '1'), raw);
  }
  assert.throws(() => Fixed.parse('-1'));
  assert.throws(() => Fixed.parse('1,5'));
});
