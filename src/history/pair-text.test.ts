import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { Decimal, toRateText } from '../money/decimal.js';
import { pairText } from './pair-text.js';

const fifteen = fc.tuple(fc.integer({ min: 1, max: 999_999_999 }), fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: -9, max: 6 })).map(([a, b, e]) => new Decimal(`${a}${String(b).padStart(6, '0')}e${e}`).toSignificantDigits(15).toString());

test('pairText equals the decimal division rounded to 8 digits, ties and carries included', () => {
  fc.assert(
    fc.property(fifteen, fifteen, (t, b) => {
      assert.equal(pairText(Number(t), Number(b), () => [t, b]), toRateText(new Decimal(t).div(b)));
    }),
    { numRuns: 20_000 },
  );
  for (const [t, b] of [['1.234567850', '1'], ['1.23456785', '1'], ['9.99999995', '1'], ['0.000000123456785', '1'], ['3', '7'], ['2', '2']]) {
    assert.equal(pairText(Number(t), Number(b), () => [t!, b!]), toRateText(new Decimal(t!).div(b!)), `${t}/${b}`);
  }
});
