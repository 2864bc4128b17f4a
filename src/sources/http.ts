// The one HTTP client every feed goes through: a timeout on every request, a fixed User-Agent,
// retries with backoff on 429/5xx and network errors, every other non-2xx an error. An answer is
// bounded (docs/reliability.md#feed-limits): its body is counted as it streams and cut at the limit,
// redirects are followed by hand, at most MAX_REDIRECTS, each one past the caller's host check.
import type { HostCheck } from './hosts.js';
import type { FeedRequest } from './types.js';

/** About four times the largest payload a bank sends today (the ECB's 1.9 MB history CSV). */
export const DEFAULT_FEED_MAX_BYTES = 8 * 1024 * 1024;
export const MAX_REDIRECTS = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export const USER_AGENT = 'Kurs/0.1 (+https://github.com/kurs-rates/kurs; exchange-rate service)';

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
}

/** What one fetch may do, set per source by fetchSource. */
export interface FeedLimits {
  /** Largest body accepted, counted after content decoding, so a gzip bomb stops here too. */
  maxBytes?: number;
  /** Asked before the first request and before each redirect is followed. */
  allow?: HostCheck;
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

export function createHttpClient(opts: HttpOptions = {}): HttpClient {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const retries = opts.retries ?? 3;
  const backoffMs = opts.backoffMs ?? 1_000;
  const sleep = opts.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));

  return async (request, limits = {}) => {
    const shown = redactUrl(request.url);
    const maxBytes = opts.maxBytes ?? limits.maxBytes ?? DEFAULT_FEED_MAX_BYTES;
    for (let attempt = 0; ; attempt++) {
      let status: number | undefined;
      let retryAfterMs: number | undefined;
      let problem: string;
      try {
        const res = await follow(request, limits.allow, AbortSignal.timeout(timeoutMs));
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
        problem = `${(err as Error).name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : (err as Error).message} fetching ${shown}`;
      }
      if (attempt >= retries) throw new HttpError(shown, status, `${problem} (after ${attempt + 1} attempts)`);
      await sleep(retryAfterMs ?? backoffMs * 2 ** attempt);
    }
  };
}

/** Sends `request`, following up to MAX_REDIRECTS redirects as a browser would, each past `allow`. */
async function follow(request: FeedRequest, allow: HostCheck | undefined, signal: AbortSignal): Promise<Response> {
  let url = new URL(request.url);
  let method = request.method ?? 'GET';
  let body = request.body;
  let headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: '*/*', ...request.headers };
  for (let hop = 0; ; hop++) {
    const refused = await allow?.(url);
    if (refused) throw new HttpError(redactUrl(url.href), undefined, `refused to fetch ${redactUrl(url.href)}: ${refused}`);
    const res = await fetch(url, { method, headers, body, signal, redirect: 'manual' });
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
