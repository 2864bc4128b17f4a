// The one HTTP client every feed goes through: a timeout on every request, a fixed User-Agent,
// retries with backoff on 429/5xx and network errors, every other non-2xx an error.
import type { FeedRequest } from './types.js';

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

export type HttpClient = (request: FeedRequest) => Promise<HttpResponse>;

const RETRYABLE = (status: number) => status === 429 || status >= 500;
export const redactUrl = (url: string) => url.replace(/([?&](api_key|apikey|key|token|user|pass|password|pwd|secret)=)[^&]*/gi, '$1***');

export function createHttpClient(opts: HttpOptions = {}): HttpClient {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const retries = opts.retries ?? 3;
  const backoffMs = opts.backoffMs ?? 1_000;
  const sleep = opts.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));

  return async (request) => {
    const shown = redactUrl(request.url);
    for (let attempt = 0; ; attempt++) {
      let status: number | undefined;
      let retryAfterMs: number | undefined;
      let problem: string;
      try {
        const res = await fetch(request.url, {
          method: request.method ?? 'GET',
          headers: { 'user-agent': USER_AGENT, accept: '*/*', ...request.headers },
          body: request.body,
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'follow',
        });
        status = res.status;
        const validators = {
          ...(res.headers.get('etag') ? { etag: res.headers.get('etag')! } : {}),
          ...(res.headers.get('last-modified') ? { lastModified: res.headers.get('last-modified')! } : {}),
          ...(res.headers.getSetCookie().length > 0 ? { setCookie: res.headers.getSetCookie() } : {}),
        };
        if (res.ok) return { status, body: Buffer.from(await res.arrayBuffer()), ...validators };
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
