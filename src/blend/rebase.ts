// The blend's first step (blend.ts): inside one source, express every currency per USD through that
// source's own figure for a pivot currency of the same day: USD itself, or for a source that
// publishes no USD, a bridge currency whose USD rate the other sources' blend already knows.
import { Decimal } from '../money/decimal.js';
import { fixingDay, fixingTime, publishedOn } from './fixing.js';
import type { Cadence } from '../sources/types.js';
import type { Figure, SourceInfo } from './inputs.js';

/** One source's figure for one currency, as units of that currency per 1 USD. */
export interface Contribution {
  source: string;
  currency: string;
  /** Units per USD in binary floating point: weighing needs no more than its 15 digits, and only
   *  8-digit results are ever shown (D6); the published figure below keeps the bank's digits. */
  perUsd: number;
  date: string;
  cadence: Cadence;
  /** `YYYY-MM-DD HH:MM:SS`: the figure's date at the source's publication time (D7). */
  bankUpdate: string;
  /** `YYYY-MM-DD HH:MM:SS`: when the figure was fixed (fixing.ts); what recency weights compare. */
  moment: string;
  /** The published figure, per 1 unit, in the published direction, and that direction. */
  published: string;
  direction: Figure['direction'];
  /** The unit multiplier the figure was published for (100 JPY; 1 for a metal's troy ounce, D19). */
  unit: number;
  /** The currency the source was bridged through when it publishes no USD. */
  bridge?: string;
}

/** When the bank published a figure dated `date` (D7): its date, shifted by the source's day offset,
 *  at its publication time. */
export function bankUpdate(source: Pick<SourceInfo, 'publishedAtUtc' | 'publishedDayOffset' | 'publishedDayOffsetFrom'>, date: string): string {
  return `${publishedOn(source, date)} ${source.publishedAtUtc}`;
}

/** Units of `row.quote` per 1 unit of the source's base currency. */
export function perBase(row: Figure): Decimal {
  return row.direction === 'indirect' ? new Decimal(row.rate) : new Decimal(1).div(row.rate);
}

/** `perBase` in floating point, for blending. */
const perBaseNumber = (row: Figure): number => (row.direction === 'indirect' ? Number(row.rate) : 1 / Number(row.rate));

/** The newest row per currency; `rows` may hold several dates. */
export function newestByQuote<R extends Figure>(rows: R[]): Map<string, R> {
  const newest = new Map<string, R>();
  for (const r of rows) {
    const seen = newest.get(r.quote);
    if (!seen || r.date > seen.date) newest.set(r.quote, r);
  }
  return newest;
}

export interface Pivot {
  currency: string;
  /** Units of the pivot per 1 USD: 1 for USD itself, the blended figure for a bridge. */
  perUsd: number;
}

/**
 * Contributions of one source through `pivot`. A currency is paired with the source's pivot figure
 * of the same date, or the newest earlier one (a weekly table against a daily USD row). Empty when
 * the source has no figure for the pivot.
 */
export function rebase(source: SourceInfo, rows: Figure[], pivot: Pivot = { currency: 'USD', perUsd: 1 }): Contribution[] {
  const cadenceOf = (r: Figure): Cadence => source.tableCadence?.[r.table] ?? source.cadence;
  const bridge = pivot.currency === 'USD' ? {} : { bridge: pivot.currency };
  // A source's rows share a handful of dates: stamp each date once.
  const stamps = new Map<string, string>();
  const stamp = (date: string) => stamps.get(date) ?? stamps.set(date, bankUpdate(source, date)).get(date)!;
  const contribution = (currency: string, perUsd: number, r: Figure): Contribution => ({
    source: source.code, currency, perUsd, date: r.date, cadence: cadenceOf(r), bankUpdate: stamp(r.date),
    moment: `${fixingDay(source, r.date)} ${fixingTime(source, currency)}`, published: r.rate, direction: r.direction, unit: r.unit, ...bridge,
  });
  const newest = [...newestByQuote(rows).values()];

  if (source.currency === pivot.currency) {
    // The pivot is the base: every figure is already per unit of it.
    return newest.filter((r) => r.quote !== pivot.currency).map((r) => contribution(r.quote, perBaseNumber(r) * pivot.perUsd, r));
  }
  const pivotRows = rows.filter((r) => r.quote === pivot.currency).sort((a, b) => (a.date < b.date ? 1 : -1));
  if (pivotRows.length === 0) return [];
  const pivotOn = (date: string) => pivotRows.find((u) => u.date <= date);
  // Units of X per USD = (X per base) / (pivot per base) × (pivot per USD).
  const perUsd = (r: Figure, p: Figure) => (perBaseNumber(r) / perBaseNumber(p)) * pivot.perUsd;

  const latestPivot = pivotRows[0]!;
  // The base's own rate comes from the pivot row; a bridged source says nothing new about the bridge.
  const out: Contribution[] = [contribution(source.currency, pivot.perUsd / perBaseNumber(latestPivot), latestPivot)];
  for (const r of newest) {
    if (r.quote === pivot.currency || r.quote === source.currency || r.quote === 'USD') continue;
    const p = pivotOn(r.date);
    if (p) out.push(contribution(r.quote, perUsd(r, p), r));
  }
  return out;
}
