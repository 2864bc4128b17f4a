// The jump rule: a figure more than 50% away from the same source's previous figure for that currency
// is held back until the operator accepts it (docs/reliability.md#bad-feeds-never-replace-good-data). Real devaluations happen (ARS +118% on
// 2023-12-13), which is why it is a hold an operator can lift, not a hard rule.
import { addDays } from '../time/days.js';
import { Decimal } from '../money/decimal.js';
import type { SnapshotInput } from '../store/store.js';

/** The largest move accepted without an operator, as a ratio either way (1.5 = +50% or −33%). */
export const MAX_JUMP_RATIO = new Decimal('1.5');
/** Figures further apart than this are not "the previous figure": a gap of years proves nothing. */
export const MAX_GAP_DAYS = 14;

type Row = Pick<SnapshotInput['rows'][number], 'quote' | 'date' | 'rate' | 'direction'>;

/** Units of the quote per unit of the base, whichever way the row was published. */
const perBase = (r: Row) => (r.direction === 'indirect' ? new Decimal(r.rate) : new Decimal(1).div(r.rate));

/**
 * The first jump between a payload and `previous`, the source's stored figures before the payload's
 * first day: each currency's earliest figure in the payload is compared with its stored one. Moves
 * inside one payload are the bank's own record over time (the ECB history holds the lira's 2001
 * devaluation) and are not second-guessed; what the rule catches is a feed that suddenly changes
 * units or sends another currency's figures. Undefined when there is no jump.
 */
export function findJump(previous: Row[], rows: Row[]): string | undefined {
  const stored = new Map(previous.map((p) => [p.quote, p]));
  const earliest = new Map<string, Row>();
  for (const r of rows) if (!earliest.has(r.quote) || r.date < earliest.get(r.quote)!.date) earliest.set(r.quote, r);
  for (const r of [...earliest.values()].sort((a, b) => (a.quote < b.quote ? -1 : 1))) {
    const before = stored.get(r.quote);
    if (!before || addDays(before.date, MAX_GAP_DAYS) < r.date) continue;
    const a = perBase(before);
    const b = perBase(r);
    const ratio = a.gt(b) ? a.div(b) : b.div(a);
    if (ratio.gt(MAX_JUMP_RATIO)) {
      const pct = b.div(a).minus(1).times(100).toDecimalPlaces(1).toString();
      return `${r.quote} moved ${pct}% from ${before.date} (${before.rate}) to ${r.date} (${r.rate}); held back until an operator accepts it (kurs ingest --accept-jumps)`;
    }
  }
  return undefined;
}
