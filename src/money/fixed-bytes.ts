// `multiply` written straight into a byte buffer, for answers built as bytes (the bulk conversion).
// Text made by number-to-string costs an allocation and, for doubles above 2^31, V8's slow path
// unless its small cache holds the figure: 150 converted figures a request were ~10% of its CPU.
// Here the digits go into the buffer one by one, as ASCII, with integer arithmetic only.
import { type Fixed, POW10, SMALL } from './fixed.js';

/** Room a caller must leave for one figure from the fast path: `0.` and 22 places at most (q < 2^52
 *  has 16 digits, so a longer figure can only be a fraction padded with zeros). */
export const FAST_FIGURE_BYTES = 24;

/**
 * `multiply(a, b, places)` as ASCII bytes at `at` in `out`, where FAST_FIGURE_BYTES must be free;
 * returns the end. Off the fast path (a product past 2^52, exponents far out) it writes nothing and
 * returns -1: the caller then writes `multiply`'s text, which takes BigInt and is rare.
 */
export function multiplyInto(out: Uint8Array, at: number, a: Fixed, b: Fixed, places: number): number {
  const scale = a.scale + b.scale;
  const excess = scale - places;
  if (a.small === undefined || b.small === undefined || scale < 0 || excess > 22) return -1;
  const p = a.small * b.small;
  if (p >= SMALL) return -1;
  if (excess <= 0) return scaledInto(out, at, p, scale);
  const d = POW10[excess]!;
  // Exact, as in multiply: p < 2^52 keeps p/d at least 1/d away from an integer it could round to.
  let q = Math.floor(p / d);
  const rem = p - q * d;
  if (2 * rem > d || (2 * rem === d && q % 2 === 1)) q += 1;
  return scaledInto(out, at, q, places);
}

/** `q` × 10^-places (q < 2^52, places ≤ 22): no trailing zeros after a point, no lone point. */
function scaledInto(out: Uint8Array, at: number, q: number, places: number): number {
  if (places === 0) return integerInto(out, at, q);
  const unit = POW10[places]!;
  const whole = Math.floor(q / unit); // exact: q < 2^52
  at = integerInto(out, at, whole);
  let fraction = q - whole * unit;
  if (fraction === 0) return at;
  out[at++] = 46; // '.'
  let digits = places;
  if (places <= 9) {
    // The usual case (6 places): a fraction below 10^9, so `| 0` keeps it in 32-bit integer steps;
    // on doubles, each `%` here cost more than the rest of the figure.
    fraction |= 0;
    while (fraction % 10 === 0) (fraction = (fraction / 10) | 0), digits--;
  } else {
    while (fraction % 10 === 0) (fraction /= 10), digits--;
  }
  return paddedInto(out, at, fraction, digits);
}

/** The integer `n` < 2^52, without leading zeros. */
function integerInto(out: Uint8Array, at: number, n: number): number {
  if (n >= 1e9) {
    const high = Math.floor(n / 1e9); // < 2^52 / 10^9, so below 2^31
    return digitsInto(out, integerInto(out, at, high), (n - high * 1e9) | 0, 9);
  }
  let length = 1;
  for (let limit = 10; n >= limit; limit *= 10) length++;
  return digitsInto(out, at, n | 0, length);
}

/** The integer `n` < 2^52 as exactly `length` digits, zero-padded on the left. */
function paddedInto(out: Uint8Array, at: number, n: number, length: number): number {
  const end = at + length;
  for (; length > 9; length -= 9) {
    const high = Math.floor(n / 1e9);
    digitsInto(out, at + length - 9, (n - high * 1e9) | 0, 9);
    n = high;
  }
  digitsInto(out, at, n | 0, length);
  return end;
}

/** "00" to "99" as ASCII pairs: two digits per division, where one a digit was most of a figure's cost. */
const PAIRS = Uint8Array.from({ length: 200 }, (_, i) => 48 + (i % 2 === 0 ? Math.floor(i / 20) : (i >> 1) % 10));

/** The 32-bit integer `n` (< 10^length) as exactly `length` digits, zero-padded on the left. */
function digitsInto(out: Uint8Array, at: number, n: number, length: number): number {
  let i = at + length - 1;
  for (; i > at; i -= 2) {
    const next = (n / 100) | 0;
    const pair = (n - next * 100) << 1;
    out[i] = PAIRS[pair + 1]!;
    out[i - 1] = PAIRS[pair]!;
    n = next;
  }
  if (i === at) out[at] = 48 + n;
  return at + length;
}
