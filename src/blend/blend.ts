// The blend, composed: rebase every source to USD (bridging those without USD) → per currency keep
// current figures → drop outliers by consensus → weight by recency and source quality → weighted
// mean → apply official pegs. Pure: rows, sources and the reference day in; a table out.
import { isActiveCurrency } from '../currencies/iso4217.js';
import { Decimal } from '../money/decimal.js';
import type { ObservationRow } from '../store/store.js';
import { outliers } from './consensus.js';
import { freshUntil } from './freshness.js';
import { PEG_BY_CURRENCY, type Peg } from './pegs.js';
import { rebase, type Contribution, type SourceInfo } from './rebase.js';
import { weightedMean, weightOf } from './weights.js';

export type Exclusion = false | 'stale' | 'outlier' | 'peg';

export interface WeightedContribution extends Contribution {
  /** Share of the blend (0 when excluded), unrounded. */
  weight: Decimal;
  excluded: Exclusion;
}

export interface BlendedRate {
  currency: string;
  /** Units of the currency per 1 USD, unrounded. */
  perUsd: Decimal;
  /** Newest contributing `bank_update` (D7). */
  bankUpdate: string;
  /** Last day (inclusive) on which at least one contribution is fresh (D10). */
  freshUntil: string;
  contributions: WeightedContribution[];
  peg?: Peg;
}

export interface BlendOptions {
  /** The day the blend is for (YYYY-MM-DD): no figure dated after it (plus what banks publish ahead) is used. */
  referenceDay: string;
  graceDays: number;
}

/** Bridge currencies in order of preference for a source without USD: the most widely published. */
const BRIDGES = ['EUR', 'GBP', 'JPY', 'CHF', 'CNY'];

const max = (values: string[]) => values.reduce((m, v) => (v > m ? v : m), '');

function combine(currency: string, all: Contribution[], grades: Map<string, SourceInfo['grade']>, opts: BlendOptions): BlendedRate {
  // Carry-forward: a figure counts while it would still be fresh on the day of the newest one.
  const newest = max(all.map((c) => c.date));
  const current = all.filter((c) => freshUntil(c.date, c.cadence, 0) >= newest);
  const odd = outliers(current.map((c) => c.perUsd));
  const kept = current.filter((_, i) => !odd[i]);
  const newestUpdate = max(kept.map((c) => c.bankUpdate));
  const weights = kept.map((c) => weightOf(c, grades.get(c.source), newestUpdate));
  const total = weights.reduce((s, w) => s.plus(w), new Decimal(0));
  const contributions: WeightedContribution[] = all.map((c) => {
    const i = kept.indexOf(c);
    return i >= 0 ? { ...c, weight: weights[i]!.div(total), excluded: false } : { ...c, weight: new Decimal(0), excluded: current.includes(c) ? 'outlier' : 'stale' };
  });
  return {
    currency,
    perUsd: weightedMean(kept.map((c) => c.perUsd), weights),
    bankUpdate: max(kept.map((c) => c.bankUpdate)),
    freshUntil: max(kept.map((c) => freshUntil(c.date, c.cadence, opts.graceDays))),
    contributions,
  };
}

function combineAll(contributions: Contribution[], grades: Map<string, SourceInfo['grade']>, opts: BlendOptions): Map<string, BlendedRate> {
  const byCurrency = new Map<string, Contribution[]>();
  // D4: blended rates quote the active ISO 4217 currencies (plus XDR) only.
  for (const c of contributions) {
    if (!isActiveCurrency(c.currency) || !c.perUsd.gt(0)) continue;
    const list = byCurrency.get(c.currency);
    if (list) list.push(c);
    else byCurrency.set(c.currency, [c]);
  }
  return new Map([...byCurrency].map(([currency, list]) => [currency, combine(currency, list, grades, opts)]));
}

export function blend(sources: SourceInfo[], rows: ObservationRow[], opts: BlendOptions): Map<string, BlendedRate> {
  const live = sources.filter((s) => !s.discontinued);
  const grades = new Map(live.map((s) => [s.code, s.grade]));
  const bySource = new Map<string, ObservationRow[]>();
  for (const r of rows) {
    const list = bySource.get(r.source);
    if (list) list.push(r);
    else bySource.set(r.source, [r]);
  }

  const direct = live.map((s) => ({ source: s, contributions: rebase(s, bySource.get(s.code) ?? []) }));
  const first = combineAll(direct.flatMap((d) => d.contributions), grades, opts);
  // Sources without USD go through a currency the others already price.
  const bridged = direct
    .filter((d) => d.contributions.length === 0 && (bySource.get(d.source.code)?.length ?? 0) > 0)
    .flatMap(({ source }) => {
      const quotes = new Set((bySource.get(source.code) ?? []).map((r) => r.quote));
      const via = [...BRIDGES, ...quotes].find((c) => c !== source.currency && quotes.has(c) && first.has(c));
      return via ? rebase(source, bySource.get(source.code)!, { currency: via, perUsd: first.get(via)!.perUsd }) : [];
    });
  const out = bridged.length > 0 ? combineAll([...direct.flatMap((d) => d.contributions), ...bridged], grades, opts) : first;

  if (out.size > 0) {
    // The pivot: every contribution is also a USD figure, so USD is as new and as fresh as the newest.
    const all = [...out.values()];
    out.set('USD', { currency: 'USD', perUsd: new Decimal(1), bankUpdate: max(all.map((b) => b.bankUpdate)), freshUntil: max(all.map((b) => b.freshUntil)), contributions: [] });
  }
  applyPegs(out);
  return out;
}

/** Official pegs replace the blend of the pegged currency (its sources stay listed, marked). */
function applyPegs(rates: Map<string, BlendedRate>): void {
  for (const [currency, peg] of PEG_BY_CURRENCY) {
    const anchor = rates.get(peg.anchor);
    if (!anchor) continue;
    const own = rates.get(currency)?.contributions ?? [];
    rates.set(currency, {
      currency,
      perUsd: anchor.perUsd.times(peg.rate),
      bankUpdate: anchor.bankUpdate,
      freshUntil: anchor.freshUntil,
      contributions: own.map((c) => ({ ...c, weight: new Decimal(0), excluded: 'peg' })),
      peg,
    });
  }
}
