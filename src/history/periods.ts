// Period rates (D21) read over a range (for one day: inForce, rates/bank-table.ts). A figure is in
// force on the days of its period; where a later figure of the same currency starts within it (a US
// Treasury amendment, an HMRC mid-month correction), the later one is in force from its own first
// day to its own last.
// Restatements of the same period (the BIS's) replace the figure when stored. Pure.
import type { PeriodRow } from '../store/store.js';
import { addDays } from '../time/days.js';
import { inForce } from '../rates/bank-table.js';

const same = (a: PeriodRow | undefined, b: PeriodRow) => a !== undefined && a.validFrom === b.validFrom && a.validTo === b.validTo && a.rate === b.rate;

/** Walks consecutive ranges of days, remembering what was in force at the end of the last one. */
export class PeriodWalk {
  private before = new Map<string, PeriodRow>();

  /**
   * The days of `from..to` on which the figures in force change, each with the figures that come
   * into force then: every figure in force on the first day walked, then one row per new period
   * (an amendment's own row carries only its currencies). `rows` are those overlapping the range.
   */
  changes(rows: readonly PeriodRow[], from: string, to: string): [day: string, figures: PeriodRow[]][] {
    const days = new Set([from]);
    for (const r of rows) {
      if (r.validFrom > from && r.validFrom <= to) days.add(r.validFrom);
      const after = addDays(r.validTo, 1);
      if (after > from && after <= to) days.add(after);
    }
    const out: [string, PeriodRow[]][] = [];
    for (const day of [...days].sort()) {
      const now = inForce(rows, day);
      const changed = now.filter((r) => !same(this.before.get(r.quote), r));
      if (changed.length > 0) out.push([day, changed]);
      this.before = new Map(now.map((r) => [r.quote, r]));
    }
    return out;
  }
}
