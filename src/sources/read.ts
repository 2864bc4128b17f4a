// Helpers every adapter shares for reading a payload, so that each error names the source the
// same way and no adapter forgets to turn a JSON syntax error into a ParseError.
import { ParseError } from './types.js';

/** A `fail(message)` that throws a ParseError for this source. */
export function failFor(code: string): (message: string) => never {
  return (message: string): never => {
    throw new ParseError(code, message);
  };
}

/** JSON.parse, with a syntax error (an HTML page, a cut-off body) reported as a ParseError. */
export function parseJson(code: string, what: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ParseError(code, `${what} is not JSON: ${(err as Error).message}`);
  }
}
