// Sending a charged JSON body: the charge happens here, after the body exists and before a byte
// leaves (D2), and every response to a valid key reports its cost and balance (D11).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Meter } from '../access/meter.js';
import { entityTag, type Entity } from '../rates/entity.js';
import { httpDate } from '../time/stamps.js';
import { charge } from './auth.js';

export const JSON_TYPE = 'application/json; charset=utf-8';
/** GET answers may be stored by the client but must be revalidated (a 304 is free, D2). */
export const REVALIDATE = 'private, no-cache';

/** RFC 9110 13.1.2: weak comparison, so `W/"x"` matches `"x"`; `*` matches any current body. */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

export async function sendCharged(meter: Meter, request: FastifyRequest, reply: FastifyReply, cost: number, body: string | Entity, lastUpdate?: string): Promise<FastifyReply> {
  // Cached bodies carry their tag; a body built for this request is hashed now. POST answers get none.
  const etag = request.method !== 'GET' ? undefined : typeof body === 'string' ? entityTag(body) : body.etag;
  // Validators go on the 2xx or 304 only: an error from the charge below must not carry them.
  const validators = () => {
    if (lastUpdate) reply.header('last-modified', httpDate(lastUpdate));
    if (etag) reply.header('etag', etag).header('cache-control', REVALIDATE);
  };
  // Not a 2xx, so not charged (D2/D11); the points headers still go out with it.
  if (etag && noneMatch(request.headers['if-none-match'], etag)) {
    validators();
    return reply.code(304).send();
  }
  await charge(meter, request, cost);
  validators();
  return reply.type(JSON_TYPE).send(typeof body === 'string' ? body : body.body);
}

export function installPointsHeaders(app: FastifyInstance): void {
  // Callback style: it runs on every response, and an async hook costs a promise each time.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.auth) {
      const points = request.points ?? { cost: 0, remaining: request.auth.account.points };
      reply.header('x-points-cost', String(points.cost));
      reply.header('x-points-remaining', String(points.remaining));
      if (reply.statusCode < 400 && !reply.hasHeader('cache-control')) reply.header('cache-control', 'private');
    }
    done(null, payload);
  });
}
