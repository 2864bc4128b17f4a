// Every materialised day in memory, compactly: per currency a column of 8-byte floats (units per
// USD) and one of bank_update instants (4-byte seconds since 1970), one slot per calendar day from
// the currency's first day on. A float holds any decimal of up to 15 significant digits exactly (the
// blend's precision); the rarer longer one (a peg applied to a blend) is kept as text beside. Each
// column starts where its currency does: two thirds of the day × currency grid is empty (most
// currencies join after 1999), and a grid from the first day for all (~185 × 14,900 days, 33 MB)
// put a first range's RSS past 250 MB; from each currency's first day it is ~16 MB.
import { Decimal } from '../money/decimal.js';
import type { DayRates } from './day.js';
import { DAY_MS } from '../time/days.js';

/** Slots added when a column grows: a year and a bit, so daily growth rarely reallocates. A bulk
 *  load reserves its span first, and a column that starts in it reaches to its end at once: grown
 *  day by day, the columns were copied ~40 times, and each copy stays garbage until a full collection. */
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
  /** Day number of index 0. */
  first: number;
  perUsd: Float64Array;
  /** Seconds since 1970 (a Uint32 lasts until 2106). */
  bank: Uint32Array;
  /** The text of each value a float would not keep, by day number. A peg to USD, or a weekend,
   *  repeats the day before's text, and its string is reused (the seed: 131,000 texts, 83,000 new). */
  exact: Map<number, string>;
}

/** A column's value on day number `n` (NaN when it holds none). */
export function valueAt(col: Readonly<Column>, n: number): number {
  const i = n - col.first;
  return i >= 0 && i < col.perUsd.length ? col.perUsd[i]! : NaN;
}

/** A column's bank_update on day number `n` (seconds; only meaningful where valueAt is a number). */
export function bankAt(col: Readonly<Column>, n: number): number {
  return col.bank[n - col.first] ?? 0;
}

export class HistoryColumns {
  /** Day number of slot 0 of `present`. */
  private start = 0;
  private present = new Uint8Array(0);
  private readonly columns = new Map<string, Column>();

  /** Replaces one day. */
  set(day: string, rates: DayRates): void {
    const n = dayNumber(day);
    const slot = this.slotFor(n);
    this.present[slot] = 1;
    for (const col of this.columns.values()) {
      const i = n - col.first;
      if (i >= 0 && i < col.perUsd.length) col.perUsd[i] = NaN;
      if (col.exact.size > 0) col.exact.delete(n);
    }
    for (const [code, r] of rates) {
      const col = this.column(code, n);
      const i = n - col.first;
      if (beyondFloat(r.perUsd)) {
        const before = col.exact.get(n - 1);
        col.exact.set(n, before === r.perUsd ? before : r.perUsd);
      }
      col.perUsd[i] = Number(r.perUsd);
      col.bank[i] = instant(r.bankUpdate);
    }
  }

  /** Makes room for `from..to` at once (a load knows its span: no growing copies on the way). */
  reserve(from: string, to: string): void {
    if (from > to) return;
    this.slotFor(dayNumber(from));
    this.slotFor(dayNumber(to));
  }

  has(day: string): boolean {
    const slot = dayNumber(day) - this.start;
    return slot >= 0 && slot < this.present.length && this.present[slot] === 1;
  }

  /** True when every day of `from..to` is materialised. */
  allPresent(from: string, to: string): boolean {
    const lo = dayNumber(from) - this.start;
    const hi = dayNumber(to) - this.start;
    if (lo < 0 || hi >= this.present.length) return false;
    for (let slot = lo; slot <= hi; slot++) if (this.present[slot] !== 1) return false;
    return true;
  }

  /** The day as stored, or undefined when it is not materialised. */
  get(day: string): Map<string, { perUsd: Decimal; bankUpdate: string }> | undefined {
    if (!this.has(day)) return undefined;
    const n = dayNumber(day);
    const out = new Map<string, { perUsd: Decimal; bankUpdate: string }>();
    for (const [code, col] of this.columns) {
      const v = valueAt(col, n);
      if (Number.isNaN(v)) continue;
      out.set(code, { perUsd: new Decimal(col.exact.get(n) ?? v.toPrecision(15)), bankUpdate: stampText(bankAt(col, n)) });
    }
    return out;
  }

  series(code: string): Readonly<Column> | undefined {
    return this.columns.get(code);
  }

  /** Every currency that has a column, in code order. */
  codes(): string[] {
    return [...this.columns.keys()].sort();
  }

  /** The exact decimal text of a stored value (day number `n`). */
  text(n: number, code: string): string {
    const col = this.columns.get(code)!;
    return col.exact.get(n) ?? valueAt(col, n).toPrecision(15);
  }

  /** The column of `code`, made or grown to hold day number `n`. A new one reaches from `n` to the
   *  end of the days reserved (a load's span); growth adds GROW_DAYS on the side it grows. */
  private column(code: string, n: number): Column {
    const end = this.start + this.present.length;
    let col = this.columns.get(code);
    if (!col) {
      col = { first: n, perUsd: new Float64Array(Math.max(end - n, 1)).fill(NaN), bank: new Uint32Array(Math.max(end - n, 1)), exact: new Map() };
      this.columns.set(code, col);
      return col;
    }
    const last = col.first + col.perUsd.length;
    if (n >= col.first && n < last) return col;
    const lo = n < col.first ? Math.max(n - GROW_DAYS, this.start) : col.first;
    const hi = n >= last ? Math.max(n + 1 + GROW_DAYS, end) : last;
    const perUsd = new Float64Array(hi - lo).fill(NaN);
    const bank = new Uint32Array(hi - lo);
    perUsd.set(col.perUsd, col.first - lo);
    bank.set(col.bank, col.first - lo);
    Object.assign(col, { first: lo, perUsd, bank });
    return col;
  }

  /** The slot of day number `n` in `present`, growing it (either way) to hold it. */
  private slotFor(n: number): number {
    if (this.present.length === 0) this.start = n;
    const end = this.start + this.present.length;
    if (n < this.start || n >= end) {
      const from = n < this.start ? n - GROW_DAYS : this.start;
      const to = n >= end ? n + 1 + GROW_DAYS : end;
      const present = new Uint8Array(to - from);
      present.set(this.present, this.start - from);
      this.present = present;
      this.start = from;
    }
    return n - this.start;
  }
}
