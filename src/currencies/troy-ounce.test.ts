import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Decimal } from '../money/decimal.js';
import { GRAMS_PER_TROY_OUNCE, perTroyOunce } from './troy-ounce.js';

test('a troy ounce is 480 grains of 64.79891 mg: 31.1034768 g exactly', () => {
  assert.equal(new Decimal('64.79891').times(480).div(1000).toString(), GRAMS_PER_TROY_OUNCE);
});

test('a price per gram becomes a price per troy ounce exactly, every digit kept', () => {
  // BNR's gold of 2026-01-05 (RON per gram) and the CBA's gold of 2026-03-18 (AMD per gram).
  assert.equal(perTroyOunce('621.3365'), '19325.7254127432');
  assert.equal(perTroyOunce('60871'), '1893299.7362928');
  // Back to the gram without loss: the publisher's own figure is recoverable.
  assert.equal(new Decimal(perTroyOunce('621.3365')).div(GRAMS_PER_TROY_OUNCE).toString(), '621.3365');
});

test('a price per kilogram is divided by a thousand after the same product', () => {
  assert.equal(perTroyOunce('4500000', '1000'), '139965.6456');
  assert.equal(perTroyOunce('1', '1000'), '0.0311034768');
});

test('a figure that is not a decimal is refused', () => {
  assert.throws(() => perTroyOunce('12,5'));
  assert.throws(() => perTroyOunce('1', '7'), RangeError);
});
