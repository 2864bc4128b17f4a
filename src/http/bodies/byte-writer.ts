// An answer written as bytes, into slabs of memory handed out as views. For a body of hundreds of
// pieces this replaces the string join, its flattening, and the UTF-8 encoding (and length scan) of
// the result when it is sent. Every piece is ASCII.
import type { Fixed } from '../../money/fixed.js';
import { multiply } from '../../money/fixed.js';
import { FAST_FIGURE_BYTES, multiplyInto } from '../../money/fixed-bytes.js';

/** Answers share slabs of this size: no allocation and no copy per answer (a 12 KB Buffer of its own
 *  cost a malloc, a copy and the upkeep of one more ArrayBuffer, ~1 µs). */
const SLAB = 256 * 1024;

export class ByteWriter {
  private buf: Buffer;
  /** Where the answer being written starts. */
  private start = 0;
  private at = 0;

  constructor(private readonly slab = SLAB) {
    this.buf = Buffer.allocUnsafeSlow(slab);
  }

  /** Makes room for `n` more bytes: a new slab, with the answer so far, when this one is full. */
  private room(n: number): Buffer {
    if (this.at + n > this.buf.length) {
      const sofar = this.at - this.start;
      const next = Buffer.allocUnsafeSlow(Math.max(this.slab, 2 * (sofar + n)));
      this.buf.copy(next, 0, this.start, this.at);
      this.buf = next;
      this.start = 0;
      this.at = sofar;
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

  /** The bytes written since the last take, as a view of the slab. They are never written again; the
   *  slab is freed with its last view, so an answer kept for long should be kept as a copy. */
  take(): Buffer {
    const out = this.buf.subarray(this.start, this.at);
    this.start = this.at;
    return out;
  }
}

/** Latin-1 bytes of ASCII text, written once and copied into answers many times. */
export const asciiBytes = (s: string): Buffer => Buffer.from(s, 'latin1');
