// GET /v1/usage: the caller's own plan, balance, expiry and usage (an extension; costs 0 points).
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { usageReport, type UsageRecorder } from '../../access/usage.js';
import type { AppDeps } from '../deps.js';
import { JSON_TYPE } from '../reply.js';

export function usageRoutes(app: FastifyInstance, deps: AppDeps, usage: UsageRecorder): void {
  app.get(
    '/v1/usage',
    { schema: { querystring: Type.Object({ api_key: Type.Optional(Type.String()) }, { additionalProperties: false }) } },
    async (request, reply) => {
      const { account, plan } = request.auth!;
      const report = await usageReport((...a) => usage.days(...a), account, plan, deps.now());
      // Free, so nothing is charged; the points headers still report the balance (D11).
      return reply.type(JSON_TYPE).send(JSON.stringify({ code: 200, message: `usage of account ${account.id}`, ...report }));
    },
  );
}
