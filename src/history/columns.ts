// Every materialised day in memory, compactly: per currency a column of 8-byte floats (units per
// USD) and one of bank_update instants (4-byte seconds since 1970), one slot per calendar day. A
// float holds any decimal of up to 15 significant digits exactly (the blend's precision); the rare
// longer one (a peg applied to a blend) is kept as text beside. ~185 currencies × 14,900 days is
// ~33 MB.
import { Decimal } from '../money/decimal.js';
import type { DayRates } from './day.js';

const DAY_MS = 86_400_000;
/** Slots added when the columns grow: a year and a bit, so daily growth rarely reallocates. A bulk
 *  load reserves its span first: grown day by day, the columns were copied ~40 times, and each copy
 *  (~40 MB) stays garbage until a full collection. */
const GROW_DAYS = 400;

export const dayNumber = (day: string): number => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
export const dayText = (n: number): string => new Date(n * DAY_MS).toISOString().slice(0, 10);
const instant = (stamp: string): number => Date.parse(`${stamp.replace(' ', 'T')}Z`) / 1000;
export const stampText = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');

/** True when a decimal text has more than 15 significant digits (a float would not keep it). */
function beyondFloat(text: string): boolean {
  // 15 characters or fewer cannot hold more digits than that: the common case, without regexes.
  if (text.length <= 15) return false;
  const mantissa = text.replace(/^-/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '');
  return mantissa.replace(/0+$/, '').length > 15;
}

export interface Column {
  perUsd: Float64Array;
  /** Seconds since 1970 (a Uint32 lasts until 2106). */
  bank: Uint32Array;
}

export class HistoryColumns {
  /** Day number of slot 0. */
  private start = 0;
  private capacity = 0;
  private present = new Uint8Array(0);
  private readonly columns = new Map<string, Column>();
  private readonly exact = new Map<string, string>();

  /** Replaces one day. */
  set(day: string, rates: DayRates): void {
    const slot = this.slotFor(dayNumber(day));
    for (const col of this.columns.values()) col.perUsd[slot] = NaN;
    for (const [code, r] of rates) {
      const col = this.column(code);
      const key = `${slot} ${code}`;
      if (beyondFloat(r.perUsd)) this.exact.set(key, r.perUsd);
      else this.exact.delete(key);
      col.perUsd[slot] = Number(r.perUsd);
      col.bank[slot] = instant(r.bankUpdate);
    }
    this.present[slot] = 1;
  }

  /** Makes room for `from..to` at once (a load knows its span: no growing copies on the way). */
  reserve(from: string, to: string): void {
    if (from > to) return;
    this.slotFor(dayNumber(from));
    this.slotFor(dayNumber(to));
  }

  has(day: string): boolean {
    const slot = dayNumber(day) - this.start;
    return slot >= 0 && slot < this.capacity && this.present[slot] === 1;
  }

  /** True when every day of `from..to` is materialised. */
  allPresent(from: string, to: string): boolean {
    const lo = dayNumber(from) - this.start;
    const hi = dayNumber(to) - this.start;
    if (lo < 0 || hi >= this.capacity) return false;
    for (let slot = lo; slot <= hi; slot++) if (this.present[slot] !== 1) return false;
    return true;
  }

  /** The day as stored, or undefined when it is not materialised. */
  get(day: string): Map<string, { perUsd: Decimal; bankUpdate: string }> | undefined {
    if (!this.has(day)) return undefined;
    const slot = dayNumber(day) - this.start;
    const out = new Map<string, { perUsd: Decimal; bankUpdate: string }>();
    for (const [code, col] of this.columns) {
      const v = col.perUsd[slot]!;
      if (Number.isNaN(v)) continue;
      out.set(code, { perUsd: new Decimal(this.exact.get(`${slot} ${code}`) ?? v.toPrecision(15)), bankUpdate: stampText(col.bank[slot]!) });
    }
    return out;
  }

  /** Range readers: the slot of a day (undefined outside the columns), and a currency's columns. */
  slotOf(day: string): number | undefined {
    const slot = dayNumber(day) - this.start;
    return slot >= 0 && slot < this.capacity ? slot : undefined;
  }

  series(code: string): Readonly<Column> | undefined {
    return this.columns.get(code);
  }

  /** Every currency that has a column, in code order. */
  codes(): string[] {
    return [...this.columns.keys()].sort();
  }

  /** The exact decimal text of a stored value. */
  text(slot: number, code: string): string {
    return this.exact.get(`${slot} ${code}`) ?? this.columns.get(code)!.perUsd[slot]!.toPrecision(15);
  }

  private column(code: string): Column {
    let col = this.columns.get(code);
    if (!col) {
      col = { perUsd: new Float64Array(this.capacity).fill(NaN), bank: new Uint32Array(this.capacity) };
      this.columns.set(code, col);
    }
    return col;
  }

  /** The slot of day number `n`, growing the columns (either way) to hold it. */
  private slotFor(n: number): number {
    if (this.capacity === 0) this.start = n;
    const lo = Math.min(this.start, n);
    const hi = Math.max(this.start + this.capacity, n + 1);
    if (lo < this.start || hi > this.start + this.capacity) this.resize(lo < this.start ? lo - GROW_DAYS : lo, hi > this.start + this.capacity ? hi + GROW_DAYS : hi);
    return n - this.start;
  }

  private resize(lo: number, hi: number): void {
    const shift = this.start - lo;
    const size = hi - lo;
    const grow = <T extends Float64Array | Uint32Array | Uint8Array>(old: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(old, shift);
      return next;
    };
    for (const col of this.columns.values()) {
      col.perUsd = grow(col.perUsd, (n) => new Float64Array(n).fill(NaN));
      col.bank = grow(col.bank, (n) => new Uint32Array(n));
    }
    this.present = grow(this.present, (n) => new Uint8Array(n));
    if (shift > 0) {
      const moved = [...this.exact].map(([key, text]) => {
        const [slot, code] = key.split(' ');
        return [`${Number(slot) + shift} ${code}`, text] as const;
      });
      this.exact.clear();
      for (const [k, v] of moved) this.exact.set(k, v);
    }
    this.start = lo;
    this.capacity = size;
  }
}
