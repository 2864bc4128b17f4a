import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decimalText } from '../../test/support/decimals.js';
import { Decimal } from './decimal.js';
import { Fixed, multiply } from './fixed.js';
import { FAST_FIGURE_BYTES, multiplyInto } from './fixed-bytes.js';

/** The reference: decimal.js at 80 digits (exact for every case below), rounded half-even. */
const Exact = Decimal.clone({ precision: 80 });
const reference = (a: string, b: string, places: number) => new Exact(a).times(b).toDecimalPlaces(places, Decimal.ROUND_HALF_EVEN).toString();

/** The figure as multiplyInto writes it (within its room), or multiply's text where it declines. */
function written(a: string, b: string, places: number): string {
  const [x, y] = [Fixed.parse(a), Fixed.parse(b)];
  const out = new Uint8Array(FAST_FIGURE_BYTES + 8).fill(0x7e);
  const end = multiplyInto(out, 4, x, y, places);
  const untouched = (from: number) => assert.ok(out.subarray(0, 4).every((c) => c === 0x7e) && out.subarray(from).every((c) => c === 0x7e), `${a} × ${b}: wrote outside its figure`);
  if (end < 0) {
    untouched(4);
    return multiply(x, y, places);
  }
  assert.ok(end - 4 <= FAST_FIGURE_BYTES, `${a} × ${b}: ${end - 4} bytes`);
  untouched(end);
  return Buffer.from(out.subarray(4, end)).toString('latin1');
}

test('multiplyInto writes what multiply returns, on the fast path and off it', () => {
  const cases: [string, string][] = [
    ['0.1', '3'],
    ['1', '0.0000005'],
    ['1', '0.0000015'],
    ['1000000000000000', '1234.5678'],
    ['1234.56', '1.1606993'],
    ['2', '0.5'],
    ['1e-51', '25000'],
    ['5e3', '2'],
    ['123456789012345.678', '98765.432'],
    ['999999999999999.9999999', '0.00000125'],
    ['1000.37', '0.0000071'],
    ['4503599627370495', '1'],
    ['450359962737049.5', '0.1'],
    ['99999999.999999', '1'],
  ];
  for (const [a, b] of cases) assert.equal(written(a, b, 6), multiply(Fixed.parse(a), Fixed.parse(b), 6), `${a} × ${b}`);
  assert.equal(written('1', '0.0000000000000000000001', 22), '0.0000000000000000000001');
  // The longest figure of the fast path: a fraction with 22 places.
  assert.equal(written('4503599627370495', '0.0000000000000000000001', 22), '0.0000004503599627370495');
});

test('multiplyInto agrees with decimal arithmetic on every amount and rate shape', () => {
  fc.assert(
    fc.property(decimalText(18, 12), decimalText(8, 14), fc.integer({ min: 0, max: 8 }), (amount, rate, places) => {
      assert.equal(written(amount, rate, places), reference(amount, rate, places), `${amount} × ${rate} to ${places} places`);
    }),
    { numRuns: 20_000 },
  );
});
