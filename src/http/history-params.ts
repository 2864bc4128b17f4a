// Request values of the history endpoints (D14, D15): dates, ranges, symbols and range formats.
import { HISTORIC_CURRENCIES, isActiveCurrency, isKnownCode } from '../currencies/iso4217.js';
import type { RangeFormat } from './bodies/range.js';
import { ApiError } from './errors.js';
import { currencyProblem } from './params.js';

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;
const HISTORIC = new Set(HISTORIC_CURRENCIES.map((c) => c.code));
/** D15: at most this many codes in `symbols`. */
export const MAX_SYMBOLS = 500;

/** D14: a real calendar day, YYYY-MM-DD, not after `today` (UTC); anything else is 422. */
export function dayParam(field: string, raw: string, today: string): string {
  if (!DATE_SHAPE.test(raw)) throw ApiError.invalid('invalid_parameter', [{ field, message: 'must be a date shaped YYYY-MM-DD' }]);
  const t = Date.parse(`${raw}T00:00:00Z`);
  // Date.parse rolls 2026-02-30 over to March: the day must read back unchanged.
  const valid = !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === raw;
  if (!valid) throw ApiError.invalid('invalid_parameter', [{ field, message: `must be a calendar day; ${raw} is not one` }]);
  if (raw > today) throw ApiError.invalid('invalid_parameter', [{ field, message: `must not be after today (${today}, UTC)` }]);
  return raw;
}

/** The same rule for a JSON body field. */
export function dayField(raw: unknown, today: string): string {
  if (typeof raw !== 'string') throw ApiError.invalid('invalid_body', [{ field: 'date', message: 'must be a date shaped YYYY-MM-DD' }]);
  try {
    return dayParam('date', raw, today);
  } catch (err) {
    if (err instanceof ApiError) throw new ApiError('invalid_body', err.message, err.details);
    throw err;
  }
}

/** A currency of history: active, or defunct (D14: they appear on days they were current). */
export function historyCurrency(field: string, raw: string): string {
  const problem = currencyProblem(field, raw);
  if (problem) throw ApiError.invalid('invalid_parameter', [problem]);
  const code = raw.toUpperCase();
  if (!isActiveCurrency(code) && !HISTORIC.has(code)) throw ApiError.invalid('invalid_parameter', [{ field, message: `${code} is not a currency Kurs quotes` }]);
  return code;
}

/** D15: `start` ≤ `end` ≤ today. */
export function rangeParams(start: string | undefined, end: string | undefined, today: string): { start: string; end: string } {
  if (start === undefined) throw ApiError.invalid('invalid_parameter', [{ field: 'start', message: 'is required (YYYY-MM-DD)' }]);
  if (end === undefined) throw ApiError.invalid('invalid_parameter', [{ field: 'end', message: 'is required (YYYY-MM-DD)' }]);
  const s = dayParam('start', start, today);
  const e = dayParam('end', end, today);
  if (s > e) throw ApiError.invalid('invalid_parameter', [{ field: 'start', message: 'must not be after end' }]);
  return { start: s, end: e };
}

/** D15: comma-separated codes, at most 500, each a currency Kurs knows (for a bank, any code it may
 *  publish, metals included); duplicates once. */
export function symbolsParam(raw: string | undefined, bank = false): string[] | undefined {
  if (raw === undefined) return undefined;
  const codes = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (codes.length === 0) throw ApiError.invalid('invalid_parameter', [{ field: 'symbols', message: 'must list at least one currency code' }]);
  if (codes.length > MAX_SYMBOLS) throw ApiError.invalid('invalid_parameter', [{ field: 'symbols', message: `must list at most ${MAX_SYMBOLS} codes` }]);
  const known = (c: string) => {
    if (!bank) return historyCurrency('symbols', c);
    const code = c.toUpperCase();
    if (currencyProblem('symbols', c) || !isKnownCode(code)) throw ApiError.invalid('invalid_parameter', [{ field: 'symbols', message: `${c} is not a currency code Kurs knows` }]);
    return code;
  };
  return [...new Set(codes.map(known))];
}

/** D15: `format=csv|ndjson`, or that Accept; JSON otherwise. */
export function rangeFormat(format: string | undefined, accept: string | undefined): RangeFormat {
  if (format !== undefined) {
    if (format === 'csv' || format === 'ndjson' || format === 'json') return format;
    throw ApiError.invalid('invalid_parameter', [{ field: 'format', message: 'must be json, csv or ndjson' }]);
  }
  if (accept?.includes('text/csv')) return 'csv';
  if (accept?.includes('application/x-ndjson') || accept?.includes('application/ndjson')) return 'ndjson';
  return 'json';
}
