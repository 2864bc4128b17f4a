// Answers that depend on the amount, so cannot be cached whole like `/latest`'s plain body. They are
// written by concatenation from the table's cached pairs, with exact arithmetic (money/fixed.ts):
// a Num tree and decimal.js per target were most of a 150-target conversion's time
// (docs/performance.md). Every value is a currency code, a decimal or a D7 stamp, so none needs
// JSON escaping. Validators: the tag of the amount-less answer plus the amount's canonical text.
// The bulk conversion is written as bytes (conversion.ts); its recent answers are kept here.
import { CONVERTED_PLACES } from '../../money/decimal.js';
import { multiply, type Amount } from '../../money/fixed.js';
import { type Conversion, conversion } from './conversion.js';
import { digest, type Entity, success } from './entity.js';
import { latestOn, staleFields } from './latest.js';
import type { PairRate, RatesTable } from '../../rates/table.js';

const strip = (etag: string) => etag.slice(1, -1);

/** Part of every pair's tag: change it when the shape of a pair's answers changes, so no client
 *  revalidates an old shape into a 304. */
const PAIR_FORMAT = 'pair/1';

/** Each pair's tag, hashed on its first answer. Module-level and weak: a pair belongs to one table
 *  and the tag goes with it, so no table needs to know about validators. */
const tags = new WeakMap<PairRate, string>();

/** Digest of base, target, rate and stamp: with the amount, the validator of an amount-dependent body. */
export function pairTag(base: string, target: string, pair: PairRate): string {
  let tag = tags.get(pair);
  if (tag === undefined) tags.set(pair, (tag = digest(`${PAIR_FORMAT} ${base}/${target} ${pair.text} ${pair.lastUpdate}`)));
  return tag;
}

/** GET /v1/rate/{base}/{target}: without an amount, `converted` is the rate itself (D5). */
export function rateBody(base: string, target: string, pair: PairRate, amount: Amount | undefined): Entity {
  const converted = amount ? multiply(amount.fixed, pair.fixed, CONVERTED_PLACES) : pair.text;
  const body = success(`"base":"${base}","target":"${target}","rate":${pair.text},"amount":${amount?.text ?? '1'},"converted":${converted},"last_update":"${pair.lastUpdate}"`);
  const tag = pairTag(base, target, pair);
  return { body, etag: amount ? `"${tag}.${amount.text}"` : `"${tag}"` };
}

/** GET /v1/{base}/latest?amount=…: every code's rate and converted amount (marked stale as latestOn). */
export function latestWithAmount(rates: RatesTable, base: string, amount: Amount, today: string): Entity | undefined {
  const plain = latestOn(rates, base, today);
  const pairs = rates.pairsFrom(base);
  if (!plain || !pairs) return undefined;
  const parts: string[] = [];
  for (const [code, pair] of pairs) parts.push(`"${code}":{"rate":${pair.text},"converted":${multiply(amount.fixed, pair.fixed, CONVERTED_PLACES)}}`);
  return { body: success(`"rates":{${parts.join(',')}}${staleFields(rates, base, today)}`), etag: `"${strip(plain.etag)}.${amount.text}"` };
}

/** Recent answers kept per table: at most this many, each at most ~40 KB (500 targets). */
export const KEPT_CONVERSIONS = 128;
/** Conversions asked once, remembered by key only, so that an answer is kept when asked again. */
const ASKED_ONCE = 1024;

interface Kept {
  answers: Map<string, { targets: readonly string[]; answer: Conversion }>;
  asked: Set<string>;
}

/** Adds to an insertion-ordered collection, dropping the oldest entry beyond `max`. */
function bounded<K>(c: Map<K, unknown> | Set<K>, max: number, add: () => void): void {
  if (c.size >= max) c.delete(c.keys().next().value!);
  add();
}

/** A 32-bit digest of the targets, in order. Keys name the targets by it rather than by their ~600
 *  characters joined: that string's join, flattening and hashing cost ~5 µs on every conversion. */
function digestOf(targets: readonly string[]): number {
  let h = targets.length;
  for (const t of targets) for (let i = 0; i < t.length; i++) h = (Math.imul(h, 31) + t.charCodeAt(i)) | 0;
  return h;
}

const sameTargets = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((t, i) => t === b[i]);

/**
 * `conversion`, answered from the table's recent answers when the same conversion is asked again on
 * the same day: a shop showing one price in 150 currencies asks the same thing on every page view,
 * and the answer only changes with the table (or the day, through freshness). Like `/latest`'s
 * whole body, a repeated answer then costs a lookup instead of 150 multiplications. An answer is
 * kept only from its second asking: keeping every one made a stream of distinct amounts 16% slower
 * (each kept 12 KB answer outlives the young generation). See docs/performance.md.
 * A kept answer keeps its targets, compared on a hit: two target lists of one digest are a miss,
 * never the wrong answer (and at worst an answer is kept on its first asking).
 */
export function keptConversion(rates: RatesTable, base: string, amount: Amount | undefined, targets: readonly string[], day: string, quotes: (code: string) => boolean): Conversion {
  const kept = rates.derived<Kept>('conversions', () => ({ answers: new Map(), asked: new Set() }));
  const key = `${day} ${base} ${amount?.text ?? ''} ${digestOf(targets)}`;
  const found = kept.answers.get(key);
  if (found && sameTargets(found.targets, targets)) {
    kept.answers.delete(key); // most recently used last: the first key is the one to drop
    kept.answers.set(key, found);
    return found.answer;
  }
  const answer = conversion(rates, base, amount, targets, day, quotes);
  if (!kept.asked.delete(key)) {
    bounded(kept.asked, ASKED_ONCE, () => kept.asked.add(key));
    return answer;
  }
  // Kept as a copy: the answer is a view of the writer's slab, which it would hold (byte-writer.ts).
  const copy = { body: Buffer.from(answer.body), newest: answer.newest };
  bounded(kept.answers, KEPT_CONVERSIONS, () => kept.answers.set(key, { targets: [...targets], answer: copy }));
  return copy;
}
