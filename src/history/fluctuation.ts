// D15 `/v1/fluctuation/{base}`: per currency the rate on the first and the last day of the range,
// the change and the change in percent (8 significant digits), in exact decimals.
import { Decimal, toRateText } from '../money/decimal.js';
import type { RatesTable } from '../rates/table.js';

export interface Change {
  code: string;
  startRate: string;
  endRate: string;
  change: string;
  changePct: string;
}

/** Currencies with a rate on both days (of `symbols`, if given); undefined when the base has none. */
export function fluctuationRows(from: RatesTable, to: RatesTable, base: string, symbols: string[] | undefined): Change[] | undefined {
  const a = from.pairsFrom(base);
  const b = to.pairsFrom(base);
  if (!a || !b) return undefined;
  const codes = symbols ?? [...a.keys()];
  return codes.flatMap((code) => {
    const s = a.get(code);
    const e = b.get(code);
    if (!s || !e) return [];
    const change = new Decimal(e.text).minus(s.text);
    return [{ code, startRate: s.text, endRate: e.text, change: change.toString(), changePct: toRateText(change.div(s.text).times(100)) }];
  });
}
