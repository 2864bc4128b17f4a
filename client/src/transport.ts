// One HTTP exchange with Kurs: the key header, a timeout joined with the caller's AbortSignal,
// Retry-After honoured on 429 and 503 a bounded number of times, an optional ETag cache (a 304 is
// free, so polling an unchanged /latest costs nothing), and errors as KursError.
import { KursError } from './errors.js';
import { parseExact } from './exact-json.js';

export interface TransportOptions {
  baseUrl: string;
  apiKey?: string;
  /** Per try; default 30 s. */
  timeoutMs?: number;
  /** Further tries after a 429 or 503 that sent Retry-After; default 2. */
  retries?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown at once. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Keep GET answers by URL and revalidate them with If-None-Match; `true` keeps up to 100. */
  etagCache?: boolean | { maxEntries: number };
  /** Every number of every body as its exact decimal text (see exact-json.ts). */
  exact?: boolean;
  fetch?: typeof fetch;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

interface Cached {
  etag: string;
  text: string;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

export class Transport {
  private readonly cache = new Map<string, Cached>();
  private readonly maxEntries: number;

  constructor(private readonly opts: TransportOptions) {
    this.maxEntries = opts.etagCache === true ? 100 : opts.etagCache ? opts.etagCache.maxEntries : 0;
  }

  async request(method: 'GET' | 'POST', path: string, query: Record<string, string | undefined>, body: unknown, call: CallOptions = {}): Promise<unknown> {
    const url = new URL(this.opts.baseUrl.replace(/\/$/, '') + path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
    const cached = method === 'GET' ? this.cache.get(url.href) : undefined;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.opts.apiKey) headers.authorization = this.opts.apiKey;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (cached) headers['if-none-match'] = cached.etag;
    const retries = this.opts.retries ?? 2;
    for (let attempt = 0; ; attempt++) {
      const res = await this.send(url, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) }, call);
      if (res.status === 304 && cached) return this.parse(cached.text);
      const text = await res.text();
      if (res.ok) {
        const etag = res.headers.get('etag');
        if (method === 'GET' && etag && this.maxEntries > 0) this.remember(url.href, { etag, text });
        return this.parse(text);
      }
      const error = toError(res, text);
      const wait = error.retryAfter === undefined ? undefined : error.retryAfter * 1000;
      if ((res.status !== 429 && res.status !== 503) || wait === undefined || attempt >= retries || wait > (this.opts.maxRetryAfterMs ?? 60_000)) throw error;
      await sleep(wait, call.signal);
    }
  }

  private async send(url: URL, init: RequestInit, call: CallOptions): Promise<Response> {
    const timeoutMs = call.timeoutMs ?? this.opts.timeoutMs ?? 30_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
    try {
      return await (this.opts.fetch ?? fetch)(url, { ...init, signal });
    } catch (err) {
      if (call.signal?.aborted) throw new KursError(0, 'aborted', 'the request was aborted', [], undefined, undefined, { cause: err });
      if (timeout.aborted) throw new KursError(0, 'timeout', `no answer from ${url.origin} within ${timeoutMs} ms`, [], undefined, undefined, { cause: err });
      throw new KursError(0, 'network', `could not reach ${url.origin}: ${(err as Error).message}`, [], undefined, undefined, { cause: err });
    }
  }

  private parse(text: string): unknown {
    return this.opts.exact ? parseExact(text) : JSON.parse(text);
  }

  /** The oldest stored entry goes first: a Map iterates in insertion order. */
  private remember(url: string, entry: Cached): void {
    this.cache.delete(url);
    this.cache.set(url, entry);
    if (this.cache.size > this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
  }
}

function toError(res: Response, text: string): KursError {
  let body: { message?: unknown; error?: unknown; details?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Not the envelope (a proxy's page): the status speaks for itself.
  }
  const remaining = res.headers.get('x-points-remaining');
  const retryAfter = res.headers.get('retry-after');
  return new KursError(
    res.status,
    typeof body.error === 'string' ? body.error : `http_${res.status}`,
    typeof body.message === 'string' ? body.message : `HTTP ${res.status}`,
    Array.isArray(body.details) ? (body.details as KursError['details']) : [],
    remaining === null ? undefined : Number(remaining),
    retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined,
  );
}
