// Sending a range answer (D15, D16): a short one is built whole, then charged and sent like any
// body; a long one is charged before its first byte and then streamed, so a stream is never sent
// uncharged, and a client that leaves mid-stream has paid once.
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Meter } from '../access/meter.js';
import { CONTENT_TYPES, type RangeFormat } from '../history/formats.js';
import { charge } from '../access/charge.js';
import { ApiError } from './errors.js';

/** Ranges longer than this many days stream. */
export const STREAM_AFTER_DAYS = 366;

/** 503 while the days of a range wait for the ingester to materialise them. */
export const notReady = () => new ApiError('unavailable', 'history for this range is still being prepared; retry shortly', undefined, { 'retry-after': '5' });

/** A short range's whole body. */
export async function collect(chunks: AsyncIterable<string>): Promise<string> {
  let body = '';
  for await (const chunk of chunks) body += chunk;
  return body;
}

/** `chunks` as a string or bytes is a body built (or kept) before. */
export async function sendRange(meter: Meter, request: FastifyRequest, reply: FastifyReply, cost: number, format: RangeFormat, chunks: AsyncIterable<string> | string | Buffer, stream: boolean): Promise<FastifyReply> {
  reply.header('cache-control', 'private, no-cache');
  const built = typeof chunks === 'string' || Buffer.isBuffer(chunks);
  if (built || !stream) {
    const body = built ? chunks : await collect(chunks);
    await charge(meter, request, cost);
    return reply.type(CONTENT_TYPES[format]).send(body);
  }
  await charge(meter, request, cost);
  return reply.type(CONTENT_TYPES[format]).send(Readable.from(chunks, { objectMode: false }));
}
