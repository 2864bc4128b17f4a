// Each source's figures of one date, rebased to USD inside the source (rebase.ts): a snapshot of the
// whole market at the source's fixing moment. Crosses taken inside one snapshot (a currency against
// its anchor, blend.ts) carry no difference of moment. A past day's blend reads some forty days of
// snapshots, and materialising reads each date again for every day after it: `SnapshotMemo` rebases
// each date once per run.
import { DAY_MS } from '../time/days.js';
import { ranWhole, type Steps } from '../time/turns.js';
import { FRESH_DAYS } from './freshness.js';
import { tradingHoursAt } from './hours.js';
import type { Figure, SourceInfo } from './inputs.js';
import { rebase, type Contribution, type Pivot } from './rebase.js';

/** How coarsely a figure was rounded, half a unit in its last published digit relative to it (`0.391`
 *  is known to ±0.13%): a source without a track record is known no better than that (readings.ts);
 *  a measured source's error already holds its rounding (quality.ts). */
export function roundingError(published: string): number {
  const point = published.indexOf('.');
  const places = point < 0 ? 0 : published.length - point - 1;
  return (0.5 * 10 ** -places) / Number(published);
}

/** A figure as the market model reads it. */
export interface Fixing extends Contribution {
  /** ln(units per USD). */
  log: number;
  /** The fixing moment in trading hours from the epoch (hours.ts). */
  hours: number;
  /** Its date, and the last day it is fresh without grace (D10), as days from the epoch. */
  day: number;
  freshDay: number;
  /** Its rounding: half a unit in the last published digit, relative (roundingError). */
  rounding: number;
  /** Its snapshot's figures, itself among them: crosses are taken inside one snapshot. */
  siblings: ReadonlyMap<string, Fixing>;
  /** What the model read of it last (readings.ts): a past day reads each figure again for every day
   *  its witness window covers, with the same month's quality. On the figure, not in a WeakMap: a
   *  first start reads a million of them, and a WeakMap's entries weigh on every collection. */
  read: Read | undefined;
}

/** A figure's cross to an anchor within its snapshot, and its variance, for one month's quality. */
export interface Read {
  /** The measured quality it was read with (compared by identity). */
  quality: object | undefined;
  anchor: string;
  /** undefined where the snapshot has no figure of the anchor. */
  y: number | undefined;
  variance: number;
  error: number;
  /** The group it relays a fixing with, if any. */
  relayed: string | undefined;
}

export interface Snapshot {
  source: string;
  date: string;
  figures: ReadonlyMap<string, Fixing>;
  /** The same figures, to walk. */
  list: readonly Fixing[];
  /** Its currencies' codes, joined in order: which table of the source it is. */
  currencies: string;
}

/** Snapshots, and the rows of (source, date)s without the source's own USD figure: those are
 *  bridged through a currency the blend prices (blend.ts). */
export interface Snapshots {
  snapshots: Snapshot[];
  orphans: Figure[];
}

/** One (source, date)'s rows as a snapshot through `pivot` (USD by default); undefined without it. */
export function snapshotOf(source: SourceInfo, rows: readonly Figure[], pivot?: Pivot): Snapshot | undefined {
  const figures = new Map<string, Fixing>();
  // The figures share a date and, but for a few per-currency fixing hours, a moment.
  const day = Date.parse(`${rows[0]!.date}T00:00:00Z`) / DAY_MS;
  let moment = '';
  let hours = 0;
  for (const c of rebase(source, rows as Figure[], pivot)) {
    if (!(c.perUsd > 0 && Number.isFinite(c.perUsd))) continue;
    if (c.moment !== moment) [moment, hours] = [c.moment, tradingHoursAt(c.moment)];
    figures.set(c.currency, {
      source: c.source, currency: c.currency, perUsd: c.perUsd, date: c.date, cadence: c.cadence, bankUpdate: c.bankUpdate, moment: c.moment,
      published: c.published, direction: c.direction, unit: c.unit, bridge: c.bridge,
      log: Math.log(c.perUsd), hours, day, freshDay: day + FRESH_DAYS[c.cadence], rounding: roundingError(c.published), siblings: figures, read: undefined,
    });
  }
  return figures.size > 0 ? { source: source.code, date: rows[0]!.date, figures, list: [...figures.values()], currencies: [...figures.keys()].sort().join(' ') } : undefined;
}

/** Rows grouped by (source, date), each group in the rows' order. */
export function bySourceAndDate(rows: readonly Figure[]): Figure[][] {
  const groups = new Map<string, Figure[]>();
  for (const r of rows) {
    const key = `${r.source} ${r.date}`;
    const list = groups.get(key);
    if (list) list.push(r);
    else groups.set(key, [r]);
  }
  return [...groups.values()];
}

/** Every (source, date) of `rows`, in any order; rows of unknown sources are ignored. */
export function snapshotsOf(sources: ReadonlyMap<string, SourceInfo>, rows: readonly Figure[]): Snapshots {
  const out: Snapshots = { snapshots: [], orphans: [] };
  for (const list of bySourceAndDate(rows.filter((r) => sources.has(r.source)))) {
    const snapshot = snapshotOf(sources.get(list[0]!.source)!, list);
    if (snapshot) out.snapshots.push(snapshot);
    else out.orphans.push(...list);
  }
  return out;
}

/**
 * Snapshots of rows sorted by date, one date block at a time, each block rebased once: kept by the
 * block's first row object (and its length), so a block is reused only while the same rows are
 * passed, as they are within one materialising run or one measurement.
 */
export class SnapshotMemo {
  private readonly kept = new WeakMap<Figure, { length: number; of: Snapshots }>();

  constructor(private readonly sources: ReadonlyMap<string, SourceInfo>) {}

  /** The snapshots of every date of `rows` (sorted by date) in `from..to`. */
  between(rows: readonly Figure[], from: string, to: string): Snapshots {
    return ranWhole(this.betweenSteps(rows, from, to));
  }

  /** `between` in steps, one pause after each date it had to read (D32): a month's quality window
   *  read for the first time took 10–45 ms. */
  *betweenSteps(rows: readonly Figure[], from: string, to: string): Steps<Snapshots> {
    const out: Snapshots = { snapshots: [], orphans: [] };
    let i = lowerBound(rows, from);
    while (i < rows.length && rows[i]!.date <= to) {
      const first = rows[i]!;
      let block = this.kept.get(first);
      let j = block ? i + block.length : i + 1;
      // A kept block still ends where it did (the same rows, not more of that date).
      if (!block || rows[j - 1]?.date !== first.date || rows[j]?.date === first.date) {
        j = i + 1;
        while (j < rows.length && rows[j]!.date === first.date) j++;
        block = { length: j - i, of: snapshotsOf(this.sources, rows.slice(i, j)) };
        this.kept.set(first, block);
        yield;
      }
      out.snapshots.push(...block.of.snapshots);
      out.orphans.push(...block.of.orphans);
      i = j;
    }
    return out;
  }
}

/** The first index of a date-sorted list whose date is at or after `date`. */
export function lowerBound(rows: readonly { date: string }[], date: string): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]!.date < date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
