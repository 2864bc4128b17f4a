// The immutable in-memory rates table a request reads. Built from one blend and never changed:
// a new blend makes a new table, swapped in whole, so a request never sees half of one.
import type { BlendedRate } from '../blend/blend.js';
import { toRateText } from '../money/decimal.js';
import { Fixed } from '../money/fixed.js';
import { Memo } from './memo.js';

export interface PairRate {
  /** The rate exactly as the response shows it (8 significant digits, D6). */
  text: string;
  /** Older of the two legs' newest contributing bank_update (D7). */
  lastUpdate: string;
  /** The same rate as digits and scale, for exact multiplication on the request path. */
  fixed: Fixed;
}

export class RatesTable extends Memo {
  private readonly pairs = new Map<string, PairRate>();
  readonly codes: readonly string[];
  /** Newest bank_update of all: what `/latest` rests on. */
  readonly newestUpdate: string | undefined;

  constructor(private readonly rates: ReadonlyMap<string, BlendedRate>) {
    super();
    this.codes = [...rates.keys()].sort();
    this.newestUpdate = rates.get('USD')?.bankUpdate;
  }

  static empty(): RatesTable {
    return new RatesTable(new Map());
  }

  get size(): number {
    return this.rates.size;
  }

  has(code: string): boolean {
    return this.rates.has(code);
  }

  get(code: string): BlendedRate | undefined {
    return this.rates.get(code);
  }

  /** Fresh on `today` (YYYY-MM-DD) per D10. */
  isFresh(code: string, today: string): boolean {
    const r = this.rates.get(code);
    return r !== undefined && today <= r.freshUntil;
  }

  /** Units of `target` per 1 `base`, derived by division through the USD pivot. */
  pair(base: string, target: string): PairRate | undefined {
    const key = `${base}${target}`;
    const cached = this.pairs.get(key);
    if (cached) return cached;
    const b = this.rates.get(base);
    const t = this.rates.get(target);
    if (!b || !t) return undefined;
    const text = base === target ? '1' : toRateText(t.perUsd.div(b.perUsd));
    const lastUpdate = b.bankUpdate < t.bankUpdate ? b.bankUpdate : t.bankUpdate;
    const pair = { text, lastUpdate, fixed: Fixed.parse(text) };
    this.pairs.set(key, pair);
    return pair;
  }

  /** Every pair from `base`, by target code: one lookup per target for bulk conversions. */
  pairsFrom(base: string): ReadonlyMap<string, PairRate> | undefined {
    return this.derived(`pairs ${base}`, () => (this.rates.has(base) ? new Map(this.codes.map((code) => [code, this.pair(base, code)!])) : undefined));
  }
}
