// One day of history, pure (D14): the blend of every figure whose bank_update falls on or before the
// day, within the blend's lookback, kept only where fresh on that day (D10 measured from it). Both
// materialising and the parity test call this, so stored and fresh answers come from one code path.
import { blendSnapshots, withPegs, type BlendedRate } from '../blend/blend.js';
import { tradingDay } from '../blend/hours.js';
import { publishedOn } from '../blend/fixing.js';
import { LOOKBACK_DAYS } from '../blend/freshness.js';
import { qualityAnchor, qualitySteps, type Quality } from '../blend/quality.js';
import type { QualityCache } from '../blend/quality-cache.js';
import { SnapshotMemo, type Snapshots } from '../blend/snapshots.js';
import { addDays } from '../time/days.js';
import { ranWhole, type Steps } from '../time/turns.js';
import { AHEAD_DAYS } from '../blend/window.js';
import type { Figure, SourceInfo } from '../blend/inputs.js';
import { HISTORIC_CURRENCIES, isActiveCurrency } from '../currencies/iso4217.js';

/** A currency on one day: units per 1 USD as exact decimal text, and its newest bank_update (D7). */
export interface DayRate {
  perUsd: string;
  bankUpdate: string;
}

export type DayRates = Map<string, DayRate>;

const HISTORIC_UNTIL = new Map(HISTORIC_CURRENCIES.map((c) => [c.code, c.until]));

/** D14: a defunct currency is quoted on the days it was still legal tender. */
export const quotedOn = (day: string) => (code: string): boolean => isActiveCurrency(code) || (HISTORIC_UNTIL.get(code) ?? '') >= day;

/** The moment a past day's blend stands for (D18): 4 pm in London, the daily benchmark fix (WM/Reuters)
 *  that index providers and accounts value currencies at; 15:00 UTC while Britain keeps summer time
 *  (the EU's rule: from the last Sunday of March to the last Sunday of October). */
export function dayMoment(day: string): string {
  const year = Number(day.slice(0, 4));
  const lastSunday = (month: number) => {
    const last = new Date(Date.UTC(year, month + 1, 0));
    return new Date(Date.UTC(year, month, last.getUTCDate() - last.getUTCDay())).toISOString().slice(0, 10);
  };
  const summer = day >= lastSunday(2) && day < lastSunday(9);
  return `${day} ${summer ? '15' : '16'}:00:00`;
}

/** What one run of day blends keeps between days: each month's measured quality, each date's
 *  snapshots. For the `sources` it was made with; the rows given with it must be sorted by date. */
export class DayMemo {
  readonly quality = new Map<string, Quality>();
  /** Months measured by earlier runs (History's). */
  readonly months: QualityCache | undefined;
  readonly snapshots: SnapshotMemo;
  /** History blends every source, discontinued ones too: Banco de Portugal's 1987–1998 figures are history. */
  readonly sources: readonly SourceInfo[];
  readonly byCode: ReadonlyMap<string, SourceInfo>;
  /** The last trading day's blend, which the closed days after it answer. */
  kept: { asOf: string; contributions: boolean; blended: Map<string, BlendedRate> } | undefined;

  constructor(sources: readonly SourceInfo[], months?: QualityCache) {
    this.months = months;
    this.sources = sources.map((s) => (s.discontinued ? { ...s, discontinued: undefined } : s));
    this.byCode = new Map(this.sources.map((s) => [s.code, s]));
    this.snapshots = new SnapshotMemo(this.byCode);
  }
}

/** A day's measured quality: this run's of its month, or History's kept between runs (measured
 *  from the same figures), or measured now. Within a run the rows do not change: the month decides. */
function qualityOf(memo: DayMemo, rows: readonly Figure[], day: string): Quality {
  return ranWhole(qualityOfSteps(memo, rows, day));
}

function* qualityOfSteps(memo: DayMemo, rows: readonly Figure[], day: string): Steps<Quality> {
  const anchor = qualityAnchor(day);
  const kept = memo.quality.get(anchor);
  if (kept) return kept;
  // A run goes forward in time: the months before the previous one are done with.
  for (const old of [...memo.quality.keys()].sort().slice(0, -1)) memo.quality.delete(old);
  const run = { memo: memo.quality, snapshots: memo.snapshots };
  if (!memo.months) return yield* qualitySteps(memo.sources, rows, day, run.memo, run.snapshots);
  const quality = yield* memo.months.steps(memo.sources, rows, day, run);
  memo.quality.set(anchor, quality);
  return quality;
}

/** The measured quality a blend of `day` with `memo` takes (its last trading day's month), in steps:
 *  run in turns of the event loop before the blend (D32), the blend then finds it in `memo`. */
export function dayQualitySteps(memo: DayMemo, rows: readonly Figure[], day: string): Steps<Quality> {
  return qualityOfSteps(memo, rows, tradingDay(day));
}

/** The figures published (bank_update) by the end of `day`: those dated up to it, and those dated
 *  after it that their source publishes the day before (its day offset, D7). */
function publishedBy(sources: ReadonlyMap<string, SourceInfo>, of: Snapshots, day: string): Snapshots {
  const published = (source: string, date: string) => date <= day || publishedOn(sources.get(source)!, date) <= day;
  return { snapshots: of.snapshots.filter((s) => published(s.source, s.date)), orphans: of.orphans.filter((r) => published(r.source, r.date)) };
}

/** The blend of `day` from `rows`, sorted by date (any rows; those outside the day's window are ignored). */
export function blendDay(sources: readonly SourceInfo[], rows: readonly Figure[], day: string, graceDays: number, memo?: DayMemo): DayRates {
  const out: DayRates = new Map();
  for (const [code, b] of blendOfDay(sources, rows, day, graceDays, { memo, contributions: false })) out.set(code, { perUsd: b.perUsd.toString(), bankUpdate: b.bankUpdate });
  return out;
}

/** The blend of `day` as blendDay computes it, each currency with its contributions unless told
 *  otherwise (provenance of a past day), in code order; only the currencies fresh on the day. A day
 *  the market is shut (a weekend, Christmas Day, New Year's Day) answers the last trading day's
 *  blend (D14: the last figures before it), so a few holiday publishers never move it. */
export function blendOfDay(sources: readonly SourceInfo[], rows: readonly Figure[], day: string, graceDays: number, opts: { memo?: DayMemo; contributions?: boolean } = {}): Map<string, BlendedRate> {
  const memo = opts.memo ?? new DayMemo(sources);
  const asOf = tradingDay(day);
  const contributions = opts.contributions !== false;
  let blended = memo.kept?.asOf === asOf && memo.kept.contributions === contributions ? memo.kept.blended : undefined;
  if (!blended) {
    const quality = qualityOf(memo, rows, asOf);
    const window = publishedBy(memo.byCode, memo.snapshots.between(rows, addDays(asOf, -LOOKBACK_DAYS), addDays(asOf, AHEAD_DAYS)), asOf);
    blended = blendSnapshots(memo.sources, window, { referenceDay: asOf, referenceMoment: dayMoment(asOf), graceDays, quotes: quotedOn(asOf), contributions, quality, pegs: false });
    memo.kept = { asOf, contributions, blended };
  }
  // The pegs of the day itself: a closed day may be a peg's first (the drachma's on 2001-01-01).
  const quoted = quotedOn(day);
  blended = withPegs(blended, day, quoted);
  const out = new Map<string, BlendedRate>();
  for (const code of [...blended.keys()].sort()) {
    const b = blended.get(code)!;
    if (b.freshUntil >= day && quoted(code)) out.set(code, b);
  }
  return out;
}

/** The stored form of a day: `{"AED":["3.6725","2024-01-02 16:00:00"],…}`, codes in order. */
export function encodeDay(rates: DayRates): string {
  const parts: string[] = [];
  for (const [code, r] of rates) parts.push(`"${code}":["${r.perUsd}","${r.bankUpdate}"]`);
  return `{${parts.join(',')}}`;
}

export function decodeDay(text: string): DayRates {
  const parsed = JSON.parse(text) as Record<string, [string, string]>;
  return new Map(Object.entries(parsed).map(([code, [perUsd, bankUpdate]]) => [code, { perUsd, bankUpdate }]));
}
