// The one HTTP client every feed goes through: a timeout on every request, a User-Agent (ours, the
// operator's, or the source's own), per-source headers and TLS intermediates (D25), retries with
// backoff on 429/5xx and network errors, every other non-2xx an error. An answer is
// bounded (docs/reliability.md#feed-limits): its body is counted as it streams and cut at the limit,
// redirects are followed by hand, at most MAX_REDIRECTS, each one past the caller's host check.
import { VERSION } from '../version.js';
import type { HostCheck } from './hosts.js';
import { agentTrusting, DEFAULT_ROOTS, undici } from './tls.js';
import type { FeedRequest } from './types.js';

/** About four times the largest payload a bank sends today (the ECB's 1.9 MB history CSV). */
export const DEFAULT_FEED_MAX_BYTES = 8 * 1024 * 1024;

/** The largest payload read for a source: the operator's limit (KURS_FEED_MAX_BYTES) over the
 *  source's own, over the default. A fetch and a `kurs ingest --from-dir` file read the same. */
export const feedMaxBytes = (operator: number | undefined, source: number | undefined): number => operator ?? source ?? DEFAULT_FEED_MAX_BYTES;

export const MAX_REDIRECTS = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** package.json names no repository; this is the address Kurs's User-Agent has always given. */
export const PROJECT_URL = 'https://github.com/kurs-rates/kurs';
/** The form CDNs in front of several banks let through (BCT, CBS, CBL: LIVE-DRIFT.md), where they
 *  refuse a library's agent: a browser's prefix, then who is asking and where to read about it. */
export const USER_AGENT = `Mozilla/5.0 (compatible; Kurs/${VERSION}; +${PROJECT_URL})`;
/** For the few sources whose firewall wants a browser, not a compatible agent (CBE's F5, SBP's
 *  Cloudflare, the BoE database): the one the peer sends CBE. */
export const BROWSER_USER_AGENT = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';

export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly url: string,
    readonly status: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

export interface HttpOptions {
  timeoutMs?: number;
  retries?: number;
  /** First backoff; doubles per retry. A Retry-After header, when shorter than a minute, wins. */
  backoffMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** The operator's limit (KURS_FEED_MAX_BYTES): wins over every source's own. */
  maxBytes?: number;
  /** The operator's User-Agent (KURS_USER_AGENT) in place of USER_AGENT; a source's own still wins. */
  userAgent?: string;
  /** The roots trusted (default: Node's, `tls.rootCertificates`); tests pass their own. Given, every
   *  request trusts exactly these plus the source's intermediates. */
  roots?: readonly string[];
}

/** What one fetch may do, set per source by fetchSource. */
export interface FeedLimits {
  /** Largest body accepted, counted after content decoding, so a gzip bomb stops here too. */
  maxBytes?: number;
  /** Asked before the first request and before each redirect is followed. */
  allow?: HostCheck;
  /** The source's own headers (Source.headers): over the defaults, under the request's. */
  headers?: Readonly<Record<string, string>>;
  /** The source's intermediate certificates (PEM), trusted with the roots for its requests only. */
  intermediates?: readonly string[];
}

export interface HttpResponse {
  body: Buffer;
  /** 200-299, or 304 when a conditional request found the feed unchanged. */
  status: number;
  etag?: string;
  lastModified?: string;
  /** The answer's Set-Cookie headers, for feeds whose form wants the session of the page it came from. */
  setCookie?: string[];
}

export type HttpClient = (request: FeedRequest, limits?: FeedLimits) => Promise<HttpResponse>;

const RETRYABLE = (status: number) => status === 429 || status >= 500;
export const redactUrl = (url: string) => url.replace(/([?&](api_key|apikey|key|token|user|pass|password|pwd|secret)=)[^&]*/gi, '$1***');

/** The client of every fetch Kurs makes for the operator (polls, `kurs ingest`, `kurs backfill`,
 *  `kurs sources --probe`): their KURS_FEED_MAX_BYTES and KURS_USER_AGENT, set here once; a command
 *  that built its own left the limit out (`kurs backfill`, until 2026-11-29). */
export function operatorHttpClient(config: { feedMaxBytes?: number | undefined; userAgent?: string | undefined }, opts: HttpOptions = {}): HttpClient {
  return createHttpClient({ ...opts, maxBytes: config.feedMaxBytes, userAgent: config.userAgent });
}

export function createHttpClient(opts: HttpOptions = {}): HttpClient {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const retries = opts.retries ?? 3;
  const backoffMs = opts.backoffMs ?? 1_000;
  const sleep = opts.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const defaults = { 'user-agent': opts.userAgent ?? USER_AGENT, accept: '*/*' };

  return async (request, limits = {}) => {
    const shown = redactUrl(request.url);
    const maxBytes = feedMaxBytes(opts.maxBytes, limits.maxBytes);
    for (let attempt = 0; ; attempt++) {
      let status: number | undefined;
      let retryAfterMs: number | undefined;
      let problem: string;
      try {
        const send = sender(opts.roots, limits.intermediates ?? []);
        const res = await follow(send, { ...request, headers: merged(defaults, limits.headers, request.headers) }, limits.allow, AbortSignal.timeout(timeoutMs));
        status = res.status;
        const validators = {
          ...(res.headers.get('etag') ? { etag: res.headers.get('etag')! } : {}),
          ...(res.headers.get('last-modified') ? { lastModified: res.headers.get('last-modified')! } : {}),
          ...(res.headers.getSetCookie().length > 0 ? { setCookie: res.headers.getSetCookie() } : {}),
        };
        if (res.ok) return { status, body: await readCapped(res, maxBytes, shown), ...validators };
        if (status === 304) return { status, body: Buffer.alloc(0), ...validators };
        await res.body?.cancel();
        problem = `HTTP ${status} from ${shown}`;
        // Only a Retry-After the feed sent: Number(null) is 0, which would retry with no backoff at all.
        const header = res.headers.get('retry-after');
        const after = header === null || header.trim() === '' ? NaN : Number(header);
        if (Number.isFinite(after) && after >= 0 && after <= 60) retryAfterMs = after * 1000;
        if (!RETRYABLE(status)) throw new HttpError(shown, status, problem);
      } catch (err) {
        if (err instanceof HttpError) throw err;
        problem = `${(err as Error).name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : networkProblem(err as Error)} fetching ${shown}`;
      }
      if (attempt >= retries) throw new HttpError(shown, status, `${problem} (after ${attempt + 1} attempts)`);
      await sleep(retryAfterMs ?? backoffMs * 2 ** attempt);
    }
  };
}

/** Header sets merged by lower-cased name, the later winning: `User-Agent` replaces `user-agent`. */
const merged = (...sets: (Readonly<Record<string, string>> | undefined)[]): Record<string, string> =>
  Object.fromEntries(sets.flatMap((set) => Object.entries(set ?? {}).map(([k, v]) => [k.toLowerCase(), v])));

type Send = (url: URL, init: { method: string; headers: Record<string, string>; body: string | undefined; signal: AbortSignal; redirect: 'manual' }) => Promise<Response>;

/** Node's fetch where the default roots do; otherwise undici's, through a pool that trusts the
 *  roots plus the source's intermediates (Node's own fetch takes no trust settings). */
function sender(roots: readonly string[] | undefined, intermediates: readonly string[]): Send {
  if (roots === undefined && intermediates.length === 0) return fetch;
  const dispatcher = agentTrusting(roots ?? DEFAULT_ROOTS, intermediates);
  const { fetch: fetchTrusting } = undici();
  return async (url, init) => (await fetchTrusting(url, { ...init, dispatcher })) as unknown as Response;
}

/** "fetch failed" says nothing: the cause (a TLS verdict, a reset, a refused connection) does. */
function networkProblem(err: Error): string {
  const cause = err.cause as (Error & { code?: string }) | undefined;
  if (!(cause instanceof Error)) return err.message;
  return `${err.message}: ${cause.code && !cause.message.includes(cause.code) ? `${cause.code} ` : ''}${cause.message}`;
}

/** Sends `request`, following up to MAX_REDIRECTS redirects as a browser would, each past `allow`. */
async function follow(send: Send, request: FeedRequest, allow: HostCheck | undefined, signal: AbortSignal): Promise<Response> {
  let url = new URL(request.url);
  let method = request.method ?? 'GET';
  let body = request.body;
  let headers: Record<string, string> = { ...request.headers };
  for (let hop = 0; ; hop++) {
    const refused = await allow?.(url);
    if (refused) throw new HttpError(redactUrl(url.href), undefined, `refused to fetch ${redactUrl(url.href)}: ${refused}`);
    const res = await send(url, { method, headers, body, signal, redirect: 'manual' });
    const location = res.headers.get('location');
    if (!REDIRECTS.has(res.status) || location === null) return res;
    await res.body?.cancel();
    if (hop >= MAX_REDIRECTS) throw new HttpError(redactUrl(request.url), res.status, `more than ${MAX_REDIRECTS} redirects from ${redactUrl(request.url)}`);
    const next = new URL(location, url);
    // The bank's cookie and credentials stay with the host they were meant for.
    if (next.hostname !== url.hostname) headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !['cookie', 'authorization'].includes(k.toLowerCase())));
    if (res.status === 303 || (method === 'POST' && res.status <= 302)) {
      method = 'GET';
      body = undefined;
      headers = Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'content-type'));
    }
    url = next;
  }
}

/** The body, read chunk by chunk and abandoned as soon as it passes `maxBytes`. */
async function readCapped(res: Response, maxBytes: number, shown: string): Promise<Buffer> {
  const tooLarge = () => new HttpError(shown, res.status, `answer from ${shown} is larger than the feed limit of ${maxBytes} bytes (KURS_FEED_MAX_BYTES)`);
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw tooLarge();
  }
  if (!res.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks, total);
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
}
