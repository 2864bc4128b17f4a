// JSON with every number kept as its exact decimal text. A `converted` of up to 1e15 with 6 decimals
// has more digits than a double holds; here `"converted": 123456789012345.123456` comes back as the
// string "123456789012345.123456". Number tokens outside strings are quoted, then JSON.parse reads it.

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

export function parseExact(text: string): unknown {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip a whole string, escapes included, so digits inside it stay as they are.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m) continue;
      out += `${text.slice(from, i)}"${m[0]}"`;
      i += m[0].length - 1;
      from = i + 1;
    }
  }
  return JSON.parse(out + text.slice(from));
}

/** A body type with every number as its decimal text, for `exact: true`. */
export type Exact<T> = T extends number ? string : T extends readonly (infer U)[] ? Exact<U>[] : T extends object ? { [K in keyof T]: Exact<T[K]> } : T;
