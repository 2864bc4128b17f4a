// POST /v1/rates/convert's answer, computed: one piece per target from answer fragments made once per
// table and base, the converted figures written as digits, all as bytes (byte-writer.ts). Targets
// are found by their letters' positions in arrays rather than by hashing their strings in a Map.
// Measured figures and what was tried before: docs/performance.md.
import { CONVERTED_PLACES } from '../../money/decimal.js';
import { amountFrom, type Amount } from '../../money/fixed.js';
import { DAY_MS } from '../../time/days.js';
import { asciiBytes, ByteWriter } from './byte-writer.js';
import { SUCCESS_OPEN } from './entity.js';
import type { PairRate, RatesTable } from '../../rates/table.js';

export interface Conversion {
  /** The JSON answer, ASCII: a view of a slab shared with other answers (copy it to keep it long). */
  body: Buffer;
  /** Newest last_update among the converted targets (Last-Modified); none if all are missing. */
  newest: string | undefined;
}

const ONE = amountFrom('1');
const CODES = 26 ** 3;
const isUpperCode = (code: string) => /^[A-Z]{3}$/.test(code);

/** Three ASCII letters of either case (the caller has checked the shape) as 0…17575. */
const codeIndex = (code: string) => ((code.charCodeAt(0) | 32) - 97) * 676 + ((code.charCodeAt(1) | 32) - 97) * 26 + ((code.charCodeAt(2) | 32) - 97);

/** Every code a rates table has held gets a slot, for good: a few hundred at most, as they come from
 *  tables, never from requests. 0 is no slot. A base's legs are an array by slot. Module-level, not
 *  the table's: one numbering serves every table (the current one and the 64 day tables History
 *  keeps), so none holds a 35 KB index of its own, and a slot, once given, never changes. */
const slots = new Uint16Array(CODES);
let slotCount = 0;
const slotOf = (code: string) => slots[codeIndex(code)] || (slots[codeIndex(code)] = ++slotCount);

/** A conversion target from one base: its answer fragments, written once per table and base. */
interface Leg {
  readonly code: string;
  readonly pair: PairRate;
  /** `"USD":{"rate":…,"converted":` (and after a comma) and `,"last_update":"…"}` around the figure. */
  readonly head: Buffer;
  readonly nextHead: Buffer;
  readonly tail: Buffer;
  /** The last day its rate is fresh, as a day number: one number compared per target, not a string. */
  readonly freshUntil: number;
  /** Where `pair.lastUpdate` falls among the base's legs' (LegSet.updates): the newest is a max of numbers. */
  readonly update: number;
}

/** A base's legs by slot, and their distinct last_update stamps in order (Leg.update indexes it). */
interface LegSet {
  readonly bySlot: readonly (Leg | undefined)[];
  readonly updates: readonly string[];
}

const NO_LEGS: LegSet = { bySlot: [], updates: [] };
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

function legsFrom(rates: RatesTable, base: string, quotes: (code: string) => boolean): LegSet {
  return rates.derived(`legs ${base}`, () => {
    const pairs = [...(rates.pairsFrom(base) ?? [])].filter(([code]) => quotes(code) && isUpperCode(code));
    const updates = [...new Set(pairs.map(([, pair]) => pair.lastUpdate))].sort();
    const bySlot: (Leg | undefined)[] = [];
    for (const [code, pair] of pairs) {
      const head = `"${code}":{"rate":${pair.text},"converted":`;
      const tail = `,"last_update":"${pair.lastUpdate}"}`;
      const freshUntil = dayNumber(rates.get(code)!.freshUntil);
      bySlot[slotOf(code)] = { code, pair, head: asciiBytes(head), nextHead: asciiBytes(`,${head}`), tail: asciiBytes(tail), freshUntil, update: updates.indexOf(pair.lastUpdate) };
    }
    return { bySlot, updates };
  });
}

/** The conversion that last met each code (by codeIndex): repeats are skipped without a Set per
 *  request. Conversions never yield, so one cannot mark codes while another runs. This scratch and
 *  the writer are module-level because they are the process's, not a table's: per table they would
 *  cost ~330 KB for each of the 65 tables that may be alive, and a Buffer per answer was measured at
 *  ~2 µs (docs/performance.md); one thread, and no call yields, so one of each is enough. */
const seen = new Uint32Array(CODES);
let stamp = 0;
const writer = new ByteWriter();

/**
 * Each target (upper-cased, first occurrence only) that is a currency Kurs quotes with fresh rates on
 * `day` on both legs; the others are listed in `missing`, in order. The caller has checked that every
 * target is three ASCII letters (they are looked up by their letters and written out unescaped).
 */
export function conversion(rates: RatesTable, base: string, amount: Amount | undefined, targets: readonly string[], day: string, quotes: (code: string) => boolean): Conversion {
  const factor = amount ?? ONE;
  const { bySlot: legs, updates } = rates.isFresh(base, day) ? legsFrom(rates, base, quotes) : NO_LEGS;
  const today = dayNumber(day);
  if (++stamp === 2 ** 32) (seen.fill(0), (stamp = 1));
  const missing: string[] = [];
  let newest = -1;
  let first = true;
  writer.ascii(`${SUCCESS_OPEN},"base":"${base}","amount":${factor.text},"rates":{`);
  for (const raw of targets) {
    const index = codeIndex(raw);
    if (seen[index] === stamp) continue;
    seen[index] = stamp;
    const leg = legs[slots[index]!];
    if (!leg || today > leg.freshUntil) {
      missing.push(leg ? leg.code : raw.toUpperCase());
      continue;
    }
    writer.bytes(first ? leg.head : leg.nextHead);
    writer.product(factor.fixed, leg.pair.fixed, CONVERTED_PLACES);
    writer.bytes(leg.tail);
    first = false;
    if (leg.update > newest) newest = leg.update;
  }
  writer.ascii(missing.length === 0 ? '},"missing":[]}' : `},"missing":["${missing.join('","')}"]}`);
  return { body: writer.take(), newest: updates[newest] };
}
