// `kurs backfill`: each source's history from its live feed, planned by the adapter's own pure
// `requests(window)` (a history ZIP, yearly files, a date range: as few requests as the feed allows),
// one request at a time per host, ingested as every fetch is, so a second run stores nothing.
import { addDays, daysSpanned } from '../time/days.js';
import type { Config } from '../config.js';
import { fetchSource } from '../sources/fetch.js';
import type { HttpClient } from '../sources/http.js';
import type { FetchWindow, RequestContext, Source } from '../sources/types.js';
import type { Store } from '../store/store.js';
import { ingestPayload } from './ingest.js';

/** A day-by-day feed is fetched and ingested a month at a time: a failure late in a long run keeps
 *  what came before, and a re-run skips it as already imported. */
export const PER_DAY_CHUNK_DAYS = 31;
/** For the estimate: the shared client's usual answer time, per request, one at a time per host. */
export const SECONDS_PER_REQUEST = 1;
/** Day-by-day requests beyond which a run needs a yes (the prompt on a terminal, or --yes). */
export const CONFIRM_ABOVE_REQUESTS = 500;
/** Hosts fetched at the same time (each host still sees one request at a time). */
export const PARALLEL_HOSTS = 4;

export interface BackfillPlan {
  source: Source;
  ctx: RequestContext;
  host: string;
  /** What the adapter plans for the whole window; follow steps may add a few. */
  requests: number;
  /** About one request per day of the window: the feed serves no longer spans. */
  perDay: boolean;
  windows: FetchWindow[];
}

export interface BackfillResult {
  source: string;
  requests: number;
  payloads: number;
  inserted: number;
  revised: number;
  /** Payloads stored before (by SHA-256): what makes a re-run change nothing. */
  already: number;
  failed: string[];
  fetchError?: string;
}

export const daysIn = (w: FetchWindow) => daysSpanned(w.from, w.to);

function chunks(window: FetchWindow, days: number): FetchWindow[] {
  const out: FetchWindow[] = [];
  for (let from = window.from; from <= window.to; from = addDays(from, days)) {
    const to = addDays(from, days - 1);
    out.push({ from, to: to < window.to ? to : window.to });
  }
  return out;
}

export function planBackfill(sources: readonly Source[], window: FetchWindow, config: Pick<Config, 'sourceUrls' | 'sourceKeys'>): { plans: BackfillPlan[]; skipped: { source: string; reason: string }[] } {
  const plans: BackfillPlan[] = [];
  const skipped: { source: string; reason: string }[] = [];
  for (const source of sources) {
    const key = config.sourceKeys[source.code];
    if (source.needsKey && !key) {
      skipped.push({ source: source.code, reason: `needs an API key: set KURS_SOURCE_${source.code}_KEY` });
      continue;
    }
    const ctx: RequestContext = { base: config.sourceUrls[source.code] ?? source.baseUrl, ...(key ? { key } : {}) };
    const requests = source.requests(window, ctx);
    const days = daysIn(window);
    const perDay = days > 1 && requests.length >= days / 2;
    plans.push({ source, ctx, host: new URL(ctx.base).host, requests: requests.length, perDay, windows: perDay ? chunks(window, PER_DAY_CHUNK_DAYS) : [window] });
  }
  return { plans, skipped };
}

/** What a run of day-by-day feeds will ask for, to show before it starts. */
export function estimate(plans: readonly BackfillPlan[]): { requests: number; seconds: number; sources: string[] } {
  const perDay = plans.filter((p) => p.perDay);
  // Hosts run side by side, requests to one host one after another: the longest host sets the time.
  const byHost = new Map<string, number>();
  for (const p of perDay) byHost.set(p.host, (byHost.get(p.host) ?? 0) + p.requests);
  return {
    requests: perDay.reduce((n, p) => n + p.requests, 0),
    seconds: Math.max(0, ...byHost.values()) * SECONDS_PER_REQUEST,
    sources: perDay.map((p) => p.source.code),
  };
}

export interface BackfillDeps {
  store: Store;
  http: HttpClient;
  now: () => Date;
  acceptJumps?: boolean;
  /** After every answered (or failed) request of a source. */
  onRequest?: (source: string) => void;
  onSource?: (result: BackfillResult) => void;
}

async function backfillOne(plan: BackfillPlan, deps: BackfillDeps): Promise<BackfillResult> {
  const code = plan.source.code;
  const result: BackfillResult = { source: code, requests: 0, payloads: 0, inserted: 0, revised: 0, already: 0, failed: [] };
  // The source's limits (host rules, its own headers, TLS intermediates, size) go through with each request.
  const http: HttpClient = (request, limits) =>
    deps.http(request, limits).finally(() => {
      result.requests++;
      deps.onRequest?.(code);
    });
  for (const window of plan.windows) {
    let payloads;
    try {
      payloads = await fetchSource(plan.source, window, plan.ctx, http);
    } catch (err) {
      result.fetchError = (err as Error).message;
      break;
    }
    for (const payload of payloads) {
      result.payloads++;
      const outcome = await ingestPayload(deps.store, plan.source, payload, deps.now(), { acceptJumps: deps.acceptJumps === true });
      if (outcome.status === 'stored') {
        result.inserted += outcome.inserted;
        result.revised += outcome.revised;
      } else if (outcome.status === 'duplicate') {
        result.already++;
      } else if (outcome.status === 'failed') {
        result.failed.push(`${payload.name}: ${outcome.reason}`);
      }
    }
  }
  return result;
}

/** Sources of one host run one after another (so the host sees one request at a time); hosts in parallel. */
export async function runBackfill(plans: readonly BackfillPlan[], deps: BackfillDeps): Promise<BackfillResult[]> {
  const byHost = new Map<string, BackfillPlan[]>();
  for (const p of plans) byHost.set(p.host, [...(byHost.get(p.host) ?? []), p]);
  const queue = [...byHost.values()];
  const results: BackfillResult[] = [];
  const worker = async () => {
    for (let group = queue.shift(); group; group = queue.shift()) {
      for (const plan of group) {
        const result = await backfillOne(plan, deps);
        results.push(result);
        deps.onSource?.(result);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_HOSTS, queue.length) }, worker));
  const order = new Map(plans.map((p, i) => [p.source.code, i]));
  return results.sort((a, b) => order.get(a.source)! - order.get(b.source)!);
}
