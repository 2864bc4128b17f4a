// The unit of the metals' codes (D19): ISO 4217's XAU, XAG, XPT and XPD each stand for one troy ounce
// of the fine metal, whatever the publisher quotes. A price per 10 or 100 ounces is an ordinary unit
// multiplier (Observation.unit); a price per gram or per kilogram is turned into one per troy ounce
// here, in exact decimals, by the adapter that reads it.
import { Decimal } from '../money/decimal.js';

/** Grams in one troy ounce, exactly: the international definition of 1959 (0.45359237 kg the pound). */
export const GRAMS_PER_TROY_OUNCE = '31.1034768';

/**
 * A price per `grams` grams (`'1'` for a gram, `'1000'` for a kilogram) as the price of one troy
 * ounce: the decimal text times 31.1034768 and divided by the grams, exactly (a figure of 15 digits
 * times 9 stays far inside Decimal's 40, and a power of ten divides without a remainder).
 */
export function perTroyOunce(price: string, grams = '1'): string {
  const exact = new Decimal(price).times(GRAMS_PER_TROY_OUNCE).div(grams);
  if (exact.sd() > 30) throw new RangeError(`${price} per ${grams} g has no exact price per troy ounce`);
  return exact.toString();
}
