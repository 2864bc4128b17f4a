// Step 1 of the blend: inside one source, express every currency against the USD pivot using that
// source's own USD figure of the same day, so that sources with different bases become comparable.
import { Decimal } from '../money/decimal.js';
import type { ObservationRow } from '../store/store.js';
import type { Cadence } from '../sources/types.js';

export interface SourceInfo {
  code: string;
  currency: string;
  cadence: Cadence;
  tableCadence?: Record<string, Cadence>;
  publishedAtUtc: string;
}

/** One source's figure for one currency, as units of that currency per 1 USD. */
export interface Contribution {
  source: string;
  currency: string;
  perUsd: Decimal;
  date: string;
  cadence: Cadence;
  /** `YYYY-MM-DD HH:MM:SS`: the figure's date at the source's publication time (D7). */
  bankUpdate: string;
}

/** Units of `row.quote` per 1 unit of the source's base currency. */
export function perBase(row: ObservationRow): Decimal {
  return row.direction === 'indirect' ? new Decimal(row.rate) : new Decimal(1).div(row.rate);
}

/** The newest row per currency; `rows` may hold several dates. */
export function newestByQuote(rows: ObservationRow[]): Map<string, ObservationRow> {
  const newest = new Map<string, ObservationRow>();
  for (const r of rows) {
    const seen = newest.get(r.quote);
    if (!seen || r.date > seen.date) newest.set(r.quote, r);
  }
  return newest;
}

/**
 * Contributions of one source. A currency is paired with the source's USD figure of the same date,
 * or the newest earlier one (a weekly table against a daily USD row). A source without any USD
 * figure contributes nothing yet; bridging through another currency comes with the full blend.
 */
export function rebaseToUsd(source: SourceInfo, rows: ObservationRow[]): Contribution[] {
  const cadenceOf = (r: ObservationRow): Cadence => source.tableCadence?.[r.table] ?? source.cadence;
  const stamp = (date: string) => `${date} ${source.publishedAtUtc}`;
  const contribution = (currency: string, perUsd: Decimal, r: ObservationRow): Contribution =>
    ({ source: source.code, currency, perUsd, date: r.date, cadence: cadenceOf(r), bankUpdate: stamp(r.date) });

  if (source.currency === 'USD') {
    return [...newestByQuote(rows).values()].filter((r) => r.quote !== 'USD').map((r) => contribution(r.quote, perBase(r), r));
  }
  const usdRows = rows.filter((r) => r.quote === 'USD').sort((a, b) => (a.date < b.date ? 1 : -1));
  if (usdRows.length === 0) return [];
  const usdOn = (date: string) => usdRows.find((u) => u.date <= date);

  const out: Contribution[] = [contribution(source.currency, new Decimal(1).div(perBase(usdRows[0]!)), usdRows[0]!)];
  for (const r of newestByQuote(rows).values()) {
    if (r.quote === 'USD' || r.quote === source.currency) continue;
    const usd = usdOn(r.date);
    if (!usd) continue;
    out.push(contribution(r.quote, perBase(r).div(perBase(usd)), r));
  }
  return out;
}
