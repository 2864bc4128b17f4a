// Answers that depend on the amount, so cannot be cached whole like `/latest`'s plain body. They are
// written by concatenation from the table's cached pairs, with exact arithmetic (money/fixed.ts):
// a Num tree and decimal.js per target were most of a 150-target conversion's time
// (docs/performance.md). Every value is a currency code, a decimal or a D7 stamp, so none needs
// JSON escaping. Validators: the tag of the amount-less answer plus the amount's canonical text.
import { CONVERTED_PLACES } from '../money/decimal.js';
import { Fixed, multiply } from '../money/fixed.js';
import type { Entity } from './entity.js';
import type { PairRate, RatesTable } from './table.js';

/** An amount as the answer shows it (the canonical text of its Decimal) and as digits. */
export interface Amount {
  text: string;
  fixed: Fixed;
}

const ONE: Amount = { text: '1', fixed: Fixed.parse('1') };

export function amountFrom(text: string): Amount {
  return { text, fixed: Fixed.parse(text) };
}

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
  let out = '';
  for (const [code, pair] of pairs) {
    out += `${out === '' ? '' : ','}"${code}":{"rate":${pair.text},"converted":${multiply(amount.fixed, pair.fixed, CONVERTED_PLACES)}}`;
  }
  return { body: `{"code":200,"message":"success","rates":{${out}}}`, etag: `"${strip(plain.etag)}.${amount.text}"` };
}

export interface Conversion {
  body: string;
  /** Newest last_update among the converted targets (Last-Modified); none if all are missing. */
  newest: string | undefined;
}

/**
 * POST /v1/rates/convert: each target (upper-cased, first occurrence only) that is a currency Kurs
 * quotes with fresh rates on `day` on both legs; the others are listed in `missing`, in order.
 * The caller has checked that every target is three letters (they are written out unescaped).
 */
export function conversion(rates: RatesTable, base: string, amount: Amount | undefined, targets: readonly string[], day: string, quotes: (code: string) => boolean): Conversion {
  const factor = amount ?? ONE;
  const pairs = rates.isFresh(base, day) ? rates.pairsFrom(base) : undefined;
  const seen = new Set<string>();
  const missing: string[] = [];
  let newest: string | undefined;
  let out = '';
  for (const raw of targets) {
    const target = raw.toUpperCase();
    if (seen.has(target)) continue;
    seen.add(target);
    const pair = quotes(target) && rates.isFresh(target, day) ? pairs?.get(target) : undefined;
    if (!pair) {
      missing.push(target);
      continue;
    }
    out += `${out === '' ? '' : ','}"${target}":{"rate":${pair.text},"converted":${multiply(factor.fixed, pair.fixed, CONVERTED_PLACES)},"last_update":"${pair.lastUpdate}"}`;
    if (newest === undefined || pair.lastUpdate > newest) newest = pair.lastUpdate;
  }
  const list = missing.length === 0 ? '[]' : `["${missing.join('","')}"]`;
  return { body: `{"code":200,"message":"success","base":"${base}","amount":${factor.text},"rates":{${out}},"missing":${list}}`, newest };
}
