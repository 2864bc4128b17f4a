// A body the fast lane has read (fast-lane.ts), handed to Fastify with its request: the route's
// preParsing hook gives Fastify's body parser the same bytes as a new stream, so its limits, its
// parser and its errors apply as if it had read them from the socket itself.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { preParsingHookHandler } from 'fastify';

const READ = Symbol('kurs.bodyRead');

type WithBody = IncomingMessage & { [READ]?: Buffer };

/** Keeps `body`, read from `req`, for Fastify's path. */
export function keepBody(req: IncomingMessage, body: Buffer): void {
  (req as WithBody)[READ] = body;
}

/** A route's preParsing hook: the lane's bytes when it read them, else the request's own stream. */
export const replayBody: preParsingHookHandler = (request, _reply, payload, done) => {
  const body = (request.raw as WithBody)[READ];
  done(null, body === undefined ? payload : Readable.from([body], { objectMode: false }));
};
