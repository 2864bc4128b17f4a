// The blend, composed: `blend` below is the method's one entry point and lists its steps in order;
// each step is a small module of its own (docs/blending.md). Pure: rows, sources, the reference day
// and moment and measured quality in; a table out.
import { isActiveCurrency } from '../currencies/iso4217.js';
import { Decimal } from '../money/decimal.js';
import { addDays, DAY_MS } from '../time/days.js';
import { track } from './filter.js';
import { tradingDay, tradingHoursAt } from './hours.js';
import { pegsOn, type Peg } from './pegs.js';
import type { Figure, SourceInfo } from './inputs.js';
import { priorError, priorVolatility, type Quality } from './quality.js';
import type { Contribution } from './rebase.js';
import { bySourceAndDate, snapshotOf, snapshotsOf, type Fixing, type Snapshot, type Snapshots } from './snapshots.js';
import { readingsOf, UNMEASURED, type Estimate, type Setting } from './readings.js';

export type Exclusion = false | 'stale' | 'outlier' | 'unmeasured' | 'jump' | 'superseded' | 'later' | 'peg';

export interface WeightedContribution extends Contribution {
  /** Share of the blend (0 when excluded), in floating point like `perUsd`. */
  weight: number;
  excluded: Exclusion;
  /** The source's measured error for this currency (standard deviation, relative; quality.ts). */
  error: number;
}

export interface BlendedRate {
  currency: string;
  /** Units of the currency per 1 USD, to 15 significant digits (8 are ever shown, D6). */
  perUsd: Decimal;
  /** Newest contributing `bank_update` (D7). */
  bankUpdate: string;
  /** Last day (inclusive) on which at least one contribution is fresh (D10). */
  freshUntil: string;
  /** Variance of ln(perUsd) at the reference moment (the model's; 0 for a peg or the pivot). */
  variance?: number;
  /** Each source's newest figure, with its share of the estimate. */
  contributions: WeightedContribution[];
  /** The currency it was blended against, when not USD (quality.ts): its figures are crosses to it. */
  anchor?: string;
  /** The share of the estimate held by the sources' figures of the days before their newest: the
   *  witness (the contributions' weights and this sum to 1). */
  earlier?: number;
  peg?: Peg;
}

export interface BlendOptions {
  /** The day the blend is for (YYYY-MM-DD): no figure dated after it (plus what banks publish ahead) is used. */
  referenceDay: string;
  graceDays: number;
  /** `YYYY-MM-DD HH:MM:SS`: the moment the blend stands for (now, or a past day's moment). By default
   *  the end of the reference day. */
  referenceMoment?: string;
  /** Which currencies the blend quotes; by default the active ones (D4). History passes the
   *  currencies current on its day, so defunct ones appear on days they were current (D14). */
  quotes?: (code: string) => boolean;
  /** False to leave `contributions` empty: history keeps only the figures, and building them for
   *  every day of 40 years filled the old heap with ~800 MB of garbage (issue 14's RSS target). */
  contributions?: boolean;
  /** Measured errors, volatilities and anchors (quality.ts); without them every source has its
   *  grade's prior and every currency is blended against USD. */
  quality?: Quality;
  /** False to leave the pegs of the day unapplied (withPegs applies them to a blend later). */
  pegs?: boolean;
}

/** Calendar days before the reference day whose figures witness it: five trading days. */
const WITNESS_DAYS = 4;
/** Bridge currencies in order of preference for a source without USD: the most widely published. */
const BRIDGES = ['EUR', 'GBP', 'JPY', 'CHF', 'CNY'];

const max = (values: string[]) => values.reduce((m, v) => (v > m ? v : m), '');

/** A float as exact decimal text of its 15 significant digits: the binary tail never shows (D6). */
export const toDecimal = (x: number): Decimal => new Decimal(x.toPrecision(15));

/** The end of a day (D14), written as the next day's first instant. */
const endOf = (day: string) => `${addDays(day, 1)} 00:00:00`;

interface Context extends Setting {
  opts: BlendOptions;
  /** The first date of the witness window. */
  witnessFromDate: string;
}

function combine(currency: string, entries: Fixing[], anchor: string, anchored: Estimate | undefined, ctx: Context): BlendedRate & { estimate: Estimate } {
  const { opts } = ctx;
  const { readings, used, odd, error } = readingsOf(currency, entries, anchor, anchored, ctx);
  const volatility = opts.quality?.volatility.get(currency) ?? priorVolatility(currency);
  const t = track(readings, volatility ** 2 / 24, ctx.reference);
  const weight = new Float64Array(entries.length);
  const screen = new Array<Exclusion>(entries.length).fill(false);
  readings.forEach((r, k) => {
    for (const i of r.members) {
      weight[i] = t.weights[k]! / r.members.length;
      screen[i] = t.screens[k]!;
    }
  });
  const counted = entries.filter((_, i) => weight[i]! > 0);
  const log = t.estimate + (anchored?.log ?? 0);
  const variance = t.variance + (anchored?.variance ?? 0);
  // A lone figure against USD is its own value (no logarithm round trip).
  const sole = anchor === 'USD' && counted.length === 1 && readings.length === 1 ? counted[0]!.perUsd : undefined;
  let contributions: WeightedContribution[] = [];
  let earlier = 0;
  if (opts.contributions !== false) {
    // Each source's newest figure is listed; its older ones are the witness.
    const newestOf = new Map<string, number>();
    entries.forEach((e, i) => {
      const seen = newestOf.get(e.source);
      if (seen === undefined || e.day > entries[seen]!.day) newestOf.set(e.source, i);
    });
    const listed = [...newestOf.values()];
    contributions = listed.map((i) => {
      const excluded: Exclusion = !used[i] ? 'stale' : odd[i] === UNMEASURED ? 'unmeasured' : odd[i] ? 'outlier' : screen[i]!;
      return { ...contribution(entries[i]!), weight: weight[i]!, error: used[i] ? error[i]! : errorOf(entries[i]!, currency, ctx), excluded };
    });
    earlier = Math.max(0, 1 - listed.reduce((s, i) => s + weight[i]!, 0));
  }
  const fixings = counted.length > 0 ? counted : entries.filter((_, i) => used[i]);
  return {
    currency,
    perUsd: toDecimal(sole ?? Math.exp(log)),
    variance,
    bankUpdate: max(fixings.map((f) => f.bankUpdate)),
    freshUntil: dayText(fixings.reduce((m, f) => Math.max(m, f.freshDay), 0) + opts.graceDays),
    contributions,
    ...(anchor !== 'USD' ? { anchor } : {}),
    ...(opts.contributions !== false ? { earlier } : {}),
    estimate: { log, variance },
  };
}

/** A stale figure's error, for the provenance: its source's measured one, or its grade's prior. */
const errorOf = (f: Fixing, currency: string, ctx: Context) => ctx.opts.quality?.errors.get(currency)?.get(f.source) ?? priorError(ctx.sources.get(f.source));

/** An epoch day as YYYY-MM-DD (a few dozen recur in every blend). Module-level because it is a memo of
 *  a pure function, bounded: every blend may share it and none can see it. */
const dayTexts = new Map<number, string>();
function dayText(day: number): string {
  let text = dayTexts.get(day);
  if (text === undefined) {
    if (dayTexts.size > 100_000) dayTexts.clear();
    dayTexts.set(day, (text = new Date(day * DAY_MS).toISOString().slice(0, 10)));
  }
  return text;
}

/** The Contribution fields of a fixing (the model's own fields stay inside). */
function contribution(f: Fixing): Contribution {
  const { log: _log, hours: _hours, day: _day, freshDay: _freshDay, rounding: _rounding, siblings: _siblings, read: _read, ...rest } = f;
  return rest;
}

/** The snapshots the model reads: those of the witness's days, and before them each source's newest
 *  of every set of currencies it has none of since (a weekly table beside a daily one, a source gone
 *  quiet: its figures count while fresh, then are `stale`). */
function witnessed(snapshots: readonly Snapshot[], from: string): Snapshot[] {
  const out: Snapshot[] = [];
  const seen = new Map<string, Set<string>>();
  const older: Snapshot[] = [];
  for (const s of snapshots) {
    if (s.date < from) older.push(s);
    else {
      out.push(s);
      seen.set(s.source, (seen.get(s.source) ?? new Set()).add(s.currencies));
    }
  }
  older.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  for (const s of older) {
    const sets = seen.get(s.source) ?? new Set<string>();
    if (sets.has(s.currencies)) continue;
    seen.set(s.source, sets.add(s.currencies));
    out.push(s);
  }
  return out;
}

interface Combined {
  rates: Map<string, BlendedRate>;
  estimates: Map<string, Estimate>;
}

/**
 * Every currency of the snapshots, its anchor's first. With `before` (the same blend without some
 * snapshots), only the currencies those snapshots hold, and those anchored to them, are made again.
 */
function combineAll(snapshots: readonly Snapshot[], ctx: Context, before?: Combined & { added: readonly Snapshot[] }): Combined {
  // D4: blended rates quote the active ISO 4217 currencies (plus XDR) only.
  const quotes = ctx.opts.quotes ?? isActiveCurrency;
  const quoted = new Map<string, boolean>();
  const isQuoted = (currency: string) => {
    let q = quoted.get(currency);
    if (q === undefined) quoted.set(currency, (q = currency !== 'USD' && quotes(currency)));
    return q;
  };
  const touched = before ? new Set(before.added.flatMap((s) => [...s.figures.keys()].filter(isQuoted))) : undefined;
  const byCurrency = new Map<string, Fixing[]>();
  for (const snapshot of witnessed(snapshots, ctx.witnessFromDate)) {
    for (const fixing of snapshot.list) {
      if (!isQuoted(fixing.currency)) continue;
      const list = byCurrency.get(fixing.currency);
      if (list) list.push(fixing);
      else byCurrency.set(fixing.currency, [fixing]);
    }
  }
  const anchorOf = (currency: string) => ctx.opts.quality?.anchor.get(currency) ?? 'USD';
  const estimates = new Map<string, Estimate>();
  const rates = new Map<string, BlendedRate>();
  // Anchors first: USD's own (nothing to do), then every currency whose anchor is blended.
  const order = [...byCurrency.keys()].sort((a, b) => Number(anchorOf(a) !== 'USD') - Number(anchorOf(b) !== 'USD'));
  for (const currency of order) {
    const wanted = anchorOf(currency);
    const anchor = wanted !== 'USD' && estimates.has(wanted) ? wanted : 'USD';
    const kept = before?.rates.get(currency);
    if (kept && !touched!.has(currency) && !touched!.has(anchor) && (kept.anchor ?? 'USD') === anchor) {
      rates.set(currency, kept);
      estimates.set(currency, before!.estimates.get(currency)!);
      continue;
    }
    touched?.add(currency);
    const { estimate, ...rate } = combine(currency, byCurrency.get(currency)!, anchor, estimates.get(anchor), ctx);
    estimates.set(currency, estimate);
    rates.set(currency, rate);
  }
  return { rates, estimates };
}

/** Snapshots of the (source, date)s without the source's own USD, through a currency the others
 *  already price (its blended figure; D4's bridge). */
function bridged(sources: ReadonlyMap<string, SourceInfo>, orphans: readonly Figure[], first: ReadonlyMap<string, BlendedRate>): Snapshot[] {
  const out: Snapshot[] = [];
  for (const list of bySourceAndDate(orphans)) {
    const source = sources.get(list[0]!.source);
    if (!source) continue;
    const quotes = new Set(list.map((r) => r.quote));
    const via = [...BRIDGES, ...quotes].find((c) => c !== source.currency && quotes.has(c) && first.has(c));
    const snapshot = via ? snapshotOf(source, list, { currency: via, perUsd: first.get(via)!.perUsd.toNumber() }) : undefined;
    if (snapshot) out.push(snapshot);
  }
  return out;
}

/**
 * The blend of figures given as rows (any order) as of `opts.referenceDay` and `referenceMoment`:
 * the method's one entry point. Its steps, in order:
 * 1. snapshots: each source's figures of a date, rebased to USD inside the source (snapshotsOf,
 *    rebase.ts); a date without the source's USD is an orphan, bridged in step 6.
 * 2. witness: the snapshots of the witness's days and each source's newest before them (witnessed).
 * 3. readings: per currency, anchors first (USD, the hubs, the currencies anchored to them; the
 *    measured `opts.quality`), each figure as a cross to its anchor inside its own snapshot, gross
 *    outliers among each date's figures dropped by consensus (readingsOf, readings.ts, consensus.ts).
 * 4. screen and estimate: the market model's forward filter screens jumps, its smoother estimates
 *    the cross at the reference moment (track, filter.ts).
 * 5. anchor: the cross times the anchor's own estimate (combine).
 * 6. bridge: orphans through a currency steps 2–5 priced (bridged), and steps 2–5 again for the
 *    currencies they touch.
 * 7. pivot: USD, as new and as fresh as the newest figure (withPivot).
 * 8. pegs: the pegs in force on the day replace the blend (withPegs, pegs.ts).
 * The measured quality is an input: measured once a month from the figures (qualityFor, quality.ts),
 * kept by its caller (quality-cache.ts). History enters at step 2 with its snapshots kept per run
 * (blendSnapshots) and applies the pegs of each day itself.
 */
export function blend(sources: readonly SourceInfo[], rows: readonly Figure[], opts: BlendOptions): Map<string, BlendedRate> {
  return blendSnapshots(sources, snapshotsOf(new Map(sources.map((s) => [s.code, s])), rows), opts);
}

/** Steps 2–8 of `blend`, for figures given as snapshots (snapshots.ts), those of sources without
 *  USD as rows. */
export function blendSnapshots(sources: readonly SourceInfo[], { snapshots, orphans }: Snapshots, opts: BlendOptions): Map<string, BlendedRate> {
  const ctx = contextOf(sources, opts);
  // Historical-only publishers (discontinued) are never blended.
  const direct = snapshots.filter((s) => ctx.sources.has(s.source));
  const first = combineAll(direct, ctx);
  const more = first.rates.size > 0 && orphans.length > 0 ? bridged(ctx.sources, orphans, first.rates) : [];
  const rates = withPivot((more.length > 0 ? combineAll([...direct, ...more], ctx, { ...first, added: more }) : first).rates);
  return opts.pegs === false ? rates : withPegs(rates, opts.referenceDay, opts.quotes);
}

function contextOf(sources: readonly SourceInfo[], opts: BlendOptions): Context {
  const witnessFromDate = addDays(tradingDay(opts.referenceDay), -WITNESS_DAYS);
  return {
    sources: new Map(sources.filter((s) => !s.discontinued).map((s) => [s.code, s])),
    opts,
    reference: tradingHoursAt(opts.referenceMoment ?? endOf(opts.referenceDay)),
    witnessFromDate,
    witnessFrom: Date.parse(`${witnessFromDate}T00:00:00Z`) / DAY_MS,
    quality: opts.quality,
  };
}

/** USD, the pivot: every contribution is also a USD figure, so USD is as new and as fresh as the
 *  newest. Set in `rates` itself, made for this blend. */
function withPivot(rates: Map<string, BlendedRate>): Map<string, BlendedRate> {
  if (rates.size === 0) return rates;
  const all = [...rates.values()];
  rates.set('USD', { currency: 'USD', perUsd: new Decimal(1), bankUpdate: max(all.map((b) => b.bankUpdate)), freshUntil: max(all.map((b) => b.freshUntil)), contributions: [] });
  return rates;
}

/** The pegs in force on `day` replace the blend of the pegged currency (its sources stay listed,
 *  marked), for the currencies the day quotes; a new map, `rates` untouched. */
export function withPegs(rates: ReadonlyMap<string, BlendedRate>, day: string, quotes: (code: string) => boolean = isActiveCurrency): Map<string, BlendedRate> {
  const out = new Map(rates);
  for (const [currency, peg] of pegsOn(day)) {
    const anchor = out.get(peg.anchor);
    if (!anchor || !quotes(currency)) continue;
    const own = out.get(currency)?.contributions ?? [];
    out.set(currency, {
      currency,
      perUsd: anchor.perUsd.times(peg.rate),
      bankUpdate: anchor.bankUpdate,
      freshUntil: anchor.freshUntil,
      contributions: own.map((c) => ({ ...c, weight: 0, excluded: 'peg' })),
      peg,
    });
  }
  return out;
}
