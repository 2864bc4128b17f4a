// `kurs sources --probe`: for an operator's first live day, each source's newest payload fetched now
// through its ordinary path (its requests, follow steps, host rules and the shared client) and
// parsed, nothing stored: what the feed answered, whether its TLS verifies, what it held (issue 35).
import type { Config } from '../config.js';
import { fetchSource } from '../sources/fetch.js';
import { HttpError, type HttpClient } from '../sources/http.js';
import { NoPublication, type Source } from '../sources/types.js';
import { addDays } from '../time/days.js';
import { failureCause, type FailureKind } from './causes.js';
import { diagnose } from './diagnose.js';

/** How far back a probe asks, by cadence: far enough to hold the newest publication. */
const LOOKBACK_DAYS: Record<Source['cadence'], number> = { daily: 7, weekly: 14, monthly: 62, quarterly: 120 };

export interface ProbeResult {
  source: string;
  /** `parsed`: figures read; `failed`: see cause; `no key`: not asked (its API key is not set). */
  outcome: 'parsed' | 'failed' | 'no key';
  /** The last HTTP status the feed answered; null when none came (TLS, reset, timeout, DNS). */
  http_status: number | null;
  /** `ok`, a certificate error (what a plain handshake with the default trust found), or `http` for a plain-http feed. */
  tls: string;
  bytes: number;
  figures: number;
  newest_date: string | null;
  ms: number;
  cause: { kind: FailureKind; words: string } | null;
  error: string | null;
}

export interface ProbeDeps {
  http: HttpClient;
  config: Pick<Config, 'sourceUrls' | 'sourceKeys'>;
  now: () => Date;
  /** How long the plain connection that names a cause may take (the client's own timeout). */
  timeoutMs: number;
}

export async function probeSource(deps: ProbeDeps, source: Source): Promise<ProbeResult> {
  const started = performance.now();
  const base = deps.config.sourceUrls[source.code] ?? source.baseUrl;
  const key = deps.config.sourceKeys[source.code];
  const result: ProbeResult = { source: source.code, outcome: 'parsed', http_status: null, tls: base.startsWith('https:') ? 'ok' : 'http', bytes: 0, figures: 0, newest_date: null, ms: 0, cause: null, error: null };
  const finish = (r: ProbeResult) => ({ ...r, ms: Math.round(performance.now() - started) });
  if (source.needsKey && !key) return finish({ ...result, outcome: 'no key', tls: '-', error: `set KURS_SOURCE_${source.code}_KEY` });
  // The shared client, watched: what each answer said and weighed.
  const watched: HttpClient = async (request, limits) => {
    const res = await deps.http(request, limits).catch((err: unknown) => {
      if (err instanceof HttpError && err.status !== undefined) result.http_status = err.status;
      throw err;
    });
    result.http_status = res.status;
    result.bytes += res.body.length;
    return res;
  };
  const today = deps.now().toISOString().slice(0, 10);
  try {
    const payloads = await fetchSource(source, { from: addDays(today, -LOOKBACK_DAYS[source.cadence]), to: today }, { base, ...(key ? { key } : {}) }, watched);
    for (const payload of payloads) {
      const figures = await Promise.resolve(payload).then((p) => source.parse(p)).catch((err: unknown) => (err instanceof NoPublication ? [] : Promise.reject(err)));
      result.figures += figures.length;
      for (const f of figures) if (result.newest_date === null || f.date > result.newest_date) result.newest_date = f.date;
    }
  } catch (err) {
    result.outcome = 'failed';
    result.error = (err as Error).message;
    // Where the client names no cause, a plain connection to the feed does (and gives the TLS verdict).
    const url = err instanceof HttpError ? err.url : base;
    if (result.http_status === null && /^https?:/.test(url)) {
      const reach = await diagnose(url, deps.timeoutMs);
      if (url.startsWith('https:')) result.tls = reach.tls ? reach.verdict : '-';
      if (reach.verdict !== 'ok' && !/\bE[A-Z]{4,}\b/.test(result.error)) result.error += ` (${reach.tls ? 'TLS: ' : ''}${reach.verdict})`;
    }
    result.cause = failureCause(result.error);
  }
  return finish(result);
}

/** One line for the end: how many parsed, failed (by cause) and were not asked. */
export function probeSummary(results: readonly ProbeResult[]): string {
  const failed = results.filter((r) => r.outcome === 'failed');
  const kinds = new Map<string, number>();
  for (const r of failed) kinds.set(r.cause!.kind, (kinds.get(r.cause!.kind) ?? 0) + 1);
  const byKind = [...kinds].map(([k, n]) => `${n} ${k}`).join(', ');
  const noKey = results.filter((r) => r.outcome === 'no key').length;
  return `probed ${results.length} source${results.length === 1 ? '' : 's'}: ${results.length - failed.length - noKey} parsed, ${failed.length} failed${byKind ? ` (${byKind})` : ''}${noKey ? `, ${noKey} without their API key` : ''}`;
}
