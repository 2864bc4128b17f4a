// The admin API under /admin/v1, for billing systems: the CLI's account operations over HTTP. It is
// registered only when KURS_ADMIN_TOKEN is set (otherwise every path is 404), and every request must
// carry `Authorization: Bearer <token>`. Responses hold keys, so they are never cached.
import { createHash, timingSafeEqual } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AccessError, createKey, parseExpiry, updateAccount, type CreatedKey } from '../../access/accounts.js';
import { refillAccounts } from '../../access/refill.js';
import { accountUsage, type UsageRecorder } from '../../access/usage.js';
import { utcStamp } from '../../time/stamps.js';
import type { Account, KeyRecord, LedgerEntry, Store } from '../../store/store.js';
import type { AppDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import type { KeyCache } from '../../access/key-cache.js';
import { JSON_TYPE } from '../reply.js';

const MAX_POINTS = 1e12;
const Points = Type.Integer({ minimum: 0, maximum: MAX_POINTS });
const Expiry = Type.Union([Type.String({ maxLength: 40 }), Type.Null()]);
const NewAccount = Type.Object({ plan: Type.Optional(Type.String({ maxLength: 32 })), points: Type.Optional(Points), expires_at: Type.Optional(Expiry) }, { additionalProperties: false });
const Patch = Type.Object({ plan: Type.Optional(Type.String({ maxLength: 32 })), expires_at: Type.Optional(Expiry), points: Type.Optional(Points) }, { additionalProperties: false, minProperties: 1 });
const TopUp = Type.Object({ points: Type.Integer({ minimum: 1, maximum: MAX_POINTS }) }, { additionalProperties: false });
const AccountParams = Type.Object({ account_id: Type.String({ maxLength: 64 }) });
// Query values are text (no type coercion): a whole number from 1 to 10000.
const LedgerQuery = Type.Object({ limit: Type.Optional(Type.String({ pattern: '^([1-9][0-9]{0,3}|10000)$' })) }, { additionalProperties: false });
const KeyParams = Type.Object({ key_id: Type.String({ maxLength: 64 }) });

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

const accountView = (a: Account) => ({ account_id: a.id, plan: a.planId, points: a.points, expires_at: a.expiresAt && utcStamp(new Date(a.expiresAt)), created_at: utcStamp(new Date(a.createdAt)) });
const createdView = (c: CreatedKey) => ({ ...c, expires_at: c.expires_at && utcStamp(new Date(c.expires_at)) });
const keyView = (k: KeyRecord) => ({ key_id: k.id, account_id: k.accountId, prefix: `kurs_${k.prefix}…`, created_at: utcStamp(new Date(k.createdAt)), revoked_at: k.revokedAt && utcStamp(new Date(k.revokedAt)) });

const ledgerView = (e: LedgerEntry) => ({ id: e.id, at: utcStamp(new Date(e.at)), kind: e.kind, amount: e.amount, balance: e.balance, actor: e.actor, detail: e.detail, requests: e.requests });

function send(reply: FastifyReply, status: number, message: string, body: object): FastifyReply {
  return reply.code(status).type(JSON_TYPE).send(JSON.stringify({ code: status, message, ...body }));
}

/** `expires_at`: absent leaves it, null removes it, text is a date or date-time (as `--expires`). */
function expiry(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  const iso = parseExpiry(value);
  if (!iso) throw ApiError.invalid('invalid_body', [{ field: 'expires_at', message: 'must be a date (2026-12-31) or date-time (2026-12-31T18:00:00Z)' }]);
  return iso;
}

/** An unknown account in the path is 404; an unknown plan in the body is 422. */
function accessError(err: unknown): never {
  if (!(err instanceof AccessError)) throw err;
  if (err.missing === 'plan') throw ApiError.invalid('invalid_body', [{ field: 'plan', message: `is not a plan: ${err.id}` }]);
  throw new ApiError('not_found', err.message);
}

async function account(store: Store, id: string): Promise<Account> {
  return (await store.getAccount(id)) ?? accessError(new AccessError('account', id));
}

export function adminRoutes(app: FastifyInstance, deps: AppDeps & { adminToken: string }, usage: UsageRecorder, keys: KeyCache): void {
  const { store } = deps;
  const expected = sha256(deps.adminToken);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const m = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '');
    // Hashes have one length, so timingSafeEqual compares in constant time whatever was sent.
    if (!m || !timingSafeEqual(sha256(m[1]!), expected)) {
      throw new ApiError('invalid_key', 'admin token missing or wrong: send Authorization: Bearer <KURS_ADMIN_TOKEN>', undefined, { 'www-authenticate': 'Bearer realm="kurs-admin"' });
    }
  });

  app.get('/admin/v1/plans', async (_req, reply) => {
    const plans = (await store.listPlans()).map((p) => ({ plan: p.id, name: p.name, monthly_points: p.monthlyPoints, requests_per_minute: p.requestsPerMinute, endpoints: p.endpoints }));
    return send(reply, 200, `${plans.length} plans`, { plans });
  });

  app.get('/admin/v1/accounts', async (_req, reply) => {
    const accounts = (await store.listAccounts()).map(accountView);
    return send(reply, 200, `${accounts.length} accounts`, { accounts });
  });

  app.post<{ Body: Static<typeof NewAccount> }>('/admin/v1/accounts', { schema: { body: NewAccount } }, async (request, reply) => {
    const b = request.body;
    const created = await createKey(store, { plan: b.plan, points: b.points, expiresAt: expiry(b.expires_at), actor: 'admin-api' }, deps.now()).catch(accessError);
    return send(reply, 201, `created account ${created.account_id} with key ${created.key_id}; the key is shown only now`, createdView(created));
  });

  app.get<{ Params: Static<typeof AccountParams> }>('/admin/v1/accounts/:account_id', { schema: { params: AccountParams } }, async (request, reply) =>
    send(reply, 200, `account ${request.params.account_id}`, accountView(await account(store, request.params.account_id))),
  );

  app.patch<{ Params: Static<typeof AccountParams>; Body: Static<typeof Patch> }>(
    '/admin/v1/accounts/:account_id',
    { schema: { params: AccountParams, body: Patch } },
    async (request, reply) => {
      let updated = await updateAccount(store, request.params.account_id, { planId: request.body.plan, expiresAt: expiry(request.body.expires_at) }, 'admin-api').catch(accessError);
      // An exact balance is a correction: an `admin_edit` of the difference in the ledger.
      if (request.body.points !== undefined) {
        await store.setPoints(updated.id, request.body.points, 'admin-api');
        updated = await account(store, updated.id);
      }
      keys.forgetAccount(updated.id);
      return send(reply, 200, `updated account ${updated.id}`, accountView(updated));
    },
  );

  app.post<{ Params: Static<typeof AccountParams>; Body: Static<typeof TopUp> }>(
    '/admin/v1/accounts/:account_id/topup',
    { schema: { params: AccountParams, body: TopUp } },
    async (request, reply) => {
      const id = request.params.account_id;
      if ((await store.topUp(id, request.body.points, 'admin-api')) === undefined) accessError(new AccessError('account', id));
      keys.forgetAccount(id);
      return send(reply, 200, `added ${request.body.points} points to account ${id}`, accountView(await account(store, id)));
    },
  );

  app.get<{ Params: Static<typeof AccountParams> }>('/admin/v1/accounts/:account_id/usage', { schema: { params: AccountParams } }, async (request, reply) => {
    const report = await accountUsage(store, (...a) => usage.days(...a), request.params.account_id, deps.now()).catch(accessError);
    return send(reply, 200, `usage of account ${report.account_id}`, report);
  });

  app.get<{ Params: Static<typeof AccountParams>; Querystring: Static<typeof LedgerQuery> }>(
    '/admin/v1/accounts/:account_id/ledger',
    { schema: { params: AccountParams, querystring: LedgerQuery } },
    async (request, reply) => {
      const id = (await account(store, request.params.account_id)).id;
      const entries = (await store.ledger(id, request.query.limit === undefined ? undefined : Number(request.query.limit))).map(ledgerView);
      return send(reply, 200, `${entries.length} ledger entries of account ${id}`, { account_id: id, entries });
    },
  );

  app.get<{ Params: Static<typeof AccountParams> }>('/admin/v1/accounts/:account_id/keys', { schema: { params: AccountParams } }, async (request, reply) => {
    const id = (await account(store, request.params.account_id)).id;
    const keys = (await store.listKeys(id)).map(keyView);
    return send(reply, 200, `${keys.length} keys of account ${id}`, { keys });
  });

  app.post<{ Params: Static<typeof AccountParams> }>('/admin/v1/accounts/:account_id/keys', { schema: { params: AccountParams } }, async (request, reply) => {
    const created = await createKey(store, { accountId: request.params.account_id, actor: 'admin-api' }, deps.now()).catch(accessError);
    return send(reply, 201, `created key ${created.key_id} on account ${created.account_id}; the key is shown only now`, createdView(created));
  });

  app.delete<{ Params: Static<typeof KeyParams> }>('/admin/v1/keys/:key_id', { schema: { params: KeyParams } }, async (request, reply) => {
    const id = request.params.key_id;
    if (!(await store.revokeKey(id, 'admin-api'))) throw new ApiError('not_found', `no live key ${id}`);
    keys.forgetKey(id);
    return send(reply, 200, `revoked ${id}; its account and balance stay`, { key_id: id });
  });

  app.post('/admin/v1/refill', async (_req, reply) => {
    const result = await refillAccounts(store, deps.now());
    return send(reply, 200, `refilled ${result.refilled} accounts for ${result.period}`, result);
  });
}
