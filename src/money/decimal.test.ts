import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { amountText, cleanDecimal, parseAmount, toRateText } from './decimal.js';
import { Num, stringify } from './json.js';

test('cleanDecimal removes float noise and keeps published digits', () => {
  assert.equal(cleanDecimal(4.9684999999999997), '4.9685');
  assert.equal(cleanDecimal('4.9684999999999997'), '4.9685');
  assert.equal(cleanDecimal('0.84770'), '0.84770');
  assert.equal(cleanDecimal(' 24,540 '), '24.540');
  assert.equal(cleanDecimal('007.5'), '7.5');
  assert.equal(cleanDecimal(2.8e-6), '0.0000028');
  for (const bad of ['', 'abc', '1.2.3', 'NaN', '1,234.5']) assert.throws(() => cleanDecimal(bad), bad);
  assert.throws(() => cleanDecimal(Number.POSITIVE_INFINITY));
});

test('parseAmount accepts positive finite decimals up to 1e15 only (D5)', () => {
  for (const [raw, text] of [['12', '12'], ['12.50', '12.5'], ['1e3', '1000'], [0.1, '0.1'], ['1e15', '1000000000000000']] as const) {
    assert.equal(parseAmount(raw)?.toString(), text);
  }
  for (const bad of ['0', '-1', 'abc', '', '1e999', '1e16', 'NaN', 'Infinity', ' ', '0x10', '1e-999', null, true, [], {}, Number.NaN]) {
    assert.equal(parseAmount(bad), null, String(bad));
  }
});

test('toRateText keeps 8 significant digits without exponent notation', () => {
  assert.equal(toRateText(parseAmount('1')!.div(3)), '0.33333333');
  assert.equal(toRateText(parseAmount('1')!.div('150000')), '0.0000066666667');
  // An ounce of gold in rials and a rial in ounces of gold (D19): many digits, still plain.
  assert.equal(toRateText(parseAmount('5740132812.3')!), '5740132800');
  assert.equal(toRateText(parseAmount('1')!.div('5740132812.3')), '0.000000000174212');
  assert.equal(toRateText(parseAmount('123456789012345')!.times('1000000')), '123456790000000000000');
});

test('stringify writes Num as its exact decimal text', () => {
  assert.equal(stringify({ a: new Num('0.30000000000000004000'), b: [new Num('1'), 'x'], c: undefined, d: null }), '{"a":0.30000000000000004000,"b":[1,"x"],"d":null}');
});

test('amountText is the text of parseAmount, for plain decimals read without decimal.js', () => {
  const reference = (raw: unknown) => parseAmount(raw)?.toString() ?? null;
  for (const raw of ['1000.37', '0012.50', '0.000001', '000', '0.0', '1.', '.5', '1e3', ' 1', '999999999999999.99', '1000000000000000', '0001000000000000000', '1,5', '', '-1', '+1', '10.0000', 12.5, null]) {
    assert.equal(amountText(raw), reference(raw), String(raw));
  }
  const digits = fc.string({ unit: fc.constantFrom('0', '0', '0', '1', '5', '9'), maxLength: 20 });
  const text = fc.oneof(
    fc.tuple(digits, fc.option(digits)).map(([w, f]) => (f === null ? w : `${w}.${f}`)),
    fc.string({ unit: fc.constantFrom(...'0123456789.eE+- '.split('')), maxLength: 34 }),
  );
  fc.assert(fc.property(text, (raw) => assert.equal(amountText(raw), reference(raw), raw)), { numRuns: 20_000 });
});
