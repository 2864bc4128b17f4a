// An answer written as bytes into one reused buffer, then copied out at its exact length. For a
// body of hundreds of pieces this replaces the string join, its flattening, and the UTF-8 encoding
// (and length scan) of the result when it is sent. Every piece is ASCII.
import type { Fixed } from '../money/fixed.js';
import { multiply } from '../money/fixed.js';
import { FAST_FIGURE_BYTES, multiplyInto } from '../money/fixed-bytes.js';

export class ByteWriter {
  private buf: Buffer;
  private at = 0;

  constructor(size = 16 * 1024) {
    this.buf = Buffer.allocUnsafeSlow(size);
  }

  /** Makes room for `n` more bytes. */
  private room(n: number): Buffer {
    if (this.at + n > this.buf.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(2 * this.buf.length, this.at + n));
      this.buf.copy(bigger, 0, 0, this.at);
      this.buf = bigger;
    }
    return this.buf;
  }

  bytes(b: Uint8Array): void {
    this.room(b.length).set(b, this.at);
    this.at += b.length;
  }

  /** ASCII text; a code or a figure, never anything that needs escaping. */
  ascii(s: string): void {
    const buf = this.room(s.length);
    for (let i = 0; i < s.length; i++) buf[this.at + i] = s.charCodeAt(i);
    this.at += s.length;
  }

  /** `multiply(a, b, places)`, its digits written in place on the fast path. */
  product(a: Fixed, b: Fixed, places: number): void {
    const end = multiplyInto(this.room(FAST_FIGURE_BYTES), this.at, a, b, places);
    if (end < 0) this.ascii(multiply(a, b, places));
    else this.at = end;
  }

  /** The bytes written since the last take, as a Buffer of their own; the writer starts over. */
  take(): Buffer {
    const out = Buffer.allocUnsafeSlow(this.at);
    this.buf.copy(out, 0, 0, this.at);
    this.at = 0;
    return out;
  }
}

/** Latin-1 bytes of ASCII text, written once and copied into answers many times. */
export const asciiBytes = (s: string): Buffer => Buffer.from(s, 'latin1');
