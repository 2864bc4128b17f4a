// Sending a charged JSON body: the charge happens here, after the body exists and before a byte
// leaves (D2), and every response to a valid key reports its cost and balance (D11).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Meter } from '../access/meter.js';
import { charge } from './auth.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

let lastStamp = '';
let lastDate = '';

/** `YYYY-MM-DD HH:MM:SS` (UTC) as an HTTP date. Rates change a few times a day, so almost every
 *  call repeats the previous stamp: the last answer is kept. */
export function httpDate(stamp: string): string {
  if (stamp !== lastStamp) {
    lastDate = new Date(`${stamp.replace(' ', 'T')}Z`).toUTCString();
    lastStamp = stamp;
  }
  return lastDate;
}

export function sendCharged(meter: Meter, request: FastifyRequest, reply: FastifyReply, cost: number, body: string, lastUpdate?: string): Promise<FastifyReply> {
  return charge(meter, request, cost).then(() => {
    if (lastUpdate) reply.header('last-modified', httpDate(lastUpdate));
    return reply.type(JSON_TYPE).send(body);
  });
}

export function installPointsHeaders(app: FastifyInstance): void {
  // Callback style: it runs on every response, and an async hook costs a promise each time.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.auth) {
      const points = request.points ?? { cost: 0, remaining: request.auth.account.points };
      reply.header('x-points-cost', String(points.cost));
      reply.header('x-points-remaining', String(points.remaining));
      if (reply.statusCode < 400) reply.header('cache-control', 'private');
    }
    done(null, payload);
  });
}
