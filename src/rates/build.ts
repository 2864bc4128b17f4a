// The pure part of a rates build: the recent figures read, the quality measured, the blend and each
// bank's current rows. The same code runs on the thread that answers requests (a first build, a
// test's store) and in the rates worker (rates-worker.ts), so both give the same answers.
import { QUALITY_DAYS, type Quality } from '../blend/quality.js';
import { blend, type BlendedRate } from '../blend/blend.js';
import type { QualityCache } from '../blend/quality-cache.js';
import { addDays } from '../time/days.js';
import { utcStamp } from '../time/stamps.js';
import { turn } from '../time/turns.js';
import { MAX_DAYS_AHEAD } from '../blend/fixing.js';
import { LOOKBACK_DAYS } from '../blend/freshness.js';
import type { Store } from '../store/store.js';
import { currentRows, type BankInfo, type BankRow } from './bank-table.js';

/** What a build reads of a source: plain data (no adapter function), so that it crosses to the rates
 *  worker as it is and the worker loads no adapter (rates-thread.ts). */
export interface BuildSource extends BankInfo {
  periodRates?: true;
}

/** And the measured quality's window before the first of the month (blend/quality.ts). */
const QUALITY_READ_DAYS = QUALITY_DAYS + 31;

export interface Built {
  rates: Map<string, BlendedRate>;
  /** Each source's current rows, but for period sources (D21), whose rows the caller reads itself. */
  banks: Map<string, BankRow[]>;
  quality: Quality;
}

/** Builds the rates as of `now` from `store`'s recent figures, with `cache`'s quality where it holds. */
export async function buildRates(store: Store, sources: readonly BuildSource[], now: Date, graceDays: number, cache: QualityCache): Promise<Built> {
  // Rates as of `now`: a figure dated beyond what a bank may publish ahead is not used yet.
  const latest = addDays(now.toISOString().slice(0, 10), MAX_DAYS_AHEAD);
  // SQLite answers synchronously, so no `await` below lets a request in: turns of the event loop
  // between the steps keep each task to tens of milliseconds, not the whole ~0.5 s (issue 34, D30).
  const read = (await store.recentObservations(LOOKBACK_DAYS + QUALITY_READ_DAYS)).filter((r) => r.date <= latest);
  const today = now.toISOString().slice(0, 10);
  await turn();
  const quality = cache.of(sources, read, today);
  await turn();
  // Weighted from `now`: a figure dated ahead (banks publish up to MAX_DAYS_AHEAD early) or stamped
  // later than its bank fixed it counts less, not more, than what the market showed by now.
  const opts = { referenceDay: today, referenceMoment: utcStamp(now), graceDays, quality };
  // The blend's own rows: as many days back from each source's newest as before (the quality's
  // window reaches further back only to measure).
  const newest = new Map<string, string>();
  for (const r of read) if (r.date > (newest.get(r.source) ?? '')) newest.set(r.source, r.date);
  const from = new Map([...newest].map(([source, date]) => [source, addDays(date, -LOOKBACK_DAYS)]));
  const rows = read.filter((r) => r.date >= from.get(r.source)!);
  const rates = blend(sources, rows, opts);
  await turn();
  // Each source's rows in one pass, in their order: a filter of all the rows for each source (97
  // sources × ~34,000 rows) took 62–66 ms a build on a slow VM, and ~225 ms of a cold start's first
  // build in a CPU profile (code not yet optimised); grouped, 1.3–3.5 ms.
  const bySource = new Map<string, typeof rows>();
  for (const r of rows) {
    const list = bySource.get(r.source);
    if (list) list.push(r);
    else bySource.set(r.source, [r]);
  }
  const banks = new Map<string, BankRow[]>();
  for (const source of sources) {
    if (source.periodRates) continue;
    banks.set(source.code, currentRows(source, bySource.get(source.code) ?? []));
    if (banks.size % 16 === 0) await turn();
  }
  return { rates, banks, quality };
}
