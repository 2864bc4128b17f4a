// `GET /v1/{base}/latest`'s body without an amount: every code's rate from the base, serialized once
// per table and base and kept with the table (the hot path's main saving: a lookup, not 170
// divisions and a stringify), with its entity tag hashed once beside it.
import { Num, stringify } from '../../money/json.js';
import type { RatesTable } from '../../rates/table.js';
import { daysBetween } from '../../time/days.js';
import { entity, type Entity, successOf } from './entity.js';

/** What a `/latest` answer adds when `base`'s figures are past their freshness on `today` (D10):
 *  `"stale":true`, the newest figure's stamp and its age in days (D24); '' while they are fresh.
 *  D10 answers old figures in full, and this keeps them from passing for today's. */
export function staleFields(table: RatesTable, base: string, today: string): string {
  const r = table.get(base);
  if (r === undefined || today <= r.freshUntil) return '';
  const age = Math.max(0, daysBetween(r.bankUpdate.slice(0, 10), today));
  return `,"stale":true,"last_update":"${r.bankUpdate}","age_days":${age}`;
}

/** `/latest`'s body on `today`: latestBody, or while the base is stale that body with staleFields
 *  (built once per base and day). */
export function latestOn(table: RatesTable, base: string, today: string): Entity | undefined {
  const stale = staleFields(table, base, today);
  if (stale === '') return latestBody(table, base);
  return table.derived(`latest ${base} ${today}`, () => {
    const plain = latestBody(table, base);
    return plain && entity(`${plain.body.slice(0, -1)}${stale}}`);
  });
}

/** The whole `/latest` body for a base without amount, and its ETag: built once per table and base. */
export function latestBody(table: RatesTable, base: string): Entity | undefined {
  return table.derived(`latest ${base}`, () => {
    const pairs = table.pairsFrom(base);
    if (!pairs) return undefined;
    const rates: Record<string, Num> = {};
    for (const [code, pair] of pairs) rates[code] = new Num(pair.text);
    return entity(stringify(successOf({ rates })));
  });
}
