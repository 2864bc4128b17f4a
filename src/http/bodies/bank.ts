// `/v1/bank/{code}`'s four bodies (D8: flat or full, as published or reciprocal), each serialized
// once per bank table and kept with it.
import { Num, stringify } from '../../money/json.js';
import type { BankRow, BankTable } from '../../rates/bank-table.js';
import { entity, type Entity, successOf } from './entity.js';

export type BankVariant = { full: boolean; reciprocal: boolean };

export function bankBody(table: BankTable, variant: BankVariant): Entity {
  return table.derived(`body ${variant.full} ${variant.reciprocal}`, () => {
    const value = (r: BankRow) => new Num(variant.reciprocal ? r.reciprocal : r.direct);
    const rates = variant.full
      ? table.rows.map((r) => ({ currency: r.currency, rate: value(r), last_update: r.lastUpdate, bank_update: r.bankUpdate, ...(r.period ? { valid_from: r.period.from, valid_to: r.period.to } : {}) }))
      : Object.fromEntries(table.rows.map((r) => [r.currency, value(r)]));
    const meta = { country_code: table.bank.countryCode, bank_name: table.bank.name, base_currency: table.base, last_update: table.lastUpdate ?? null };
    return entity(stringify(successOf({ meta, rates })));
  });
}
