// CORS for browser apps on other origins. The key is the credential, sent as a header, so no
// cookies are involved and `Access-Control-Allow-Credentials` is never sent. Preflights are
// answered here, before authentication: they need no key and cost nothing. The admin API is left
// out: it is for billing systems, not browsers.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** `*` (the default) or the exact origins allowed (KURS_CORS_ORIGINS). */
export type CorsOrigins = '*' | readonly string[];

/** What a browser script may read besides the simple headers: cost, balance, caching, back-off. */
const EXPOSED = 'X-Points-Cost, X-Points-Remaining, ETag, Last-Modified, Retry-After, RateLimit, RateLimit-Policy';
const ALLOWED_HEADERS = 'Authorization, Content-Type, If-None-Match, If-Modified-Since';
/** Browsers cap this anyway (Chromium at 2 hours); a day saves repeated preflights elsewhere. */
const MAX_AGE_SECONDS = '86400';

const covered = (url: string) => !url.startsWith('/admin/');

export function installCors(app: FastifyInstance, origins: CorsOrigins, allowedMethods: (path: string) => string[]): void {
  const allowOrigin = (origin: string): string | undefined => (origins === '*' ? '*' : origins.includes(origin) ? origin : undefined);

  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    const origin = request.headers.origin;
    // With a list of origins the answer depends on Origin, so a shared cache must key on it.
    if (origins !== '*') reply.header('vary', 'Origin');
    if (origin === undefined || !covered(request.url)) return done();
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      return preflight(request, reply, allowOrigin(origin), allowedMethods, done);
    }
    const allowed = allowOrigin(origin);
    if (allowed) reply.header('access-control-allow-origin', allowed).header('access-control-expose-headers', EXPOSED);
    done();
  });
}

/** 204 with what the path takes; a path with no route goes on to the 404. A plain OPTIONS (no
 *  preflight headers) is not answered here: it gets the 405 with `Allow` like any other method. */
function preflight(request: FastifyRequest, reply: FastifyReply, allowed: string | undefined, allowedMethods: (path: string) => string[], done: (err?: Error) => void): void {
  const methods = allowedMethods(request.url.split('?')[0]!);
  if (methods.length === 0) return done();
  const allow = [...methods, 'OPTIONS'].join(', ');
  reply.code(204).header('allow', allow).header('cache-control', 'no-store').header('vary', 'Origin');
  if (allowed) {
    reply
      .header('access-control-allow-origin', allowed)
      .header('access-control-allow-methods', allow)
      .header('access-control-allow-headers', ALLOWED_HEADERS)
      .header('access-control-max-age', MAX_AGE_SECONDS);
  }
  reply.send();
}
