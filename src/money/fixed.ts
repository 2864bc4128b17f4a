// Exact `amount × rate`, rounded half-even to 6 places (D6), without decimal.js on the request path.
// A decimal is kept as integer digits and a scale (value = digits × 10^-scale). While the product of
// the digits stays below 2^52 it is computed with plain integers held in doubles, which is exact:
// an integer that small has an exact double, and so do the product, quotient and remainder below.
// Anything larger takes the same steps in BigInt. Either way no binary fraction is ever formed.

const PLAIN = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** 2^52: below it `p - q × d` and `2 × rem` are exact too, not just `p` itself. */
export const SMALL = 2 ** 52;
const SMALL_BIG = BigInt(SMALL);
/** 10^e is exact as a double up to 10^22 (fixed-bytes.ts uses the same table). */
export const POW10 = Array.from({ length: 23 }, (_, e) => 10 ** e);

export class Fixed {
  /** The digits as a double when that is exact and small, for the fast path. */
  readonly small: number | undefined;

  private constructor(
    readonly digits: bigint,
    readonly scale: number,
  ) {
    this.small = digits < SMALL_BIG ? Number(digits) : undefined;
  }

  /** A non-negative decimal as `toString()` of ours writes it: plain, or with an exponent. */
  static parse(text: string): Fixed {
    const m = PLAIN.exec(text);
    if (!m) throw new Error(`not a plain decimal: ${text}`);
    const frac = m[2] ?? '';
    return new Fixed(BigInt(m[1]! + frac), frac.length - Number(m[3] ?? 0));
  }
}

/** An amount as an answer shows it (the canonical text of its Decimal) and as digits. */
export interface Amount {
  text: string;
  fixed: Fixed;
}

export function amountFrom(text: string): Amount {
  return { text, fixed: Fixed.parse(text) };
}

/** `a × b` rounded half-even to `places` decimals, as plain text without trailing zeros. */
export function multiply(a: Fixed, b: Fixed, places: number): string {
  const scale = a.scale + b.scale;
  const excess = scale - places;
  if (a.small !== undefined && b.small !== undefined) {
    const p = a.small * b.small;
    if (p < SMALL && excess <= 22 && scale >= 0) {
      if (excess <= 0) return scaled(p, scale);
      const d = POW10[excess]!;
      // The quotient is rounded, but never across an integer: for that, p/d would have to lie within
      // half an ulp of one, and p < 2^52 keeps it at least 1/d away. So its floor is exact.
      let q = Math.floor(p / d);
      const rem = p - q * d;
      if (2 * rem > d || (2 * rem === d && q % 2 === 1)) q += 1;
      return scaled(q, places);
    }
  }
  return multiplyBig(a.digits * b.digits, scale, places);
}

function multiplyBig(p: bigint, scale: number, places: number): string {
  const excess = scale - places;
  if (excess <= 0) return withPoint(p.toString(), scale);
  const d = 10n ** BigInt(excess);
  let q = p / d;
  const rem = p - q * d;
  if (2n * rem > d || (2n * rem === d && q % 2n === 1n)) q += 1n;
  return withPoint(q.toString(), places);
}

const ZEROS = Array.from({ length: 23 }, (_, n) => '0'.repeat(n));

/**
 * The integer `n` < 2^52 as text, in pieces below 10^9. Number-to-text of a large double costs ~100 ns
 * unless V8's small cache of recent conversions has it; pieces this size take the fast integer path.
 */
function integerText(n: number): string {
  if (n < 1e9) return `${n}`;
  const high = Math.floor(n / 1e9);
  const low = `${n - high * 1e9}`;
  return integerText(high) + ZEROS[9 - low.length]! + low;
}

/** `q` × 10^-places (q < 2^52, 0 ≤ places ≤ 22) as plain text, whole and fraction formed apart. */
function scaled(q: number, places: number): string {
  if (places === 0) return integerText(q);
  const unit = POW10[places]!;
  const whole = Math.floor(q / unit); // exact, as in multiply
  let fraction = q - whole * unit;
  if (fraction === 0) return integerText(whole);
  let digits = places;
  while (fraction % 10 === 0) (fraction /= 10), digits--;
  const text = integerText(fraction);
  return `${integerText(whole)}.${ZEROS[digits - text.length]!}${text}`;
}

/** Integer digits `n` × 10^-places as plain text: no trailing zeros after a point, no lone point. */
function withPoint(n: string, places: number): string {
  if (places <= 0) return n === '0' ? n : n + '0'.repeat(-places);
  const padded = n.length <= places ? '0'.repeat(places - n.length + 1) + n : n;
  let end = padded.length;
  while (end > padded.length - places && padded.charCodeAt(end - 1) === 48) end--;
  const whole = padded.slice(0, padded.length - places);
  return end === padded.length - places ? whole : `${whole}.${padded.slice(padded.length - places, end)}`;
}
