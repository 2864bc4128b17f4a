// Probes for load balancers and orchestrators. /healthz: the process is up (no database touched, so a
// database outage never gets healthy instances restarted). /readyz: send traffic here — the database
// answers and rates are loaded. Neither needs a key nor costs points.
import type { FastifyInstance } from 'fastify';
import { ApiError, sendError } from '../errors.js';
import { okWith } from '../bodies/entity.js';
import { JSON_TYPE } from '../reply.js';
import type { AppDeps } from '../deps.js';

export function healthRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'store' | 'market'>): void {
  app.get('/healthz', async (_request, reply) =>
    reply.type(JSON_TYPE).header('cache-control', 'no-store').send(JSON.stringify(okWith('up'))),
  );

  app.get('/readyz', async (request, reply) => {
    try {
      await deps.store.ping();
    } catch (err) {
      request.log.warn({ err: (err as Error).message }, 'readiness: database unreachable');
      return sendError(reply, new ApiError('unavailable', 'not ready: the database is unreachable'));
    }
    if (deps.market.current.builtAt.getTime() === 0) return sendError(reply, new ApiError('unavailable', 'not ready: rates are not loaded yet'));
    return reply.type(JSON_TYPE).header('cache-control', 'no-store').send(JSON.stringify(okWith('ready')));
  });
}
