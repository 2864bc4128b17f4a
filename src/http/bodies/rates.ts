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
/** Conversions asked once, remembered by their key's number only, so that an answer is kept when asked again. */
const ASKED_ONCE = 1024;

interface KeptAnswer {
  day: string;
  base: string;
  amount: string;
  targets: readonly string[];
  answer: Conversion;
}

interface Kept {
  /** By key number, least recently used first. */
  answers: Map<number, KeptAnswer>;
  /** The key numbers of recent conversions, one slot each by their low bits (a later one takes the slot). */
  asked: Int32Array;
}

/** A 32-bit number for `text` added to `h` (×31, as Java's String.hashCode). */
function mix(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
}

/** A conversion's key as a 32-bit number: the day, base, amount and targets in order. A number, not
 *  the string of them: building and hashing a string of ~600 characters cost ~5 µs a conversion, and
 *  a string key of the rest ~1 µs more (docs/performance.md). Two conversions may share a number: a
 *  kept answer keeps what it answers and is compared on a hit, so they never share an answer. */
function keyOf(day: string, base: string, amount: string, targets: readonly string[]): number {
  let h = mix(mix(mix(targets.length, day), base), amount);
  for (const t of targets) h = mix(h, t);
  return h;
}

const sameTargets = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((t, i) => t === b[i]);

/**
 * `conversion`, answered from the table's recent answers when the same conversion is asked again on
 * the same day: a shop showing one price in 150 currencies asks the same thing on every page view,
 * and the answer only changes with the table (or the day, through freshness). Like `/latest`'s
 * whole body, a repeated answer then costs a lookup instead of 150 multiplications. An answer is
 * kept only from its second asking: keeping every one made a stream of distinct amounts 16% slower
 * (each kept 12 KB answer outlives the young generation). See docs/performance.md. Two conversions
 * of one key number are a miss, never the wrong answer (and at worst one is kept on its first asking).
 */
export function keptConversion(rates: RatesTable, base: string, amount: Amount | undefined, targets: readonly string[], day: string, quotes: (code: string) => boolean): Conversion {
  const kept = rates.derived<Kept>('conversions', () => ({ answers: new Map(), asked: new Int32Array(ASKED_ONCE) }));
  const amountText = amount?.text ?? '';
  const key = keyOf(day, base, amountText, targets);
  const found = kept.answers.get(key);
  if (found && found.day === day && found.base === base && found.amount === amountText && sameTargets(found.targets, targets)) {
    kept.answers.delete(key); // most recently used last: the first key is the one to drop
    kept.answers.set(key, found);
    return found.answer;
  }
  const answer = conversion(rates, base, amount, targets, day, quotes);
  const slot = key & (ASKED_ONCE - 1);
  if (kept.asked[slot] !== key) {
    kept.asked[slot] = key;
    return answer;
  }
  // Kept as a copy: the answer is a view of the writer's slab, which it would hold (byte-writer.ts).
  const copy = { body: Buffer.from(answer.body), newest: answer.newest };
  if (!found && kept.answers.size >= KEPT_CONVERSIONS) kept.answers.delete(kept.answers.keys().next().value!);
  kept.answers.delete(key);
  kept.answers.set(key, { day, base, amount: amountText, targets: [...targets], answer: copy });
  return copy;
}
