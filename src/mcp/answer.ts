// What `kurs mcp` reads from Kurs before a tool answers an agent: a body read only up to the size an
// agent can take (a whole-history series of every currency is ~15 MB; the read stops at the cap and
// drops the connection), and JSON numbers kept as numbers unless a double would change them.
import { Decimal } from '../money/decimal.js';

/** The most a tool answers (bytes of JSON text): agents' context windows hold a few hundred KB. */
export const MAX_ANSWER_BYTES = 200_000;

/** A Kurs answer over the cap, stopped at `bytes` read; `cost` is what the call was charged. */
export class AnswerTooLarge extends Error {
  constructor(readonly bytes: number, readonly cost: string | null) {
    super(`the answer is over ${MAX_ANSWER_BYTES / 1000} KB`);
  }
}

/** A JSON string (skipped whole, escapes included, so digits in it stay) or a number token. */
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** A number token whose double prints back the same decimal value, as plain digits (all 8-digit
 *  blended rates, every count and status) stays a number; any other (a `converted` near 1e15 with 6
 *  decimals, a bank's long digits, the ounces of gold in a rial that a double prints as 1.6e-10)
 *  becomes its exact text in quotes. */
export const quoteInexact = (text: string): string =>
  text.replace(TOKEN, (token) => (token.charCodeAt(0) === 0x22 || (new Decimal(token).equals(new Decimal(Number(token))) && !String(Number(token)).includes('e')) ? token : `"${token}"`));

/** `fetch` for the client: the body read up to the cap (AnswerTooLarge past it) and its numbers
 *  passed through quoteInexact, so the client's JSON.parse keeps exactly what needs keeping. */
export function agentFetch(inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    const cost = res.headers.get('x-points-cost');
    const declared = Number(res.headers.get('content-length') ?? Number.NaN);
    if (declared > MAX_ANSWER_BYTES) {
      await res.body?.cancel();
      throw new AnswerTooLarge(declared, cost);
    }
    const parts: Uint8Array[] = [];
    let bytes = 0;
    if (res.body) {
      const reader = res.body.getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        bytes += next.value.byteLength;
        if (bytes > MAX_ANSWER_BYTES) {
          await reader.cancel();
          throw new AnswerTooLarge(bytes, cost);
        }
        parts.push(next.value);
      }
    }
    const text = Buffer.concat(parts).toString('utf8');
    const json = /json/.test(res.headers.get('content-type') ?? '');
    return new Response(json ? quoteInexact(text) : text, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
