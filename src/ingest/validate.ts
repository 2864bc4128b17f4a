// Ingest rules: what a parsed payload must satisfy before anything of it is stored. A payload that
// breaks a rule is rejected whole, so a half-good file never replaces good data.
import { addDays } from '../time/days.js';
import { MAX_DAYS_AHEAD } from '../blend/fixing.js';
import { isKnownCode } from '../currencies/iso4217.js';
import { Decimal } from '../money/decimal.js';
import type { Observation } from '../sources/types.js';
import type { SnapshotInput } from '../store/store.js';

/** Period rates (D21) are set ahead of their period: HMRC's customs rates on the penultimate
 *  Thursday of the month before, up to two weeks ahead; a month and a half leaves room. */
export const MAX_PERIOD_DAYS_AHEAD = 45;

export class IngestRejected extends Error {
  override name = 'IngestRejected';
}

export interface Normalized {
  rows: SnapshotInput['rows'];
  /** Codes that are not currencies Kurs knows (fund codes, typos); dropped and reported, not fatal. */
  skipped: string[];
}

// Day 32 makes no Date at all; day 30 of February rolls over into March.
const realDate = (d: string) => /^\d{4}-\d{2}-\d{2}$/.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d);

/** Validates and normalises: unit multipliers are divided out in decimal, directions kept (D6). A
 *  period source's figures (`period`) each carry their last day in force; no other source's do. */
export function normalize(observations: Observation[], today: string, period = false): Normalized {
  if (observations.length === 0) throw new IngestRejected('payload holds no rates');
  const latest = addDays(today, period ? MAX_PERIOD_DAYS_AHEAD : MAX_DAYS_AHEAD);
  const seen = new Map<string, string>();
  const skipped = new Set<string>();
  const rows: Normalized['rows'] = [];
  for (const o of observations) {
    if (!realDate(o.date)) throw new IngestRejected(`${o.quote}: not a date: ${JSON.stringify(o.date)}`);
    if (o.date > latest) throw new IngestRejected(`${o.quote} on ${o.date}: dated more than ${period ? MAX_PERIOD_DAYS_AHEAD : MAX_DAYS_AHEAD} days ahead of ${today}`);
    if (period !== (o.validTo !== undefined)) throw new IngestRejected(`${o.quote} on ${o.date}: ${period ? 'a period rate without its last day (validTo)' : 'a fixing with a period (validTo)'}`);
    if (o.validTo !== undefined && (!realDate(o.validTo) || o.validTo < o.date)) throw new IngestRejected(`${o.quote} on ${o.date}: bad end of period ${JSON.stringify(o.validTo)}`);
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
    const value = `${perUnit} ${o.validTo ?? ''}`;
    const before = seen.get(key);
    if (before !== undefined) {
      if (before !== value) throw new IngestRejected(`${o.quote} on ${o.date}: payload gives two different rates`);
      continue;
    }
    seen.set(key, value);
    rows.push({ quote: o.quote, date: o.date, rate: perUnit, direction: o.direction, unit: o.unit, table: o.table ?? '', ...(o.validTo !== undefined ? { validTo: o.validTo } : {}) });
  }
  if (rows.length === 0) throw new IngestRejected('payload holds no rates of known currencies');
  return { rows, skipped: [...skipped].sort() };
}
