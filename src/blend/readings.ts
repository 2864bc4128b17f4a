// One currency's figures as the market model reads them (blend.ts → filter.ts): each source's figure
// as a cross to the currency's anchor, taken inside the source's own snapshot so that it carries no
// difference of moment, with its variance (measured error, or the grade's prior and the rounding);
// gross outliers dropped by consensus among each date's figures; and one reading per source and
// date, sources relaying one fixing making one reading between them on the dates their figures are
// the same one. Pure but for what it keeps on each figure (snapshots.ts, `read`): what depends on
// the figure and the month's quality alone.
import { outliers } from './consensus.js';
import { SAME_FIXING } from './fixing.js';
import type { Reading } from './filter.js';
import type { SourceInfo } from './inputs.js';
import { priorError, priorVolatility, type Quality } from './quality.js';
import { SAME_FIGURE } from './relays.js';
import type { Fixing, Read } from './snapshots.js';

/** The anchor's own estimate: ln(anchor per USD) and its variance at the reference moment. */
export interface Estimate {
  log: number;
  variance: number;
}

export interface Setting {
  sources: ReadonlyMap<string, SourceInfo>;
  quality: Quality | undefined;
  /** Trading hours of the reference moment. */
  reference: number;
  /** Epoch day of the witness window's first date. */
  witnessFrom: number;
}

export type Grouped = Reading & { members: number[] };

export interface Readings {
  /** In fixing order; `members` are indexes into the entries. */
  readings: Grouped[];
  /** Per entry: read at all (current, or of the witness's days); an outlier; its source's error. */
  used: number[];
  odd: number[];
  error: number[];
}

function crossOf(f: Fixing, currency: string, anchor: string, s: Setting): Read {
  const kept = f.read;
  if (kept && kept.quality === s.quality && kept.anchor === anchor) return kept;
  const source = f.source;
  const a = anchor === 'USD' ? undefined : f.siblings.get(anchor);
  const measured = s.quality?.errors.get(currency)?.get(source);
  const error = measured ?? priorError(s.sources.get(source));
  // Without a track record the figure is known no better than its rounding (and its anchor's).
  const variance = measured !== undefined ? error ** 2 : error ** 2 + f.rounding ** 2 / 3 + (a ? a.rounding ** 2 / 3 : 0);
  const y = anchor === 'USD' ? f.log : a ? f.log - a.log : undefined;
  const relayed = SAME_FIXING[source] ?? s.quality?.relays.get(currency)?.get(source);
  f.read = { quality: s.quality, anchor, y, variance, error, relayed };
  return f.read;
}

export function readingsOf(currency: string, entries: readonly Fixing[], anchor: string, anchored: Estimate | undefined, s: Setting): Readings {
  const n = entries.length;
  // Plain arrays: a few dozen entries each, where typed arrays' allocation costs more than it saves.
  const used: number[] = new Array(n).fill(0);
  const odd: number[] = new Array(n).fill(0);
  const error: number[] = new Array(n).fill(0);
  const y: number[] = new Array(n).fill(0);
  const variance: number[] = new Array(n).fill(0);
  const cross: Read[] = new Array(n);
  // Carry-forward: a figure counts while it would still be fresh on the day of the newest one, and
  // every figure of the witness's days counts as what the market showed then.
  let newest = 0;
  for (let i = 0; i < n; i++) if (entries[i]!.day > newest) newest = entries[i]!.day;
  const anchorQ = (s.quality?.volatility.get(anchor) ?? priorVolatility(anchor)) ** 2 / 24;
  for (let i = 0; i < n; i++) {
    const e = entries[i]!;
    if (!(e.freshDay >= newest || e.day >= s.witnessFrom)) continue;
    used[i] = 1;
    const c = (cross[i] = crossOf(e, currency, anchor, s));
    error[i] = c.error;
    if (c.y !== undefined) {
      y[i] = c.y;
      variance[i] = c.variance;
    } else {
      // Without the anchor: against the anchor's estimate, and the anchor's move since the figure.
      y[i] = e.log - anchored!.log;
      variance[i] = c.variance + anchored!.variance + anchorQ * Math.abs(s.reference - e.hours);
    }
  }
  markOutliers(entries, used, y, odd);
  markUnmeasured(currency, entries, used, odd, s);
  return { readings: group(entries, cross, used, odd, y, variance), used, odd, error };
}

/** The majors (the G10 currencies but the dollar, the blend's pivot): the world's most traded, quoted
 *  by dozens of measured sources, and the ones a newcomer must not move (issue 36). */
export const MAJORS: ReadonlySet<string> = new Set(['EUR', 'JPY', 'GBP', 'CHF', 'CAD', 'AUD', 'NZD', 'SEK', 'NOK']);
/** Where `HEARD_AFTER` sources with a track record for a major have figures in this blend, a source
 *  without one is read (the measurement compares every source's figures, whatever their weight, so
 *  it builds its record) but not weighed until measured. Marked 2 in `odd` (1 is a gross outlier).
 *  Elsewhere its grade's prior counts, as a currency few sources quote needs every voice. */
export const HEARD_AFTER = 3;
export const UNMEASURED = 2;

function markUnmeasured(currency: string, entries: readonly Fixing[], used: number[], odd: number[], s: Setting): void {
  const measured = s.quality?.errors.get(currency);
  if (!MAJORS.has(currency) || !measured || measured.size < HEARD_AFTER) return;
  const speaking = new Set<string>();
  for (let i = 0; i < entries.length; i++) if (used[i] && !odd[i] && measured.has(entries[i]!.source)) speaking.add(entries[i]!.source);
  if (speaking.size < HEARD_AFTER) return;
  for (let i = 0; i < entries.length; i++) if (used[i] && !odd[i] && !measured.has(entries[i]!.source)) odd[i] = UNMEASURED;
}

/** Gross outliers (a wrong unit, a stale row) by consensus among each date's figures (3 or more). */
function markOutliers(entries: readonly Fixing[], used: number[], y: number[], odd: number[]): void {
  const byDay = new Map<number, number[]>();
  for (let i = 0; i < entries.length; i++) {
    if (!used[i]) continue;
    const day = entries[i]!.day;
    const list = byDay.get(day);
    if (list) list.push(i);
    else byDay.set(day, [i]);
  }
  for (const same of byDay.values()) {
    if (same.length < 3) continue;
    const flags = outliers(same.map((i) => Math.exp(y[i]!)));
    for (let k = 0; k < same.length; k++) odd[same[k]!] = flags[k] ? 1 : 0;
  }
}

/** One reading per source and date; relays of one fixing make one reading on the dates their figures
 *  are the same one (a relay's own slip stays its own reading). */
function group(entries: readonly Fixing[], cross: readonly Read[], used: number[], odd: number[], y: number[], variance: number[]): Grouped[] {
  const readings: Grouped[] = [];
  let byGroup: Map<string, Grouped> | undefined;
  for (let i = 0; i < entries.length; i++) {
    if (!used[i] || odd[i]) continue;
    const e = entries[i]!;
    const { relayed } = cross[i]!;
    const key = relayed === undefined ? undefined : `${relayed} ${e.date}`;
    const seen = key === undefined ? undefined : byGroup?.get(key);
    if (seen && Math.abs(seen.y - y[i]!) < SAME_FIGURE) {
      seen.members.push(i);
      // A relay is never fixed before what it relays: the group's reading is as late as its latest.
      seen.hours = Math.max(seen.hours, e.hours);
      continue;
    }
    const reading = { hours: e.hours, y: y[i]!, variance: variance[i]!, group: seen ? e.source : (relayed ?? e.source), members: [i] };
    if (key !== undefined && !seen) (byGroup ??= new Map()).set(key, reading);
    readings.push(reading);
  }
  return readings.sort((a, b) => a.hours - b.hours);
}
