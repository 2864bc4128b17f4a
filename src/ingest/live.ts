// Live ingestion of one source: choose the window (backfilling a gap), fetch through the shared
// client, ingest each payload. Errors end up in the source's health, never in the caller.
import { addDays } from '../time/days.js';
import type { Config } from '../config.js';
import { fetchSource, type ConditionalCache } from '../sources/fetch.js';
import type { HttpClient } from '../sources/http.js';
import type { FetchWindow, Source } from '../sources/types.js';
import type { Store } from '../store/store.js';
import { ingestPayload, type IngestOptions, type IngestOutcome } from './ingest.js';

/** Days re-fetched before the newest stored date, so that late revisions are seen. */
export const REFETCH_DAYS = 3;
/** How far back a source with no data at all starts. */
export const FIRST_FETCH_DAYS = 30;
/** The longest backfill one run asks for; a longer gap is closed over several runs. */
export const MAX_WINDOW_DAYS = 366;

export type LiveResult =
  | { source: string; status: 'skipped'; reason: string }
  | { source: string; status: 'fetch_failed'; reason: string }
  | { source: string; status: 'done'; outcomes: IngestOutcome[] };

export interface LiveDeps {
  store: Store;
  http: HttpClient;
  /** Validators of earlier answers, for conditional requests; none: every fetch is in full. */
  cache?: ConditionalCache;
  config: Pick<Config, 'sourceUrls' | 'sourceKeys'>;
  now: () => Date;
}

export function fetchWindow(newestDate: string | null, today: string): FetchWindow {
  const from = newestDate ? addDays(newestDate, -REFETCH_DAYS) : addDays(today, -FIRST_FETCH_DAYS);
  const earliest = addDays(today, -MAX_WINDOW_DAYS);
  return { from: from < earliest ? earliest : from, to: today };
}

export async function ingestLive(deps: LiveDeps, source: Source, opts: IngestOptions = {}): Promise<LiveResult> {
  const key = deps.config.sourceKeys[source.code];
  if (source.needsKey && !key) {
    return { source: source.code, status: 'skipped', reason: `needs an API key: set KURS_SOURCE_${source.code}_KEY` };
  }
  const health = (await deps.store.sourceHealth()).find((h) => h.source === source.code);
  const window = fetchWindow(health?.newestDate ?? null, deps.now().toISOString().slice(0, 10));
  const base = deps.config.sourceUrls[source.code] ?? source.baseUrl;
  let payloads;
  try {
    payloads = await fetchSource(source, window, { base, ...(key ? { key } : {}) }, deps.http, deps.cache);
  } catch (err) {
    const reason = (err as Error).message;
    await deps.store.recordFetch({ source: source.code, at: deps.now().toISOString(), error: reason });
    return { source: source.code, status: 'fetch_failed', reason };
  }
  const outcomes: IngestOutcome[] = [];
  for (const payload of payloads) outcomes.push(await ingestPayload(deps.store, source, payload, deps.now(), opts));
  return { source: source.code, status: 'done', outcomes };
}
