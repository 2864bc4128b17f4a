// A JSON parser for flat request bodies, read from their bytes: one object whose values are strings,
// numbers or arrays of strings, in ASCII without escapes. It gives the very value JSON.parse would,
// or undefined for anything else (nesting, escapes, other bytes, literals, repeated or dangerous
// keys, bad syntax), which the caller hands to the generic parser, so every outcome stays the same.
// Why: V8's JSON.parse interns each short string it makes, and Fastify's parser then scans the text
// twice more for `__proto__` and `constructor`; for a bulk conversion's 150 targets that was ~10% of
// the request (docs/performance.md). Three-letter codes here come from a table of strings made once.
import type { FastifyInstance } from 'fastify';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Upper-case three-letter strings by their letters, made on first use: at most 26^3. Module-level
 *  as a memo of a pure function (letters to their string), shared by every parse so that each code
 *  is one string for the life of the process, whatever scope installed the parser. */
const CODES: (string | undefined)[] = new Array(26 ** 3).fill(undefined);
const code = (buf: Buffer, at: number, index: number) => (CODES[index] = String.fromCharCode(buf[at]!, buf[at + 1]!, buf[at + 2]!));

/** For a quote at `at` followed by three upper-case letters, their place in CODES; else -1. The
 *  bytes past the end of `buf` read as undefined, which fails every test here. */
function codeAt(buf: Buffer, at: number): number {
  if (buf[at] !== QUOTE) return -1;
  const a = buf[at + 1]! - 0x41;
  const b = buf[at + 2]! - 0x41;
  const c = buf[at + 3]! - 0x41;
  return a >= 0 && a < 26 && b >= 0 && b < 26 && c >= 0 && c < 26 ? a * 676 + b * 26 + c : -1;
}

class Reader {
  pos = 0;
  constructor(private readonly buf: Buffer) {}

  space(): void {
    for (let c = this.buf[this.pos]; c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = this.buf[this.pos]) this.pos++;
  }

  /** Skips `c` (and the blanks after it) if it comes next. */
  take(c: number): boolean {
    if (this.buf[this.pos] !== c) return false;
    this.pos++;
    this.space();
    return true;
  }

  atEnd(): boolean {
    return this.pos === this.buf.length;
  }

  /** A string of printable ASCII without escapes, and the blanks after it. */
  string(): string | undefined {
    const buf = this.buf;
    if (buf[this.pos] !== QUOTE) return undefined;
    const start = this.pos + 1;
    let end = start;
    for (let c = buf[end]; c !== QUOTE; c = buf[++end]) {
      if (c === undefined || c < 0x20 || c > 0x7e || c === BACKSLASH) return undefined;
    }
    this.pos = end + 1;
    this.space();
    const index = end - start === 3 ? codeAt(buf, start - 1) : -1;
    return index < 0 ? buf.toString('latin1', start, end) : (CODES[index] ?? code(buf, start, index));
  }

  /** JSON's number grammar exactly; the text then converts as JSON.parse converts it. */
  number(): number | undefined {
    const buf = this.buf;
    const start = this.pos;
    let at = start;
    if (buf[at] === 0x2d) at++;
    if (buf[at] === 0x30) at++;
    else if (isDigit(buf[at])) while (isDigit(buf[at])) at++;
    else return undefined;
    if (buf[at] === 0x2e) {
      if (!isDigit(buf[++at])) return undefined;
      while (isDigit(buf[at])) at++;
    }
    if (buf[at] === 0x65 || buf[at] === 0x45) {
      if (buf[++at] === 0x2b || buf[at] === 0x2d) at++;
      if (!isDigit(buf[at])) return undefined;
      while (isDigit(buf[at])) at++;
    }
    this.pos = at;
    this.space();
    return Number(buf.toString('latin1', start, at));
  }

  /** `[` strings `]`, and the blanks after it. */
  strings(): string[] | undefined {
    if (!this.take(0x5b)) return undefined;
    const out: string[] = [];
    if (this.take(0x5d)) return out;
    const buf = this.buf;
    for (;;) {
      // The usual element, `"USD"` and a comma, read in one step: this loop runs 150 times a request.
      const at = this.pos;
      const index = codeAt(buf, at);
      if (index >= 0 && buf[at + 4] === QUOTE && buf[at + 5] === 0x2c && buf[at + 6] === QUOTE) {
        out.push(CODES[index] ?? code(buf, at + 1, index));
        this.pos = at + 6;
        continue;
      }
      const s = this.string();
      if (s === undefined) return undefined;
      out.push(s);
      if (!this.take(0x2c)) return this.take(0x5d) ? out : undefined;
    }
  }

  value(): unknown {
    const c = this.buf[this.pos];
    if (c === QUOTE) return this.string();
    if (c === 0x5b) return this.strings();
    return this.number();
  }
}

const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;

/** The flat object `body` holds, as JSON.parse gives it; undefined when the body is anything else. */
export function parseFlatJson(body: Buffer): Record<string, unknown> | undefined {
  const r = new Reader(body);
  r.space();
  if (!r.take(0x7b)) return undefined;
  const out: Record<string, unknown> = {};
  if (r.take(0x7d)) return r.atEnd() ? out : undefined;
  do {
    const key = r.string();
    // Left to the generic parser: keys that touch the prototype, and repeats (the last one wins there).
    if (key === undefined || key === '__proto__' || key === 'constructor' || Object.hasOwn(out, key) || !r.take(0x3a)) return undefined;
    const value = r.value();
    if (value === undefined) return undefined;
    out[key] = value;
  } while (r.take(0x2c));
  return r.take(0x7d) && r.atEnd() ? out : undefined;
}

/** The scope's `application/json` parser: flat bodies parsed here, every other body by Fastify's own
 *  parser (same poisoning options, same text: the bytes decoded as UTF-8), so outcomes are its own. */
export function installFlatJsonParser(app: FastifyInstance): void {
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = app.initialConfig;
  const generic = app.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const flat = parseFlatJson(body as Buffer);
    if (flat === undefined) generic(request, (body as Buffer).toString('utf8'), done);
    else done(null, flat);
  });
}
