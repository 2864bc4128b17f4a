// The admin API's part of the OpenAPI document (issue 6.7): its operations, the Bearer scheme and the
// `admin` tag. Kept apart from openapi.ts, which merges ADMIN_DOCS into ROUTE_DOCS; like the routes
// themselves, these appear in the document only when KURS_ADMIN_TOKEN is set.
import type { RouteDoc } from './route-doc.js';
import { AdminAccount, AdminAccounts, AdminCreatedKey, AdminKeys, AdminLedger, AdminPlans, AdminRefill, AdminRevoked, Usage } from './schemas.js';

export const ADMIN_SECURITY: { [scheme: string]: string[] }[] = [{ bearer: [] }];
export const ADMIN_SECURITY_SCHEME = {
  bearer: { type: 'http' as const, scheme: 'bearer', description: 'The value of KURS_ADMIN_TOKEN, as `Authorization: Bearer <token>`; compared in constant time. Customer keys are refused.' },
};
export const ADMIN_TAG = { name: 'admin', description: 'Accounts, keys, points and plans for billing systems; on only when KURS_ADMIN_TOKEN is set' };

// Admin answers hold keys and balances: never cached, on errors too.
const NO_STORE = { 'Cache-Control': { type: 'string', description: '`no-store`' } };
const ERRORS = {
  401: 'Admin token missing or wrong (`invalid_key`); `WWW-Authenticate: Bearer realm="kurs-admin"`',
  404: 'No such account (`not_found`)',
  422: 'Invalid path or body field, or an unknown plan (`invalid_parameter`, `invalid_body`); `details` names each field',
};
/** A body that is not JSON, too large or malformed, on the operations that read one. */
const BODY_ERRORS = [400, 413, 415, 422];

const accountId = { account_id: { description: 'the account id, from POST /admin/v1/accounts', example: 'acc_3fK9c2a71d0eQx4Z' } };
const accountBody = {
  plan: { description: 'plan id from GET /admin/v1/plans; default `starter`', example: 'starter' },
  points: { description: 'starting balance, whole points up to 1e12; default the plan\'s monthly allowance', example: 1000 },
  expires_at: { description: 'date (`2027-01-31`, end of that day UTC) or date-time (`2027-01-31T18:00:00Z`); null: no expiry', example: '2027-01-31' },
};

const doc = (d: Omit<RouteDoc, 'tag' | 'admin'>): RouteDoc => ({
  ...d, tag: 'admin', admin: true, okHeaders: NO_STORE, errorText: { ...ERRORS, ...d.errorText },
});

/** Keyed by `METHOD url` as Fastify registers it (src/http/routes/admin.ts). */
export const ADMIN_DOCS: Record<string, RouteDoc> = {
  'GET /admin/v1/plans': doc({ summary: 'List plans', ok: AdminPlans }),
  'GET /admin/v1/accounts': doc({ summary: 'List accounts', ok: AdminAccounts }),
  'POST /admin/v1/accounts': doc({
    summary: 'Create an account with its first key', ok: AdminCreatedKey, okStatus: 201, errors: BODY_ERRORS, fields: accountBody,
    bodyExample: { plan: 'starter', points: 1000, expires_at: '2027-01-31' },
    description: 'Every field is optional. The answer holds the whole key, once: only its hash is stored (`kurs keys create` over HTTP).',
  }),
  'GET /admin/v1/accounts/:account_id': doc({ summary: 'Read an account', ok: AdminAccount, errors: [404, 422], fields: accountId }),
  'PATCH /admin/v1/accounts/:account_id': doc({
    summary: 'Change plan, expiry or balance', ok: AdminAccount, errors: [404, ...BODY_ERRORS],
    fields: { ...accountId, plan: { description: 'the new plan id, from GET /admin/v1/plans', example: 'business' }, expires_at: accountBody.expires_at, points: { description: 'set the balance to exactly this (a correction, recorded as an `admin_edit` in the ledger)', example: 500 } },
    bodyExample: { plan: 'business', expires_at: null }, description: 'At least one of `plan`, `expires_at` and `points`; an absent field is left as it is. Each change is recorded in the account\'s ledger.',
  }),
  'POST /admin/v1/accounts/:account_id/topup': doc({
    summary: 'Add points', ok: AdminAccount, errors: [404, ...BODY_ERRORS], fields: { ...accountId, points: { description: 'whole points to add, 1 to 1e12', example: 500 } },
    bodyExample: { points: 500 }, description: 'Answers the account with its new balance.',
  }),
  'GET /admin/v1/accounts/:account_id/usage': doc({
    summary: 'Read an account\'s usage', ok: Usage, errors: [404, 422], fields: accountId,
    description: 'What the account\'s own key sees at GET /v1/usage, counts not yet written included.',
  }),
  'GET /admin/v1/accounts/:account_id/ledger': doc({
    summary: 'Read an account\'s points ledger', ok: AdminLedger, errors: [404, 422],
    fields: { ...accountId, limit: { description: 'only the newest this many entries (1 to 10000); default all', example: 100 } },
    description: 'Every change of the balance (opening, top-ups, refills, edits, plan and expiry changes, key events) with its actor; charges are one entry per UTC day. `kurs accounts history` over HTTP.',
  }),
  'GET /admin/v1/accounts/:account_id/keys': doc({ summary: 'List an account\'s keys', ok: AdminKeys, errors: [404, 422], fields: accountId, description: 'Ids and prefixes only, never a whole key.' }),
  'POST /admin/v1/accounts/:account_id/keys': doc({
    summary: 'Add a key to an account', ok: AdminCreatedKey, okStatus: 201, errors: [404, ...BODY_ERRORS], fields: accountId,
    description: 'No body needed. The answer holds the whole key, once.',
  }),
  'DELETE /admin/v1/keys/:key_id': doc({
    summary: 'Revoke a key', ok: AdminRevoked, errors: [404, 422], errorText: { 404: 'No live key with this id (`not_found`)' },
    fields: { key_id: { description: 'the key id (not the key)', example: 'key_8Hq2mZr0TcW1vN5e' } },
    description: 'The key stops working at once; its account and balance stay.',
  }),
  'POST /admin/v1/refill': doc({
    summary: 'Run the monthly refill', ok: AdminRefill, errors: [400, 413, 415],
    description: 'Raises every account below its plan\'s monthly allowance to it, once per calendar month (D12); the same job the server runs itself. Idempotent.',
  }),
};
