// The blend, composed: rebase every source to USD (bridging those without USD) → per currency keep
// current figures → drop gross outliers by consensus → screen jumps against the witness → weigh by
// inverse variance at the reference moment (measured error, rounding, the market's move; model.ts),
// fading dissenters → weighted mean of the logarithms → apply official pegs. Pure: rows, sources,
// the reference day and moment, measured quality and witnesses in; a table out (docs/blending.md).
import { isActiveCurrency } from '../currencies/iso4217.js';
import { Decimal } from '../money/decimal.js';
import type { Cadence } from '../sources/types.js';
import { outliers, robustWeights } from './consensus.js';
import { SAME_FIXING } from './fixing.js';
import { freshUntil } from './freshness.js';
import { PEG_BY_CURRENCY, type Peg } from './pegs.js';
import type { Figure, SourceInfo } from './inputs.js';
import { rebase, type Contribution } from './rebase.js';
import { errorOf, marketVariance, readingOf, screen, volatilityOf, type Witness } from './model.js';
import type { Quality } from './quality.js';

export type Exclusion = false | 'stale' | 'outlier' | 'jump' | 'superseded' | 'peg';

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
  contributions: WeightedContribution[];
  peg?: Peg;
}

export interface BlendOptions {
  /** The day the blend is for (YYYY-MM-DD): no figure dated after it (plus what banks publish ahead) is used. */
  referenceDay: string;
  graceDays: number;
  /** `YYYY-MM-DD HH:MM:SS`: the moment recency weights are measured from. By default each currency's
   *  newest fixing, which ranks figures exactly as "now" would (2^−t is memoryless); a past moment
   *  gives the blend as of then, figures fixed after it counting less the later they were fixed. */
  referenceMoment?: string;
  /** Which currencies the blend quotes; by default the active ones (D4). History passes the
   *  currencies current on its day, so defunct ones appear on days they were current (D14). */
  quotes?: (code: string) => boolean;
  /** False to leave `contributions` empty: history keeps only the figures, and building them for
   *  every day of 40 years filled the old heap with ~800 MB of garbage (issue 14's RSS target). */
  contributions?: boolean;
  /** Measured errors and volatilities (quality.ts); without them every source has its grade's prior. */
  quality?: Quality;
  /** The previous day's blend per currency, carried to the reference moment (model.ts). */
  witness?: ReadonlyMap<string, Witness>;
}

/** Bridge currencies in order of preference for a source without USD: the most widely published. */
const BRIDGES = ['EUR', 'GBP', 'JPY', 'CHF', 'CNY'];

const max = (values: string[]) => values.reduce((m, v) => (v > m ? v : m), '');

/** A float as exact decimal text of its 15 significant digits: the binary tail never shows (D6). */
export const toDecimal = (x: number): Decimal => new Decimal(x.toPrecision(15));

/** Pure helpers memoised for one blend: a few dozen distinct dates recur thousands of times. */
function memo<T>(f: (key: string) => T): (key: string) => T {
  const cache = new Map<string, T>();
  return (key) => {
    let v = cache.get(key);
    if (v === undefined) cache.set(key, (v = f(key)));
    return v;
  };
}

interface Context {
  sources: Map<string, SourceInfo>;
  opts: BlendOptions;
  /** freshUntil by `date cadence grace`. */
  fresh: (key: string) => string;
}

function combine(currency: string, all: Contribution[], ctx: Context): BlendedRate {
  const { opts, fresh } = ctx;
  // Carry-forward: a figure counts while it would still be fresh on the day of the newest one.
  const newest = max(all.map((c) => c.date));
  const isCurrent = all.map((c) => fresh(`${c.date} ${c.cadence} 0`) >= newest);
  const current = all.filter((_, i) => isCurrent[i]);
  const odd = outliers(current.map((c) => c.perUsd));
  const sound = current.filter((_, i) => !odd[i]);
  const reference = opts.referenceMoment ?? max(sound.map((c) => c.moment));
  const witness = opts.witness?.get(currency);
  // The market moves as fast as measured, or as it moved over the last days when that is faster
  // (the trailing measure lags a crisis: AUD in October 2008, NOK in March 2020).
  const volatility = Math.max(volatilityOf(opts.quality, currency), witness?.volatility ?? 0);
  // Sources relaying one fixing share one figure's weight (fixing.ts).
  const groupOf = (c: Contribution) => (SAME_FIXING[c.source] ? `${SAME_FIXING[c.source]} ${c.date}` : c.source);
  const members = new Map<string, number>();
  for (const c of sound) members.set(groupOf(c), (members.get(groupOf(c)) ?? 0) + 1);
  const readings = sound.map((c) => readingOf(c, opts.quality, ctx.sources.get(c.source), groupOf(c)));
  const screens = witness ? screen(readings, witness, volatility) : readings.map(() => false as const);
  const unscreened = readings.filter((_, i) => !screens[i]);
  // Never all: a move nothing contradicts is believed (model.ts); a guard all the same.
  const kept = unscreened.length > 0 ? unscreened : readings;
  // Inverse variance at the reference moment, faded where a figure dissents beyond its own
  // deviations (robustWeights); sources relaying one fixing share one figure's weight.
  const variances = kept.map((r) => r.own + marketVariance(volatility, r.c.moment, reference));
  const weights = robustWeights(kept.map((r) => r.log), variances).map((w, i) => w / members.get(kept[i]!.group)!);
  const total = weights.reduce((sum, w) => sum + w, 0);
  const logMean = kept.reduce((sum, r, i) => sum + r.log * weights[i]!, 0) / total;
  const share = new Map(kept.map((r, i) => [r.c, weights[i]! / total]));
  const error = new Map(readings.map((r) => [r.c, r.error]));
  const screened = new Map(readings.map((r, i) => [r.c, screens[i]!]));
  const contributions: WeightedContribution[] = opts.contributions === false ? [] : all.map((c, i) => {
    const weight = share.get(c);
    const base = { ...c, error: error.get(c) ?? errorOf(opts.quality, c, ctx.sources.get(c.source)) };
    if (weight !== undefined) return { ...base, weight, excluded: false };
    return { ...base, weight: 0, excluded: !isCurrent[i] ? 'stale' : screened.get(c) || 'outlier' };
  });
  // A lone figure is its own value (no logarithm round trip).
  const sole = kept.length === 1 ? kept[0]!.c.perUsd : undefined;
  const counted = kept.length > 0 ? kept.map((r) => r.c) : sound;
  return {
    currency,
    perUsd: toDecimal(sole ?? Math.exp(logMean)),
    variance: 1 / total,
    bankUpdate: max(counted.map((c) => c.bankUpdate)),
    freshUntil: max(counted.map((c) => fresh(`${c.date} ${c.cadence} ${opts.graceDays}`))),
    contributions,
  };
}

function combineAll(contributions: Contribution[], ctx: Context): Map<string, BlendedRate> {
  const byCurrency = new Map<string, Contribution[]>();
  // D4: blended rates quote the active ISO 4217 currencies (plus XDR) only.
  const quotes = ctx.opts.quotes ?? isActiveCurrency;
  for (const c of contributions) {
    if (!quotes(c.currency) || !(c.perUsd > 0) || !Number.isFinite(c.perUsd)) continue;
    const list = byCurrency.get(c.currency);
    if (list) list.push(c);
    else byCurrency.set(c.currency, [c]);
  }
  return new Map([...byCurrency].map(([currency, list]) => [currency, combine(currency, list, ctx)]));
}

export function blend(sources: SourceInfo[], rows: Figure[], opts: BlendOptions): Map<string, BlendedRate> {
  const live = sources.filter((s) => !s.discontinued);
  const ctx: Context = {
    sources: new Map(live.map((s) => [s.code, s])),
    opts,
    fresh: memo((key) => {
      const [date, cadence, grace] = key.split(' ');
      return freshUntil(date!, cadence as Cadence, Number(grace));
    }),
  };
  const bySource = new Map<string, Figure[]>();
  for (const r of rows) {
    const list = bySource.get(r.source);
    if (list) list.push(r);
    else bySource.set(r.source, [r]);
  }

  const direct = live.map((s) => ({ source: s, contributions: rebase(s, bySource.get(s.code) ?? []) }));
  const first = combineAll(direct.flatMap((d) => d.contributions), ctx);
  // Sources without USD go through a currency the others already price.
  const bridged = direct
    .filter((d) => d.contributions.length === 0 && (bySource.get(d.source.code)?.length ?? 0) > 0)
    .flatMap(({ source }) => {
      const quotes = new Set((bySource.get(source.code) ?? []).map((r) => r.quote));
      const via = [...BRIDGES, ...quotes].find((c) => c !== source.currency && quotes.has(c) && first.has(c));
      return via ? rebase(source, bySource.get(source.code)!, { currency: via, perUsd: first.get(via)!.perUsd.toNumber() }) : [];
    });
  const out = bridged.length > 0 ? combineAll([...direct.flatMap((d) => d.contributions), ...bridged], ctx) : first;

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
      contributions: own.map((c) => ({ ...c, weight: 0, excluded: 'peg' })),
      peg,
    });
  }
}
