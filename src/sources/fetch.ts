// Fetching one source: its pure request list, sent through the shared client, in order. A request
// marked `follow` fetches a step (an index page, a form page with its token) that the source's
// pure `follow` turns into the next requests; every other answer is a payload for `parse`, and keeps
// the URL (or the request's name) so that `parse` sees what it was asked for.
import { hostRules, sameHost, type Resolve } from './hosts.js';
import { DEFAULT_FEED_MAX_BYTES, HttpError, type HttpClient } from './http.js';
import { intermediatesOf } from './tls.js';
import type { FeedRequest, FetchWindow, FollowedPage, Payload, RequestContext, Source } from './types.js';

/** Pages followed in a row before the next requests; no feed we know needs more than two. */
export const MAX_FOLLOW_DEPTH = 3;

/**
 * What the feeds last said about each URL (ETag, Last-Modified), so the next poll can ask "only if
 * changed" and a feed that supports it answers 304 without a body. Per process: a restart costs one
 * full fetch per feed, which ingest then finds unchanged.
 */
export class ConditionalCache {
  private readonly validators = new Map<string, { etag?: string; lastModified?: string }>();

  headersFor(url: string): Record<string, string> {
    const v = this.validators.get(url);
    return { ...(v?.etag ? { 'if-none-match': v.etag } : {}), ...(v?.lastModified ? { 'if-modified-since': v.lastModified } : {}) };
  }

  remember(url: string, v: { etag?: string; lastModified?: string }): void {
    if (v.etag || v.lastModified) this.validators.set(url, { etag: v.etag, lastModified: v.lastModified });
  }
}

/** The `cookie` header a next request sends: the one this request sent, updated by Set-Cookie. */
export function nextCookie(sent: string | undefined, setCookie: readonly string[] = []): string | undefined {
  const jar = new Map<string, string>();
  for (const pair of (sent ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0) jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
  for (const line of setCookie) {
    const pair = line.split(';', 1)[0]!;
    const at = pair.indexOf('=');
    if (at > 0) jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
  return jar.size > 0 ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : undefined;
}

/** A request a follow step built from `page`, without the page's cookie when it goes to another host. */
function cookieToItsHost(request: FeedRequest, page: FollowedPage): FeedRequest {
  if (!page.cookie || !request.headers || sameHost(page.url, request.url)) return request;
  const headers = Object.fromEntries(Object.entries(request.headers).filter(([k, v]) => !(k.toLowerCase() === 'cookie' && v === page.cookie)));
  return { ...request, headers };
}

/** Runs a follow step; the server's runs it in its parsing thread (src/ingest/parser-thread.ts). */
export type FollowStep = (source: Source, page: FollowedPage, window: FetchWindow, ctx: RequestContext) => FeedRequest[] | Promise<FeedRequest[]>;

/** `resolve` answers DNS for the host rules; tests pass their own so that no real resolver is asked.
 *  `follow` runs the source's follow steps: by default here, on the calling thread. */
export async function fetchSource(source: Source, window: FetchWindow, ctx: RequestContext, http: HttpClient, cache?: ConditionalCache, resolve?: Resolve, follow: FollowStep = (s, page, w, c) => s.follow!(page, w, c)): Promise<Payload[]> {
  const payloads: Payload[] = [];
  const limits = {
    maxBytes: source.maxBytes ?? DEFAULT_FEED_MAX_BYTES,
    allow: hostRules(source, ctx, resolve),
    ...(source.headers ? { headers: source.headers } : {}),
    ...(source.tlsIntermediates ? { intermediates: intermediatesOf(source) } : {}),
  };
  const run = async (requests: FeedRequest[], depth: number): Promise<void> => {
    for (const request of requests) {
      // A step's body is needed every time: a 304 would leave nothing to follow.
      const conditional = cache && !request.follow && (request.method ?? 'GET') === 'GET' ? cache.headersFor(request.url) : {};
      let response;
      try {
        response = await http({ ...request, headers: { ...request.headers, ...conditional } }, limits);
      } catch (err) {
        if (request.optional && err instanceof HttpError && err.status === 404) continue;
        throw err;
      }
      const name = request.name ?? request.url;
      if (request.follow) {
        if (!source.follow) throw new Error(`${source.code}: ${name} is a page to follow, but the source has no follow step`);
        if (depth >= MAX_FOLLOW_DEPTH) throw new Error(`${source.code}: more than ${MAX_FOLLOW_DEPTH} pages followed in a row at ${name}`);
        const cookie = nextCookie(request.headers?.cookie, response.setCookie);
        const page = { name, url: request.url, body: response.body, ...(cookie ? { cookie } : {}) };
        await run((await follow(source, page, window, ctx)).map((next) => cookieToItsHost(next, page)), depth + 1);
        continue;
      }
      if (response.status === 304) continue;
      cache?.remember(request.url, response);
      payloads.push({ name, body: response.body });
    }
  };
  await run(source.requests(window, ctx), 0);
  return payloads;
}
