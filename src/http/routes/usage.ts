// GET /v1/usage: the caller's own plan, balance, expiry and usage (an extension; costs 0 points).
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { keyUsage, usageReport, type UsageRecorder } from '../../access/usage.js';
import type { AppDeps } from '../deps.js';
import { JSON_TYPE } from '../reply.js';

export function usageRoutes(app: FastifyInstance, deps: AppDeps, usage: UsageRecorder): void {
  app.get(
    '/v1/usage',
    { schema: { querystring: Type.Object({ api_key: Type.Optional(Type.String()) }) } },
    async (request, reply) => {
      const { account, plan, keyId } = request.auth!;
      const report = await usageReport((...a) => usage.days(...a), account, plan, deps.now());
      // The calling key's own share, beside the account's totals (issue 17).
      const mine = (await keyUsage((...a) => usage.keyDays(...a), account.id, deps.now())).find((k) => k.key_id === keyId);
      const key = { key_id: keyId, today: mine?.today ?? { requests: 0, points: 0 }, month: mine?.month ?? { requests: 0, points: 0 } };
      // Free, so nothing is charged; the points headers still report the balance (D11).
      return reply.type(JSON_TYPE).send(JSON.stringify({ code: 200, message: `usage of account ${account.id}`, ...report, key }));
    },
  );
}
