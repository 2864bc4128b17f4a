// Fetching one source: its pure request list, sent through the shared client, in order. Each
// payload keeps the URL (or the request's name) so that `parse` sees what it was asked for.
import { HttpError, type HttpClient } from './http.js';
import type { FetchWindow, Payload, RequestContext, Source } from './types.js';

export async function fetchSource(source: Source, window: FetchWindow, ctx: RequestContext, http: HttpClient): Promise<Payload[]> {
  const payloads: Payload[] = [];
  for (const request of source.requests(window, ctx)) {
    try {
      const { body } = await http(request);
      payloads.push({ name: request.name ?? request.url, body });
    } catch (err) {
      if (request.optional && err instanceof HttpError && err.status === 404) continue;
      throw err;
    }
  }
  return payloads;
}
