// fast-check arbitraries for exact-arithmetic property tests (src/money): plain decimal texts.
import fc from 'fast-check';

/** A plain decimal text with up to `maxDigits` digits, `maxScale` of them after the point. */
export function decimalText(maxDigits: number, maxScale: number): fc.Arbitrary<string> {
  const digits = fc.bigInt({ min: 0n, max: 10n ** BigInt(maxDigits) - 1n });
  return fc.tuple(digits, fc.integer({ min: 0, max: maxScale })).map(([d, s]) => {
    const t = d.toString().padStart(s + 1, '0');
    return s === 0 ? t : `${t.slice(0, -s)}.${t.slice(-s)}`;
  });
}
