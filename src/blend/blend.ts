// The first blend, composed: rebase each source to USD → keep current figures → median per currency. Pure: the rows and the
// freshness grace come in, a table of blended rates goes out.
import { isActiveCurrency } from '../currencies/iso4217.js';
import { Decimal } from '../money/decimal.js';
import type { ObservationRow } from '../store/store.js';
import { current, groupByCurrency, median } from './combine.js';
import { freshUntil } from './freshness.js';
import { rebaseToUsd, type Contribution, type SourceInfo } from './rebase.js';

export interface BlendedRate {
  currency: string;
  /** Units of the currency per 1 USD, unrounded. */
  perUsd: Decimal;
  /** Newest contributing `bank_update` (D7). */
  bankUpdate: string;
  /** Last day (inclusive) on which at least one contribution is fresh (D10). */
  freshUntil: string;
  contributions: Contribution[];
}

export function blend(sources: SourceInfo[], rows: ObservationRow[], graceDays: number): Map<string, BlendedRate> {
  const bySource = new Map<string, ObservationRow[]>();
  for (const r of rows) {
    const list = bySource.get(r.source);
    if (list) list.push(r);
    else bySource.set(r.source, [r]);
  }
  const contributions = sources.flatMap((s) => rebaseToUsd(s, bySource.get(s.code) ?? []));
  // D4: blended rates quote the active ISO 4217 currencies (plus XDR) only.
  const byCurrency = groupByCurrency(contributions.filter((c) => isActiveCurrency(c.currency) && c.perUsd.gt(0)));

  const out = new Map<string, BlendedRate>();
  for (const [currency, all] of byCurrency) {
    const list = current(all);
    out.set(currency, {
      currency,
      perUsd: median(list.map((c) => c.perUsd)),
      bankUpdate: list.reduce((m, c) => (c.bankUpdate > m ? c.bankUpdate : m), ''),
      freshUntil: list.reduce((m, c) => {
        const until = freshUntil(c.date, c.cadence, graceDays);
        return until > m ? until : m;
      }, ''),
      contributions: list,
    });
  }
  if (out.size > 0) {
    // The pivot: every contribution is also a USD figure, so USD is as new and as fresh as the newest.
    const all = [...out.values()];
    out.set('USD', {
      currency: 'USD',
      perUsd: new Decimal(1),
      bankUpdate: all.reduce((m, b) => (b.bankUpdate > m ? b.bankUpdate : m), ''),
      freshUntil: all.reduce((m, b) => (b.freshUntil > m ? b.freshUntil : m), ''),
      contributions: [],
    });
  }
  return out;
}
