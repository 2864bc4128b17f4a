// Ingest rules: what a parsed payload must satisfy before anything of it is stored. A payload that
// breaks a rule is rejected whole, so a half-good file never replaces good data.
import { addDays } from '../time/days.js';
import { isKnownCode } from '../currencies/iso4217.js';
import { Decimal } from '../money/decimal.js';
import type { Observation } from '../sources/types.js';
import type { SnapshotInput } from '../store/store.js';

/** Several banks publish the next business day's rate the evening before. */
export const MAX_DAYS_AHEAD = 2;

export class IngestRejected extends Error {
  override name = 'IngestRejected';
}

export interface Normalized {
  rows: SnapshotInput['rows'];
  /** Codes that are not currencies Kurs knows (fund codes, typos); dropped and reported, not fatal. */
  skipped: string[];
}

const realDate = (d: string) => /^\d{4}-\d{2}-\d{2}$/.test(d) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d);

/** Validates and normalises: unit multipliers are divided out in decimal, directions kept (D6). */
export function normalize(observations: Observation[], today: string): Normalized {
  if (observations.length === 0) throw new IngestRejected('payload holds no rates');
  const latest = addDays(today, MAX_DAYS_AHEAD);
  const seen = new Map<string, string>();
  const skipped = new Set<string>();
  const rows: Normalized['rows'] = [];
  for (const o of observations) {
    if (!realDate(o.date)) throw new IngestRejected(`${o.quote}: not a date: ${JSON.stringify(o.date)}`);
    if (o.date > latest) throw new IngestRejected(`${o.quote} on ${o.date}: dated more than ${MAX_DAYS_AHEAD} days ahead of ${today}`);
    if (!/^[A-Z]{3}$/.test(o.quote) || !isKnownCode(o.quote)) {
      skipped.add(o.quote);
      continue;
    }
    let rate: Decimal;
    try {
      rate = new Decimal(o.rate);
    } catch {
      throw new IngestRejected(`${o.quote} on ${o.date}: rate is not a number: ${JSON.stringify(o.rate)}`);
    }
    if (!rate.isFinite() || rate.lte(0)) throw new IngestRejected(`${o.quote} on ${o.date}: rate must be positive, got ${o.rate}`);
    if (!Number.isInteger(o.unit) || o.unit <= 0) throw new IngestRejected(`${o.quote} on ${o.date}: bad unit ${o.unit}`);
    const perUnit = o.unit === 1 ? rate.toString() : rate.div(o.unit).toString();
    const key = `${o.quote} ${o.date}`;
    const before = seen.get(key);
    if (before !== undefined) {
      if (before !== perUnit) throw new IngestRejected(`${o.quote} on ${o.date}: payload gives two different rates`);
      continue;
    }
    seen.set(key, perUnit);
    rows.push({ quote: o.quote, date: o.date, rate: perUnit, direction: o.direction, unit: o.unit, table: o.table ?? '' });
  }
  if (rows.length === 0) throw new IngestRejected('payload holds no rates of known currencies');
  return { rows, skipped: [...skipped].sort() };
}
