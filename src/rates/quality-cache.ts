// The measured quality of the current month (blend/quality.ts), kept between rebuilds: it is measured
// from the figures of the 45 days before the first of the month, which new data rarely touches,
// and measuring it costs ten times a blend. Kept while the window's figures are the same ones: same
// anchor, as many figures, none stored later (a revision or a backfill there is stored later).
import type { Figure, SourceInfo } from '../blend/inputs.js';
import { QUALITY_DAYS, qualityAnchor, qualityFor, type Quality } from '../blend/quality.js';
import { addDays } from '../time/days.js';

export class QualityCache {
  private key = '';
  private kept: Quality | undefined;

  of(sources: readonly SourceInfo[], rows: readonly (Figure & { storedAt: string })[], day: string): Quality {
    const anchor = qualityAnchor(day);
    const from = addDays(anchor, -QUALITY_DAYS);
    let count = 0;
    let stored = '';
    for (const r of rows) {
      if (r.date < from || r.date >= anchor) continue;
      count++;
      if (r.storedAt > stored) stored = r.storedAt;
    }
    const key = `${anchor} ${count} ${stored}`;
    if (key !== this.key || !this.kept) [this.key, this.kept] = [key, qualityFor(sources, rows, day)];
    return this.kept;
  }
}
