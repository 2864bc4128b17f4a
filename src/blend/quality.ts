// What the blend knows about its inputs, measured from the figures themselves over a trailing window
// rather than set as constants (docs/blending.md, "Measured quality"):
// - each currency's anchor: the currency it moves least against (USD or a hub such as EUR), so that
//   figures fixed at different moments disagree least when compared as crosses to it, and so that a
//   currency observed only at one moment follows its anchor's later moves (DKK follows EUR);
// - each currency's volatility against its anchor: how far the cross moves per trading day, from
//   every source's consecutive fixings of it;
// - each source's error for each currency: from the spread of the differences between every two
//   sources' figures of the same date (the three-cornered hat: Var(a − b) = ea² + eb² + the market's
//   move between their moments), solved for every source at once, so one bad source does not make
//   the others look bad, and a precise one stands out even among a few.
// Pure: figures in, plain numbers out. All figures are natural logarithms.
import { addDays } from '../time/days.js';
import { ranWhole, type Steps } from '../time/turns.js';
import { median } from './consensus.js';
import { SAME_FIXING } from './fixing.js';
import type { Figure, SourceInfo } from './inputs.js';
import { relaysOf, SAME_FIGURE } from './relays.js';
import { snapshotsOf, type Snapshot, type SnapshotMemo } from './snapshots.js';

export interface Quality {
  /** Standard deviation (log) of a source's figure of a currency against its anchor, by currency and
   *  source; a source has one only where it could be compared with another. */
  errors: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** Standard deviation (log) of a currency's move against its anchor over one trading day. */
  volatility: ReadonlyMap<string, number>;
  /** The currency each is blended against (absent: USD). */
  anchor: ReadonlyMap<string, string>;
  /** Sources found relaying another's fixing of a currency (their figures identical on nearly every
   *  date), by currency and source: the group's name. They count as one reading, as SAME_FIXING's
   *  do (fixing.ts). */
  relays: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/** A source without a track record for a currency: 0.1% for figures recorded from the feed, 0.3% for
 *  hand-assembled (C) or library-fixture (F) provenance, whose rows have not been confirmed live. */
export const PRIOR_ERROR: Record<NonNullable<SourceInfo['grade']> | 'none', number> = { A: 0.001, B: 0.001, C: 0.003, F: 0.003, none: 0.001 };
/** A currency without enough consecutive fixings: 0.6% a day, a typical floating major. */
export const PRIOR_VOLATILITY = 0.006;
/** A metal (D19) moves more than a currency. Measured on the recordings (robust SD of daily moves
 *  against USD): gold 0.8% in 2024 (BCPA) and 1.5% in 2026 (BNR); silver 4.6%, platinum 2.0%, palladium
 *  3.0% in March 2026 (NBU). Measured moves take over from these as they come. */
export const METAL_PRIOR_VOLATILITY: Readonly<Record<string, number>> = { XAU: 0.012, XAG: 0.03, XPT: 0.025, XPD: 0.025 };

/** The volatility a currency or metal is assumed to have before its moves are measured. */
export const priorVolatility = (code: string): number => METAL_PRIOR_VOLATILITY[code] ?? PRIOR_VOLATILITY;
/** How many measurements weigh as much as the prior (the estimate shrinks towards it before). */
const PRIOR_WEIGHT = 20;
/** No source is more exact than this: two basis points, about the rounding of a 5-digit figure. */
export const ERROR_FLOOR = 0.0002;
/** A fixed cross still moves a little between fixings: a floor. */
const VOLATILITY_FLOOR = 0.0001;
/** Median |x| of a normal variable is 0.6745 σ. */
export const MAD_TO_SD = 1.4826;
/** Consecutive fixings further apart than this are not a day's move. */
const MAX_GAP_DAYS = 7;
/** Currencies a currency may be anchored to besides USD, each itself anchored to USD. */
export const HUBS: readonly string[] = ['EUR'];
/** A hub is chosen only on this many measured moves; below, USD. */
const MIN_MOVES = 10;
/** How many of a currency's voices every other is compared with (measureErrors). */
const REFERENCES = 12;
/** Sweeps of the joint error solution: it settles within a few. */
const SWEEPS = 12;

/** Days of figures before the first of a day's month from which a day's quality is measured:
 *  about forty business days, measured once a month. */
export const QUALITY_DAYS = 45;

/** The first day of the month, from which a day's blend takes its measured quality. */
export const qualityAnchor = (day: string) => `${day.slice(0, 8)}01`;

/** The quality a blend of `day` uses: measured from the figures of the QUALITY_DAYS before the first
 *  of its month (every figure dated in that window; `rows` may hold more). `memo` keeps one per month;
 *  with `snapshots`, `rows` must be sorted by date. */
export function qualityFor(sources: readonly SourceInfo[], rows: readonly Figure[], day: string, memo?: Map<string, Quality>, snapshots?: SnapshotMemo): Quality {
  return ranWhole(qualitySteps(sources, rows, day, memo, snapshots));
}

/** qualityFor in steps, pausing between currencies: a month with every source took 0.3–0.5 s on a
 *  busy machine, which history's catch-up runs in turns of the event loop (D32). */
export function* qualitySteps(sources: readonly SourceInfo[], rows: readonly Figure[], day: string, memo?: Map<string, Quality>, snapshots?: SnapshotMemo): Steps<Quality> {
  const anchor = qualityAnchor(day);
  const kept = memo?.get(anchor);
  if (kept) return kept;
  const from = addDays(anchor, -QUALITY_DAYS);
  const window = snapshots
    ? (yield* snapshots.betweenSteps(rows, from, addDays(anchor, -1))).snapshots
    : snapshotsOf(new Map(sources.map((s) => [s.code, s])), rows.filter((r) => r.date >= from && r.date < anchor)).snapshots;
  yield;
  const quality = yield* measuring(sources, window, SAME_FIXING);
  memo?.set(anchor, quality);
  return quality;
}

export function priorError(source: Pick<SourceInfo, 'grade'> | undefined): number {
  return PRIOR_ERROR[source?.grade ?? 'none'];
}

/** Shrinks a measured standard deviation towards its prior by the number of measurements. */
const shrink = (measured: number, n: number, prior: number) => Math.sqrt((n * measured ** 2 + PRIOR_WEIGHT * prior ** 2) / (n + PRIOR_WEIGHT));

/** One voice's figure of a currency on one date: sources relaying one fixing speak as one (the first
 *  of them in code order). */
interface Point {
  voice: string;
  date: string;
  hours: number;
  /** ln(units per USD). */
  log: number;
  snapshot: Snapshot;
}

/** Every voice's figures, by currency, each voice's in date order. */
function pointsOf(snapshots: readonly Snapshot[], sameFixing: Readonly<Record<string, string>>): Map<string, Point[]> {
  const seen = new Set<string>();
  const out = new Map<string, Point[]>();
  for (const snapshot of [...snapshots].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : a.date < b.date ? -1 : a.date > b.date ? 1 : 0))) {
    const voice = sameFixing[snapshot.source] ?? snapshot.source;
    const key = `${voice} ${snapshot.date}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const [currency, f] of snapshot.figures) {
      const point = { voice, date: snapshot.date, hours: f.hours, log: f.log, snapshot };
      const list = out.get(currency);
      if (list) list.push(point);
      else out.set(currency, [point]);
    }
  }
  // By voice, then date: a voice relaying one fixing may appear under its members' codes.
  for (const list of out.values()) list.sort((a, b) => (a.voice < b.voice ? -1 : a.voice > b.voice ? 1 : a.hours - b.hours));
  return out;
}

/** ln(currency per anchor) of a point, or undefined where its snapshot has no anchor. */
function crossOf(p: Point, anchor: string): number | undefined {
  if (anchor === 'USD') return p.log;
  const a = p.snapshot.figures.get(anchor);
  return a ? p.log - a.log : undefined;
}

/** Quality measured from `snapshots` (those of unknown sources are ignored). */
export function measureQuality(sources: readonly SourceInfo[], snapshots: readonly Snapshot[], sameFixing: Readonly<Record<string, string>> = {}): Quality {
  return ranWhole(measuring(sources, snapshots, sameFixing));
}

/** measureQuality's steps: one pause after the points are sorted, and after each currency. */
function* measuring(sources: readonly SourceInfo[], snapshots: readonly Snapshot[], sameFixing: Readonly<Record<string, string>>): Steps<Quality> {
  const info = new Map(sources.map((s) => [s.code, s]));
  const byCurrency = pointsOf(snapshots.filter((s) => info.has(s.source)), sameFixing);
  yield;
  const volatility = new Map<string, number>();
  const anchor = new Map<string, string>();
  for (const [currency, points] of byCurrency) {
    if (currency === 'USD') continue;
    const prior = priorVolatility(currency);
    let best = { hub: 'USD', vol: measureVolatility(points, 'USD', prior).vol };
    if (!HUBS.includes(currency)) {
      for (const hub of HUBS) {
        const m = measureVolatility(points, hub, prior);
        if (m.moves >= MIN_MOVES && m.vol < best.vol) best = { hub, vol: m.vol };
      }
    }
    volatility.set(currency, best.vol);
    if (best.hub !== 'USD') anchor.set(currency, best.hub);
    yield;
  }
  const errors = new Map<string, Map<string, number>>();
  const members = new Map<string, string[]>();
  for (const s of sources) {
    const voice = sameFixing[s.code] ?? s.code;
    members.set(voice, [...(members.get(voice) ?? []), s.code]);
  }
  const prior = (voice: string) => priorError(info.get(voice) ?? info.get(members.get(voice)?.[0] ?? ''));
  const relays = new Map<string, Map<string, string>>();
  for (const [currency, points] of byCurrency) {
    if (currency === 'USD') continue;
    const identical = new Map<string, { same: number; all: number }>();
    const bySource = new Map<string, number>();
    for (const [voice, e] of measureErrors(points, anchor.get(currency) ?? 'USD', volatility.get(currency)!, prior, identical)) {
      for (const source of members.get(voice) ?? [voice]) bySource.set(source, e);
    }
    errors.set(currency, bySource);
    const relayed = relaysOf(identical, members, sameFixing);
    if (relayed.size > 0) relays.set(currency, relayed);
    yield;
  }
  return { errors, volatility, anchor, relays };
}

/** A cross's volatility from every voice's consecutive fixings of it (each voice against itself),
 *  shrunk towards `prior` while the moves are few. */
function measureVolatility(points: readonly Point[], anchor: string, prior: number): { vol: number; moves: number } {
  const moves: number[] = [];
  let prev: { voice: string; y: number; hours: number } | undefined;
  for (const p of points) {
    const y = crossOf(p, anchor);
    if (y === undefined) continue;
    if (prev?.voice === p.voice) {
      const days = (p.hours - prev.hours) / 24;
      if (days >= 0.5 && days <= MAX_GAP_DAYS) moves.push(Math.abs(y - prev.y) / Math.sqrt(days));
    }
    prev = { voice: p.voice, y, hours: p.hours };
  }
  if (moves.length === 0) return { vol: prior, moves: 0 };
  return { vol: Math.max(VOLATILITY_FLOOR, shrink(MAD_TO_SD * median(moves), moves.length, prior)), moves: moves.length };
}

/**
 * Each voice's error for a cross: for every two voices, the robust spread of their differences on the
 * dates both published, less the market's move between their fixing moments, is the sum of their two
 * variances; the variances that best fit all those sums at once are each voice's (least squares
 * weighted by how well each sum is known, n / V²: a sum with a wild voice in it says little about the
 * other, and does not spill onto it). The market's move is the volatility over the mean hours between
 * their fixings (fixing hours rarely change). The spread is taken around zero, not around the median
 * difference: a source that sits steadily off the others is off, not precise. A voice's error then
 * shrinks towards its prior by the number of dates it was compared on.
 */
function measureErrors(points: readonly Point[], anchor: string, vol: number, prior: (voice: string) => number, identical: Map<string, { same: number; all: number }>): Map<string, number> {
  const names: string[] = [];
  const index = new Map<string, number>();
  const byDate = new Map<string, { voice: number; y: number; hours: number }[]>();
  for (const p of points) {
    const y = crossOf(p, anchor);
    if (y === undefined) continue;
    let voice = index.get(p.voice);
    if (voice === undefined) index.set(p.voice, (voice = names.push(p.voice) - 1));
    const entry = { voice, y, hours: p.hours };
    const day = byDate.get(p.date);
    if (day) day.push(entry);
    else byDate.set(p.date, [entry]);
  }
  const n = names.length;
  if (n < 2) return new Map();
  // Every voice is compared with the REFERENCES voices that published the currency most often (and
  // those with each other): enough to solve for all, where every pair of eighty grows as 80².
  const dates = new Int32Array(n);
  for (const day of byDate.values()) for (const e of day) dates[e.voice] = dates[e.voice]! + 1;
  const reference = new Uint8Array(n);
  for (const v of [...names.keys()].sort((a, b) => dates[b]! - dates[a]!).slice(0, REFERENCES)) reference[v] = 1;
  const diffs: (number[] | undefined)[] = new Array(n * n);
  const gaps: (number[] | undefined)[] = new Array(n * n);
  const compared = new Int32Array(n);
  for (const day of byDate.values()) {
    if (day.length < 2) continue;
    for (const e of day) compared[e.voice] = compared[e.voice]! + 1;
    for (let i = 0; i < day.length; i++) {
      for (let j = i + 1; j < day.length; j++) {
        if (!reference[day[i]!.voice] && !reference[day[j]!.voice]) continue;
        const [a, b] = day[i]!.voice < day[j]!.voice ? [day[i]!, day[j]!] : [day[j]!, day[i]!];
        const k = a.voice * n + b.voice;
        (diffs[k] ??= []).push(Math.abs(a.y - b.y));
        (gaps[k] ??= []).push(Math.abs(a.hours - b.hours));
      }
    }
  }
  const q = vol ** 2 / 24;
  const floor2 = ERROR_FLOOR ** 2;
  // Every pair's sum, each seen from both its voices (flat, for the sweeps below).
  const other: number[] = [];
  const weight: number[] = [];
  const sum: number[] = [];
  const of: number[][] = names.map(() => []);
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const d = diffs[a * n + b];
      if (!d) continue;
      let same = 0;
      for (const x of d) if (x < SAME_FIGURE) same++;
      if (same > 0) identical.set(`${names[a]}\t${names[b]}`, { same, all: d.length });
      const gap = gaps[a * n + b]!.reduce((s, g) => s + g, 0) / d.length;
      const v = Math.max(0, (MAD_TO_SD * median(d)) ** 2 - q * gap);
      const w = d.length / (v + 2 * floor2) ** 2;
      of[a]!.push(other.length);
      other.push(b), weight.push(w), sum.push(v);
      of[b]!.push(other.length);
      other.push(a), weight.push(w), sum.push(v);
    }
  }
  const variance = Float64Array.from(names, (name) => prior(name) ** 2);
  for (let sweep = 0; sweep < SWEEPS; sweep++) {
    for (let a = 0; a < n; a++) {
      const list = of[a]!;
      if (list.length === 0) continue;
      let num = 0;
      let den = 0;
      for (const k of list) {
        num += weight[k]! * (sum[k]! - variance[other[k]!]!);
        den += weight[k]!;
      }
      variance[a] = Math.max(floor2, num / den);
    }
  }
  // A voice never compared with another has no measure: its prior stands (blend.ts).
  const out = new Map<string, number>();
  names.forEach((name, a) => {
    if (of[a]!.length > 0) out.set(name, shrink(Math.sqrt(variance[a]!), compared[a]!, prior(name)));
  });
  return out;
}
