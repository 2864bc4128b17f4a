// Resource limits at the HTTP edge: Node's own timeouts against slow clients, a cap on requests in
// flight (503 `unavailable` beyond it, before any key lookup or body parse), and a 503 in the
// envelope for requests that arrive on a kept-alive connection while the server shuts down.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import type { Limits } from '../config.js';
import { ApiError } from './errors.js';

/** Bodies are small JSON objects; 500 targets fit in a few KB. */
export const BODY_LIMIT = 64 * 1024;

/** How often Node sweeps connections for the headers and request deadlines (its default is 30 s),
 *  and Kurs for the connection deadline (stalled.ts). */
export const SWEEP_MS = 1_000;

/** Fastify server options for these limits. */
export function serverLimits(limits: Limits): FastifyHttpOptions<Server> {
  return {
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: Math.min(SWEEP_MS, limits.headersTimeoutMs) },
    requestTimeout: limits.requestTimeoutMs,
    // A connection whose answer has not moved this long (a client that stops reading) is cut
    // (stalled.ts, D33); later than the request deadline's sweep, so that a stalled request gets its 408 first.
    connectionTimeout: limits.requestTimeoutMs + 2 * SWEEP_MS,
    // Fastify's own 503 body is not our envelope; installLimits answers instead.
    return503OnClosing: false,
  };
}

/** Requests in flight and whether the server is closing: shared by Fastify's hooks and the fast lane
 *  (fast-lane.ts), so that the cap counts every request on either path. */
export class Admission {
  inFlight = 0;
  closing = false;
  /** Requests counted in whose place is kept for whoever serves them next (hold, resume). */
  private readonly held = new WeakSet<IncomingMessage>();

  constructor(readonly maxConcurrent: number) {}

  /** Keeps the place of `req`, counted in already, for whoever serves it next (`resume`): the fast
   *  lane hands a request to Fastify this way, so one admitted before a shutdown began is served,
   *  not refused. If nobody takes it, the place is given back when the response closes. */
  hold(req: IncomingMessage, res: ServerResponse): void {
    this.held.add(req);
    res.once('close', () => {
      if (this.held.delete(req)) this.leave();
    });
  }

  /** Takes over the place kept for `req`, if one is: then it is counted in, and the caller leaves. */
  resume(req: IncomingMessage): boolean {
    return this.held.delete(req);
  }

  /** Counts a request in, if it may be served (not closing, under the cap). */
  enter(): boolean {
    if (this.closing || this.inFlight >= this.maxConcurrent) return false;
    this.inFlight++;
    return true;
  }

  leave(): void {
    this.inFlight--;
  }
}

export function installLimits(app: FastifyInstance, admission: Admission): void {
  app.addHook('preClose', async () => {
    admission.closing = true;
  });
  // Callback-style hooks: these run on every request, and an async hook costs a promise each time.
  // A kept-alive connection would hold the shutdown open: answers given while closing end theirs.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (admission.closing) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onRequest', (request, reply, done) => {
    // A request the fast lane counted in and handed over keeps its place, shutdown or not.
    if (!admission.resume(request.raw)) {
      if (admission.closing) {
        return done(new ApiError('unavailable', 'the server is shutting down; retry on another connection', undefined, { 'retry-after': '1' }));
      }
      if (!admission.enter()) {
        return done(new ApiError('unavailable', 'the server is at its limit of concurrent requests; retry shortly', undefined, { 'retry-after': '1' }));
      }
    }
    // 'close' fires once per response, finished or aborted, so the count cannot leak.
    reply.raw.once('close', () => admission.leave());
    done();
  });
}
