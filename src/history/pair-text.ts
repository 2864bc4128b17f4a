// A cross rate as text, fast and exact: the 8-significant-digit text of target ÷ base per USD, as
// toRateText on decimals gives it (D6). Streaming the whole history divides millions of pairs, so
// doubles do the division, and decimals only when the double could round to different digits.
import { Decimal, toRateText } from '../money/decimal.js';

/** Wider than the double's error on a quotient of two 15-digit decimals (< 4e-16 relative). */
const MARGIN = 1e-12;

/** `target / base` (units per USD each, as doubles of ≤ 15-digit decimals) to 8 significant digits. */
export function pairText(target: number, base: number, exact: () => [string, string]): string {
  if (target === base) return '1';
  const x = target / base;
  const text = x.toPrecision(8);
  // Every value within the margin rounds alike: no tie (half-even or not) and no carry lies between.
  if ((x * (1 + MARGIN)).toPrecision(8) === text && (x * (1 - MARGIN)).toPrecision(8) === text) {
    const plain = String(Number(text));
    if (!plain.includes('e')) return plain;
  }
  const [t, b] = exact();
  return toRateText(new Decimal(t).div(b));
}
