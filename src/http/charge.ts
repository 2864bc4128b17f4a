// The HTTP side of charging (in http/, not access/: the access layer knows nothing of HTTP). D2: a
// charged answer is charged after its body is built and before a byte of it leaves; a short balance
// turns it into a 402. Plain promise chains rather than `async`: this runs on every charged
// request.
import type { FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';
import type { Meter } from '../access/meter.js';

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

/** Sets `request.points` from the meter's answer; a cost of 0 leaves it unset (nothing charged, the
 *  balance shown is the newest known: balances.ts). */
export function charge(meter: Meter, request: FastifyRequest, cost: number): Promise<void> {
  if (cost === 0) return Promise.resolve();
  // One derived promise: the failure handler sits beside the success handler, not in a .catch of its own.
  return meter.charge(request.auth!.account.id, cost).then(
    (result) => {
      request.points = { cost: result.ok ? cost : 0, remaining: result.remaining };
      if (!result.ok) throw new ApiError('points_exhausted', `not enough API points: this request costs ${cost}, the balance is ${result.remaining}`);
    },
    (err: unknown) => {
      throw unavailable(request, err);
    },
  );
}
