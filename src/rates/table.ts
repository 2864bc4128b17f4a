// The immutable in-memory rates table a request reads. Built from one blend and never changed:
// a new blend makes a new table, swapped in whole, so a request never sees half of one.
import type { BlendedRate } from '../blend/blend.js';
import { toRateText } from '../money/decimal.js';
import { Fixed } from '../money/fixed.js';
import { Num, stringify } from '../money/json.js';
import { DAY_MS } from '../time/days.js';
import { digest, entity, type Entity, successOf } from './entity.js';

/** Part of every pair's tag: change it when the shape of a pair's answers changes, so no client
 *  revalidates an old shape into a 304. */
const PAIR_FORMAT = 'pair/1';

export interface PairRate {
  /** The rate exactly as the response shows it (8 significant digits, D6). */
  text: string;
  /** Older of the two legs' newest contributing bank_update (D7). */
  lastUpdate: string;
  /** The same rate as digits and scale, for exact multiplication on the request path. */
  fixed: Fixed;
  /** Digest of base, target, rate and stamp: with the amount, the validator of an amount-dependent body. */
  tag: string;
}

export class RatesTable {
  private readonly pairs = new Map<string, PairRate>();
  private readonly memo = new Map<string, unknown>();
  readonly codes: readonly string[];
  /** Newest bank_update of all: what `/latest` rests on. */
  readonly newestUpdate: string | undefined;

  constructor(private readonly rates: ReadonlyMap<string, BlendedRate>) {
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
    const pair = { text, lastUpdate, fixed: Fixed.parse(text), tag: digest(`${PAIR_FORMAT} ${base}/${target} ${text} ${lastUpdate}`) };
    this.pairs.set(key, pair);
    return pair;
  }

  /** Every pair from `base`, by target code: one lookup per target for bulk conversions. */
  pairsFrom(base: string): ReadonlyMap<string, PairRate> | undefined {
    return this.derived(`pairs ${base}`, () => (this.rates.has(base) ? new Map(this.codes.map((code) => [code, this.pair(base, code)!])) : undefined));
  }

  /** Something built from this table once and kept with it (answer fragments, say): `key` names it. */
  derived<T>(key: string, build: () => T): T {
    const kept = this.memo.get(key);
    if (kept !== undefined || this.memo.has(key)) return kept as T;
    const value = build();
    this.memo.set(key, value);
    return value;
  }

  /** What a `/latest` answer adds when `base`'s figures are past their freshness on `today` (D10):
   *  `"stale":true`, the newest figure's stamp and its age in days (D24); '' while they are fresh.
   *  D10 answers old figures in full, and this keeps them from passing for today's. */
  staleFields(base: string, today: string): string {
    const r = this.rates.get(base);
    if (r === undefined || today <= r.freshUntil) return '';
    const age = Math.max(0, Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${r.bankUpdate.slice(0, 10)}T00:00:00Z`)) / DAY_MS));
    return `,"stale":true,"last_update":"${r.bankUpdate}","age_days":${age}`;
  }

  /** `/latest`'s body on `today`: latestBody, or while the base is stale that body with staleFields
   *  (built once per base and day). */
  latestOn(base: string, today: string): Entity | undefined {
    const stale = this.staleFields(base, today);
    if (stale === '') return this.latestBody(base);
    return this.derived(`latest ${base} ${today}`, () => {
      const plain = this.latestBody(base);
      return plain && entity(`${plain.body.slice(0, -1)}${stale}}`);
    });
  }

  /** The whole `/latest` body for a base without amount, and its ETag: built once per table and base. */
  latestBody(base: string): Entity | undefined {
    return this.derived(`latest ${base}`, () => {
      const pairs = this.pairsFrom(base);
      if (!pairs) return undefined;
      const rates: Record<string, Num> = {};
      for (const [code, pair] of pairs) rates[code] = new Num(pair.text);
      return entity(stringify(successOf({ rates })));
    });
  }
}
