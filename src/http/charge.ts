// A database that cannot be reached, as the key lookup, the limiter or the meter meet it: a 503 in
// the envelope (in http/, not access/: the access layer knows nothing of HTTP). The charge itself is
// charged.ts's.
import type { FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';

/** An unreachable database is a 503, never a free answer and never a 500 (docs/scaling.md). */
export function unavailable(request: FastifyRequest, err: unknown): ApiError {
  request.log.warn({ err: (err as Error).message }, 'database unreachable: answering 503');
  return new ApiError('unavailable', 'the service cannot reach its database; try again shortly', undefined, { 'retry-after': '1' });
}

export function failClosed<T>(request: FastifyRequest, work: Promise<T>): Promise<T> {
  return work.catch((err: unknown) => {
    throw unavailable(request, err);
  });
}
