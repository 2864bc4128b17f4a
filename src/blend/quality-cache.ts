// The measured quality of a month (quality.ts), kept between blends: it is measured from the figures
// of the QUALITY_DAYS before the first of the month, which new data rarely touches, and measuring it
// costs ten times a blend. A month's is kept while its window holds the same figures: as many, none
// stored later (a revision or a backfill there is stored later). Its owner holds it: current rates
// keep the current month's (rates/market.ts), history the newest months' between runs (history.ts).
import { addDays } from '../time/days.js';
import type { Figure, SourceInfo } from './inputs.js';
import { ranWhole, type Steps } from '../time/turns.js';
import { QUALITY_DAYS, qualityAnchor, qualitySteps, type Quality } from './quality.js';
import { lowerBound, type SnapshotMemo } from './snapshots.js';

/** A run's own memo of quality by month, and its snapshots; rows given with them are sorted by date. */
export interface QualityRun {
  memo: Map<string, Quality>;
  snapshots: SnapshotMemo;
}

export class QualityCache {
  private readonly months = new Map<string, { key: string; quality: Quality }>();

  /** `keep`: how many months (the newest) are kept. */
  constructor(private readonly keep = 1) {}

  /** The quality of `day`'s month from `rows`: the kept one if measured from the same figures, else
   *  measured now (qualitySteps, with `run`'s memo and snapshots when given). */
  of(sources: readonly SourceInfo[], rows: readonly Figure[], day: string, run?: QualityRun): Quality {
    return ranWhole(this.steps(sources, rows, day, run));
  }

  /** `of` in steps (qualitySteps'), for history's catch-up to measure in turns of the event loop. */
  *steps(sources: readonly SourceInfo[], rows: readonly Figure[], day: string, run?: QualityRun): Steps<Quality> {
    const anchor = qualityAnchor(day);
    const key = windowKey(rows, anchor, run !== undefined);
    const kept = this.months.get(anchor);
    if (kept?.key === key) return kept.quality;
    const quality = yield* qualitySteps(sources, rows, day, run?.memo, run?.snapshots);
    this.months.set(anchor, { key, quality });
    for (const old of [...this.months.keys()].sort().slice(0, -this.keep)) this.months.delete(old);
    return quality;
  }
}

/** How many figures are dated in the quality window of `anchor`'s month, and the latest stored;
 *  rows `sorted` by date are searched, others scanned. */
function windowKey(rows: readonly Figure[], anchor: string, sorted: boolean): string {
  const from = addDays(anchor, -QUALITY_DAYS);
  let count = 0;
  let stored = '';
  const [first, end] = sorted ? [lowerBound(rows, from), lowerBound(rows, anchor)] : [0, rows.length];
  for (let i = first; i < end; i++) {
    const r = rows[i]!;
    if (r.date < from || r.date >= anchor) continue;
    count++;
    if (r.storedAt > stored) stored = r.storedAt;
  }
  return `${count} ${stored}`;
}
