// The body of `GET /v1/{base}/{date}` (D14): the envelope, base, date and every fresh rate of the
// day, as `/latest` writes them (with `amount`, each rate and its converted amount).
import { CONVERTED_PLACES } from '../../money/decimal.js';
import { multiply, type Amount } from '../../money/fixed.js';
import { entity, type Entity, success } from './entity.js';
import type { RatesTable } from '../../rates/table.js';

/** Undefined when the base has no fresh rate on the day. */
export function dayBody(table: RatesTable, base: string, day: string, amount: Amount | undefined): Entity | undefined {
  const build = () => {
    const pairs = table.pairsFrom(base);
    if (!pairs) return undefined;
    const parts: string[] = [];
    for (const [code, pair] of pairs) {
      parts.push(amount ? `"${code}":{"rate":${pair.text},"converted":${multiply(amount.fixed, pair.fixed, CONVERTED_PLACES)}}` : `"${code}":${pair.text}`);
    }
    return entity(success(`"base":"${base}","date":"${day}","rates":{${parts.join(',')}}`));
  };
  return amount ? build() : table.derived(`day ${base}`, build);
}
