// GET /v1/usage: the caller's own plan, balance, expiry and usage (an extension; costs 0 points).
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { keyUsage, usageReport, type UsageRecorder } from '../../access/usage.js';
import type { Balances } from '../../access/balances.js';
import type { AppDeps } from '../deps.js';
import { okWith } from '../bodies/entity.js';
import { JSON_TYPE } from '../reply.js';

export function usageRoutes(app: FastifyInstance, deps: AppDeps, usage: UsageRecorder, balances: Balances): void {
  app.get(
    '/v1/usage',
    { schema: { querystring: Type.Object({ api_key: Type.Optional(Type.String()) }) } },
    async (request, reply) => {
      const { account, plan, keyId } = request.auth!;
      const report = await usageReport((...a) => usage.days(...a), account, plan, deps.now());
      // The calling key's own share, beside the account's totals (issue 17).
      const mine = (await keyUsage((...a) => usage.keyDays(...a), account.id, deps.now())).find((k) => k.key_id === keyId);
      const key = { key_id: keyId, today: mine?.today ?? { requests: 0, points: 0 }, month: mine?.month ?? { requests: 0, points: 0 } };
      // One response, one balance: the body's and X-Points-Remaining's are the newest figure this
      // instance knows (a charge it answered may be newer than the cached key's lookup), read once.
      // Free, so nothing is charged (D11).
      const points = balances.of(request.auth!);
      request.points = { cost: 0, remaining: points, known: true };
      return reply.type(JSON_TYPE).send(JSON.stringify(okWith(`usage of account ${account.id}`, { ...report, points, key })));
    },
  );
}
