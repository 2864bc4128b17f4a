// Sending a charged JSON body: the charge happens here, after the body exists and before a byte
// leaves (D2), and every response to a valid key reports its cost and balance (D11).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Balances } from '../access/balances.js';
import { charge } from './charge.js';
import { endpointOf, type Prices, priceOf, putPoints, putValidators, REVALIDATE } from './charged.js';
import type { Meter } from '../access/meter.js';
import { entityTag, type Entity } from '../rates/entity.js';

export const JSON_TYPE = 'application/json; charset=utf-8';
export { REVALIDATE };

/** RFC 9110 13.1.2: weak comparison, so `W/"x"` matches `"x"`; `*` matches any current body. */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** What charging needs of the app: the meter and the prices (charged.ts). */
export interface Charging {
  meter: Meter;
  pointsCost: Prices;
}

/** Resolves like the route's own `return reply`: once the response has been handed over (a reply is
 *  thenable, and an onSend hook may still be at work when send() returns). The price is the route's
 *  endpoint's (its config) times `units` (charged.ts). */
export function sendCharged(deps: Charging, request: FastifyRequest, reply: FastifyReply, body: string | Buffer | Entity, lastUpdate?: string, units = 1): Promise<unknown> {
  const cost = priceOf(deps.pointsCost, endpointOf(request.routeOptions.config), units);
  // A body written as bytes (the bulk conversion's) is sent as it is, without a UTF-8 encoding pass.
  const built = typeof body === 'string' || Buffer.isBuffer(body);
  const payload = built ? body : body.body;
  // Cached bodies carry their tag; a body built for this request is hashed now. POST answers get none.
  const etag = request.method === 'POST' ? undefined : built ? entityTag(body) : body.etag;
  // Not a 2xx, so not charged (D2/D11); the points headers still go out with it.
  if (etag && noneMatch(request.headers['if-none-match'], etag)) {
    return Promise.resolve(validators(reply, etag, lastUpdate).code(304).send());
  }
  // Validators go on the 2xx or 304 only: an error from the charge must not carry them.
  return charge(deps.meter, request, cost).then(() => validators(reply, etag, lastUpdate).type(JSON_TYPE).send(payload));
}

function validators(reply: FastifyReply, etag: string | undefined, lastUpdate: string | undefined): FastifyReply {
  putValidators((name, value) => reply.header(name, value), etag, lastUpdate);
  return reply;
}

/** Every answer to a valid key reports its cost and the balance: the meter's answer when it was
 *  charged (remembered as the newest balance), else the newest balance known (balances.ts). */
export function installPointsHeaders(app: FastifyInstance, balances: Balances): void {
  // Callback style: it runs on every response, and an async hook costs a promise each time.
  app.addHook('onSend', (request, reply, payload, done) => {
    const auth = request.auth;
    if (auth) {
      const points = request.points;
      if (points && !points.known) balances.saw(auth.account.id, points.remaining);
      putPoints((name, value) => reply.header(name, value), points ? points.cost : 0, points ? points.remaining : balances.of(auth));
      if (reply.statusCode < 400 && !reply.hasHeader('cache-control')) reply.header('cache-control', 'private');
    }
    done(null, payload);
  });
}
