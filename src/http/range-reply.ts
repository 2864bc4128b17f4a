// Sending a range answer (D15, D16): a short one is built whole, tagged, then charged and sent like
// any body (a matching If-None-Match is a free 304); a long one is charged before its first byte and
// then streamed, so a stream is never sent uncharged, and a client that leaves mid-stream has paid
// once. A stream has no ETag: its headers leave before the bytes a tag would be computed from exist.
// A range with no figure at all is 404 and costs nothing (D16).
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONTENT_TYPES, type RangeFormat } from './bodies/range.js';
import { charge, type Charging, endpointOf, priceOf, REVALIDATE } from './charged.js';
import { entityTag } from './bodies/entity.js';
import { ApiError } from './errors.js';
import { noneMatch } from './reply.js';

/** Ranges longer than this many days stream. */
export const STREAM_AFTER_DAYS = 366;

/** 503 while the days of a range wait for the ingester to materialise them. */
export const notReady = () => new ApiError('unavailable', 'history for this range is still being prepared; retry shortly', undefined, { 'retry-after': '5' });

/** D16: nothing to answer, nothing charged. */
export const noFigures = (what: string, start: string, end: string) =>
  new ApiError('no_fresh_rate', `no rate available for ${what} between ${start} and ${end}; GET /v1/banks?format=full gives each source's first_date and newest_date`);

/** A range body built whole (and perhaps kept), with its strong validator. */
export interface RangeBody {
  body: string | Buffer;
  etag: string;
}

export const rangeBody = (body: string | Buffer): RangeBody => ({ body, etag: entityTag(body) });

/** A short range's whole body. */
export async function collect(chunks: AsyncIterable<string>): Promise<string> {
  let body = '';
  for await (const chunk of chunks) body += chunk;
  return body;
}

/** `rows` with its first row read ahead, or undefined when it has none (read before any charge). */
export async function nonEmpty<T>(rows: Iterable<T> | AsyncIterable<T>): Promise<AsyncIterable<T> | undefined> {
  const it = Symbol.asyncIterator in rows ? rows[Symbol.asyncIterator]() : rows[Symbol.iterator]();
  const first = await it.next();
  if (first.done) return undefined;
  return (async function* () {
    yield first.value;
    for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
  })();
}

/** `chunks` as a RangeBody is a body built (or kept) before. */
export async function sendRange(deps: Charging, request: FastifyRequest, reply: FastifyReply, units: number, format: RangeFormat, chunks: AsyncIterable<string> | RangeBody, stream: boolean): Promise<FastifyReply> {
  const cost = priceOf(deps.pointsCost, endpointOf(request.routeOptions.config), units);
  reply.header('cache-control', REVALIDATE);
  if ('etag' in chunks || !stream) {
    const { body, etag } = 'etag' in chunks ? chunks : rangeBody(await collect(chunks));
    // Not a 2xx, so not charged (D2/D11), like every other 304. The tag goes on the 2xx or 304 only.
    if (noneMatch(request.headers['if-none-match'], etag)) return reply.header('etag', etag).code(304).send();
    await charge(deps.meter, request, cost);
    return reply.header('etag', etag).type(CONTENT_TYPES[format]).send(body);
  }
  await charge(deps.meter, request, cost);
  return reply.type(CONTENT_TYPES[format]).send(Readable.from(chunks, { objectMode: false }));
}
