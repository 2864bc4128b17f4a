// A local HTTP server that plays a central bank: it answers given paths (with their query) with
// given bodies, and records what it was asked. Tests point a source's base URL at it.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FeedRoute {
  status?: number;
  body: Buffer | string;
  contentType?: string;
  /** More response headers (Set-Cookie for a form page's session). */
  headers?: Record<string, string | string[]>;
}

export interface FeedServerRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FeedServer {
  url: string;
  requests: FeedServerRequest[];
  close(): Promise<void>;
}

/** `routes` is keyed by path plus query exactly as requested, or by path alone to match any query; a
 *  function also sees the whole request, to answer a form page's GET and its POST differently. */
export async function startFeedServer(routes: Record<string, FeedRoute> | ((pathAndQuery: string, request: FeedServerRequest) => FeedRoute | undefined)): Promise<FeedServer> {
  const requests: FeedServer['requests'] = [];
  const lookup = typeof routes === 'function' ? routes : (u: string) => routes[u] ?? routes[u.split('?')[0]!];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const request = { method: req.method!, url: req.url!, headers: req.headers, body };
      requests.push(request);
      const route = lookup(req.url!, request);
      if (!route) {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not Found</body></html>');
        return;
      }
      res.writeHead(route.status ?? 200, { 'content-type': route.contentType ?? 'application/octet-stream', ...route.headers }).end(route.body);
    });
  });
  // Idle keep-alive sockets stay open longer than any test: a client reusing one the server is just
  // closing sees "fetch failed", which a loaded machine (a long synchronous parse) makes likely.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
