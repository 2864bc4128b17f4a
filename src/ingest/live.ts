// Live ingestion of one source: choose the window (backfilling a gap), fetch through the shared
// client, ingest each payload. Errors end up in the source's health, never in the caller.
import { addDays } from '../time/days.js';
import type { Config } from '../config.js';
import { fetchSource, type ConditionalCache, type FollowStep } from '../sources/fetch.js';
import { HttpError, type HttpClient } from '../sources/http.js';
import type { FetchWindow, Source } from '../sources/types.js';
import type { Store } from '../store/store.js';
import { untilAborted } from './abort.js';
import { diagnose } from './diagnose.js';
import { ingestPayload, type IngestOptions, type IngestOutcome } from './ingest.js';
import { ParserStopped, type Preparer } from './prepare.js';

/** Days re-fetched before the newest stored date, so that late revisions are seen. */
export const REFETCH_DAYS = 3;
/** How far back a source with no data at all starts. */
export const FIRST_FETCH_DAYS = 30;
/** The longest backfill one run asks for; a longer gap is closed over several runs. */
export const MAX_WINDOW_DAYS = 366;
/** A run's fetches give up after this, whatever the client's own timeouts and retries add up to: a
 *  feed that trickles must not hold its turn (and the scheduler's slot) for hours. */
export const SOURCE_DEADLINE_MS = 10 * 60_000;

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
  /** Fires on shutdown: the run stops waiting for its feed and records nothing (not the feed's fault). */
  signal?: AbortSignal;
  /** The newest stored date of a source; by default one look over every source's health, which
   *  scans the observations: the scheduler passes one snapshot shared by the runs of a tick. */
  newestDate?: (code: string) => Promise<string | null>;
  /** Where payloads are parsed: the scheduler's parsing thread; default this thread. */
  prepare?: Preparer;
  /** Where follow steps run (an index page parsed for its link): likewise. */
  follow?: FollowStep;
}

/** Why a run ended without its feed's answer when the process is stopping. */
export const STOPPED = 'stopped: the process is shutting down';

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
  const newest = deps.newestDate ? await deps.newestDate(source.code) : ((await deps.store.sourceHealth()).find((h) => h.source === source.code)?.newestDate ?? null);
  const window = fetchWindow(newest, deps.now().toISOString().slice(0, 10));
  const base = deps.config.sourceUrls[source.code] ?? source.baseUrl;
  const deadline = AbortSignal.timeout(SOURCE_DEADLINE_MS);
  let payloads;
  try {
    const fetching = fetchSource(source, window, { base, ...(key ? { key } : {}) }, deps.http, deps.cache, undefined, deps.follow);
    payloads = await untilAborted(fetching, deps.signal ? AbortSignal.any([deps.signal, deadline]) : deadline);
  } catch (err) {
    if (deps.signal?.aborted) return { source: source.code, status: 'fetch_failed', reason: STOPPED };
    const reason = deadline.aborted ? `gave up after ${SOURCE_DEADLINE_MS / 60_000} minutes without a complete answer` : await withCause(err as Error, deps.signal);
    if (deps.signal?.aborted) return { source: source.code, status: 'fetch_failed', reason: STOPPED };
    await deps.store.recordFetch({ source: source.code, at: deps.now().toISOString(), error: reason });
    return { source: source.code, status: 'fetch_failed', reason };
  }
  const outcomes: IngestOutcome[] = [];
  try {
    for (const payload of payloads) outcomes.push(await ingestPayload(deps.store, source, payload, deps.now(), { ...(deps.prepare ? { prepare: deps.prepare } : {}), ...(deps.signal ? { signal: deps.signal } : {}), ...opts }));
  } catch (err) {
    // The parsing thread was closed, or a store given up, under this run: what was stored stays, the
    // rest waits for the next start.
    if (err instanceof ParserStopped) return { source: source.code, status: 'fetch_failed', reason: STOPPED };
    throw err;
  }
  return { source: source.code, status: 'done', outcomes };
}

/** The client's message, and where it names no cause ("fetch failed"), what one plain connection to
 *  the feed's host finds: the certificate error, reset or refusal that `/status` puts in words. */
async function withCause(err: Error, signal: AbortSignal | undefined): Promise<string> {
  if (!(err instanceof HttpError) || err.status !== undefined || /refused to fetch|timed out|\bE[A-Z]{4,}\b|certificate/.test(err.message)) return err.message;
  const reach = await (signal ? untilAborted(diagnose(err.url), signal) : diagnose(err.url)).catch(() => undefined);
  return reach && reach.verdict !== 'ok' ? `${err.message} (${reach.tls ? 'TLS: ' : ''}${reach.verdict})` : err.message;
}
