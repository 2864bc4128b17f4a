// Fetching one source: its pure request list, sent through the shared client, in order. Each
// payload keeps the URL (or the request's name) so that `parse` sees what it was asked for.
import { HttpError, type HttpClient } from './http.js';
import type { FetchWindow, Payload, RequestContext, Source } from './types.js';

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

export async function fetchSource(source: Source, window: FetchWindow, ctx: RequestContext, http: HttpClient, cache?: ConditionalCache): Promise<Payload[]> {
  const payloads: Payload[] = [];
  for (const request of source.requests(window, ctx)) {
    const conditional = cache && (request.method ?? 'GET') === 'GET' ? cache.headersFor(request.url) : {};
    try {
      const response = await http({ ...request, headers: { ...request.headers, ...conditional } });
      if (response.status === 304) continue;
      cache?.remember(request.url, response);
      payloads.push({ name: request.name ?? request.url, body: response.body });
    } catch (err) {
      if (request.optional && err instanceof HttpError && err.status === 404) continue;
      throw err;
    }
  }
  return payloads;
}
