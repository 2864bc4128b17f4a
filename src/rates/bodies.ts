// Answers that depend on the amount, so cannot be cached whole like `/latest`'s plain body. They are
// written by concatenation from the table's cached pairs, with exact arithmetic (money/fixed.ts):
// a Num tree and decimal.js per target were most of a 150-target conversion's time
// (docs/performance.md). Every value is a currency code, a decimal or a D7 stamp, so none needs
// JSON escaping. Validators: the tag of the amount-less answer plus the amount's canonical text.
import { CONVERTED_PLACES } from '../money/decimal.js';
import { amountFrom, multiply, type Amount } from '../money/fixed.js';
import type { Entity } from './entity.js';
import type { PairRate, RatesTable } from './table.js';

const ONE = amountFrom('1');

const strip = (etag: string) => etag.slice(1, -1);

/** GET /v1/rate/{base}/{target}: without an amount, `converted` is the rate itself (D5). */
export function rateBody(base: string, target: string, pair: PairRate, amount: Amount | undefined): Entity {
  const converted = amount ? multiply(amount.fixed, pair.fixed, CONVERTED_PLACES) : pair.text;
  const body = `{"code":200,"message":"success","base":"${base}","target":"${target}","rate":${pair.text},"amount":${amount?.text ?? '1'},"converted":${converted},"last_update":"${pair.lastUpdate}"}`;
  return { body, etag: amount ? `"${pair.tag}.${amount.text}"` : `"${pair.tag}"` };
}

/** GET /v1/{base}/latest?amount=…: every code's rate and converted amount. */
export function latestWithAmount(rates: RatesTable, base: string, amount: Amount): Entity | undefined {
  const plain = rates.latestBody(base);
  const pairs = rates.pairsFrom(base);
  if (!plain || !pairs) return undefined;
  const parts: string[] = [];
  for (const [code, pair] of pairs) parts.push(`"${code}":{"rate":${pair.text},"converted":${multiply(amount.fixed, pair.fixed, CONVERTED_PLACES)}}`);
  return { body: `{"code":200,"message":"success","rates":{${parts.join(',')}}}`, etag: `"${strip(plain.etag)}.${amount.text}"` };
}

export interface Conversion {
  body: string;
  /** Newest last_update among the converted targets (Last-Modified); none if all are missing. */
  newest: string | undefined;
}

/** A conversion target from one base: its answer fragments, written once per table and base. */
interface Leg {
  readonly code: string;
  readonly pair: PairRate;
  /** `"USD":{"rate":…,"converted":` (and after a comma) and `,"last_update":"…"}` around the amount. */
  readonly head: string;
  readonly nextHead: string;
  readonly tail: string;
  readonly freshUntil: string;
  /** The last conversion that listed this target: repeats are skipped without a Set per request. */
  seen: number;
}

let conversions = 0;

/** The same text as one contiguous string. A template literal gives a tree of its pieces, which
 *  `join` would walk again on every request; measured, that was a quarter of a conversion's time. */
const flat = (s: string) => Buffer.from(s, 'latin1').toString('latin1');

function legsFrom(rates: RatesTable, base: string, quotes: (code: string) => boolean): ReadonlyMap<string, Leg> {
  return rates.derived(`legs ${base}`, () => {
    const legs = new Map<string, Leg>();
    for (const [code, pair] of rates.pairsFrom(base) ?? []) {
      if (!quotes(code)) continue;
      const head = `"${code}":{"rate":${pair.text},"converted":`;
      const tail = `,"last_update":"${pair.lastUpdate}"}`;
      legs.set(code, { code, pair, head: flat(head), nextHead: flat(`,${head}`), tail: flat(tail), freshUntil: rates.get(code)!.freshUntil, seen: 0 });
    }
    return legs;
  });
}

/**
 * POST /v1/rates/convert: each target (upper-cased, first occurrence only) that is a currency Kurs
 * quotes with fresh rates on `day` on both legs; the others are listed in `missing`, in order.
 * The caller has checked that every target is three letters (they are written out unescaped).
 */
export function conversion(rates: RatesTable, base: string, amount: Amount | undefined, targets: readonly string[], day: string, quotes: (code: string) => boolean): Conversion {
  const factor = amount ?? ONE;
  const legs = rates.isFresh(base, day) ? legsFrom(rates, base, quotes) : undefined;
  // The loop below never yields, so no other conversion can mark a leg while this one runs.
  const stamp = ++conversions;
  const missing: string[] = [];
  let newest: string | undefined;
  // One piece per target, joined once at the end: appending to a string builds a tree of ~600 pieces
  // that costs more to flatten, when the body is measured and written, than everything else here.
  const parts = [`{"code":200,"message":"success","base":"${base}","amount":${factor.text},"rates":{`];
  for (const raw of targets) {
    const leg = legs && (legs.get(raw) ?? legs.get(raw.toUpperCase()));
    if (!leg) {
      const target = raw.toUpperCase();
      if (!missing.includes(target)) missing.push(target);
    } else if (leg.seen !== stamp) {
      leg.seen = stamp;
      if (day > leg.freshUntil) {
        missing.push(leg.code);
        continue;
      }
      const converted = multiply(factor.fixed, leg.pair.fixed, CONVERTED_PLACES);
      parts.push(`${parts.length === 1 ? leg.head : leg.nextHead}${converted}${leg.tail}`);
      if (newest === undefined || leg.pair.lastUpdate > newest) newest = leg.pair.lastUpdate;
    }
  }
  parts.push(missing.length === 0 ? '},"missing":[]}' : `},"missing":["${missing.join('","')}"]}`);
  return { body: parts.join(''), newest };
}

/** Recent answers kept per table: at most this many, each at most ~40 KB (500 targets). */
export const KEPT_CONVERSIONS = 128;
/** Conversions asked once, remembered by key only, so that an answer is kept when asked again. */
const ASKED_ONCE = 1024;

interface Kept {
  answers: Map<string, Conversion>;
  asked: Set<string>;
}

/** Adds to an insertion-ordered collection, dropping the oldest entry beyond `max`. */
function bounded<K>(c: Map<K, unknown> | Set<K>, max: number, add: () => void): void {
  if (c.size >= max) c.delete(c.keys().next().value!);
  add();
}

/**
 * `conversion`, answered from the table's recent answers when the same conversion is asked again on
 * the same day: a shop showing one price in 150 currencies asks the same thing on every page view,
 * and the answer only changes with the table (or the day, through freshness). Like `/latest`'s
 * whole body, a repeated answer then costs a lookup instead of 150 multiplications. An answer is
 * kept only from its second asking: keeping every one made a stream of distinct amounts 16% slower
 * (each kept 12 KB answer outlives the young generation). See docs/performance.md.
 */
export function keptConversion(rates: RatesTable, base: string, amount: Amount | undefined, targets: readonly string[], day: string, quotes: (code: string) => boolean): Conversion {
  const kept = rates.derived<Kept>('conversions', () => ({ answers: new Map(), asked: new Set() }));
  const key = `${day} ${base} ${amount?.text ?? ''} ${targets.join(',')}`;
  const found = kept.answers.get(key);
  if (found) {
    kept.answers.delete(key); // most recently used last: the first key is the one to drop
    kept.answers.set(key, found);
    return found;
  }
  const answer = conversion(rates, base, amount, targets, day, quotes);
  if (kept.asked.delete(key)) bounded(kept.answers, KEPT_CONVERSIONS, () => kept.answers.set(key, answer));
  else bounded(kept.asked, ASKED_ONCE, () => kept.asked.add(key));
  return answer;
}
