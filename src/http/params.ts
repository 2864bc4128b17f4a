// Request values beyond what JSON Schema can say: code shapes (D4) and amounts (D5).
import { isActiveCurrency } from '../currencies/iso4217.js';
import { amountText } from '../money/decimal.js';
import { amountFrom, type Amount } from '../money/fixed.js';
import { ApiError, type FieldProblem } from './errors.js';

const BANK_SHAPE = /^[A-Za-z0-9]{4}$/;

const isLetter = (c: number) => (c | 32) >= 97 && (c | 32) <= 122;
/** Three ASCII letters (/^[A-Za-z]{3}$/), tested by character codes: it runs for every target of a
 *  bulk conversion, where the regular expression was a measurable share. */
export const isCurrencyShape = (raw: string) => raw.length === 3 && isLetter(raw.charCodeAt(0)) && isLetter(raw.charCodeAt(1)) && isLetter(raw.charCodeAt(2));

/** A problem naming the field when `raw` is not three letters, else undefined (the caller upper-cases
 *  it). Unknown-but-well-formed is the caller's call (D4). */
export function currencyProblem(field: string, raw: string): FieldProblem | undefined {
  if (!isCurrencyShape(raw)) return { field, message: 'must be a three-letter ISO 4217 currency code' };
  return undefined;
}

/** A currency path parameter: malformed or unknown to Kurs is 422 (D4). */
export function knownCurrency(field: string, raw: string): string {
  const problem = currencyProblem(field, raw);
  if (problem) throw ApiError.invalid('invalid_parameter', [problem]);
  const code = raw.toUpperCase();
  if (!isActiveCurrency(code)) throw ApiError.invalid('invalid_parameter', [{ field, message: `${code} is not a currency Kurs quotes` }]);
  return code;
}

export function bankCode(raw: string): string {
  if (!BANK_SHAPE.test(raw)) throw ApiError.invalid('invalid_parameter', [{ field: 'bank_code', message: 'must be four letters or digits' }]);
  return raw.toUpperCase();
}

const AMOUNT_PROBLEM = 'must be a positive number no larger than 1e15';

/** D5: the amount as an exact fixed-point value; undefined when omitted, and each caller answers
 *  that as an amount of 1 (the plain body, or the rate as the converted figure). */
export function amountOf(raw: unknown, code: 'invalid_parameter' | 'invalid_body'): Amount | undefined {
  if (raw === undefined) return undefined;
  const text = amountText(raw);
  if (text === null) throw ApiError.invalid(code, [{ field: 'amount', message: AMOUNT_PROBLEM }]);
  return amountFrom(text);
}

/** D8: `reciprocal` accepts true/false/1/0. */
export function booleanFlag(field: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw ApiError.invalid('invalid_parameter', [{ field, message: 'must be true, false, 1 or 0' }]);
}
