// Account and key operations shared by the CLI, the first-start bootstrap and the admin API (/admin/v1).
import type { Account, AccountPatch, LedgerActor, Store } from '../store/store.js';
import { displayPrefix, generateKey, hashKey, newAccountId, newKeyId } from './keys.js';

export interface CreatedKey {
  key: string;
  key_id: string;
  account_id: string;
  plan: string;
  points: number;
  expires_at: string | null;
}

/** An operation named an account or plan that does not exist. */
export class AccessError extends Error {
  override name = 'AccessError';
  constructor(
    readonly missing: 'account' | 'plan',
    readonly id: string,
  ) {
    super(`no ${missing} ${id}`);
  }
}

export const noAccount = (id: string) => new AccessError('account', id);
export const noPlan = (id: string) => new AccessError('plan', id);

export interface CreateKeyOptions {
  plan?: string;
  points?: number;
  expiresAt?: string | null;
  accountId?: string;
  /** Who asks, for the ledger (default 'cli'). */
  actor?: LedgerActor;
}

/** A new key on a new account (plan, points, expiry) or, with `accountId`, on an existing one. */
export async function createKey(store: Store, opts: CreateKeyOptions, now: Date): Promise<CreatedKey> {
  const createdAt = now.toISOString();
  let account;
  if (opts.accountId !== undefined) {
    account = await store.getAccount(opts.accountId);
    if (!account) throw noAccount(opts.accountId);
  } else {
    const planId = opts.plan ?? 'starter';
    const plan = await store.getPlan(planId);
    if (!plan) throw noPlan(planId);
    account = { id: newAccountId(), planId: plan.id, points: opts.points ?? plan.monthlyPoints, expiresAt: opts.expiresAt ?? null, createdAt };
    await store.createAccount(account, opts.actor);
  }
  const key = generateKey();
  const keyId = newKeyId();
  await store.createKey({ id: keyId, accountId: account.id, hash: hashKey(key), prefix: displayPrefix(key), createdAt, revokedAt: null }, opts.actor);
  return { key, key_id: keyId, account_id: account.id, plan: account.planId, points: account.points, expires_at: account.expiresAt };
}

/** Changes an account's plan or expiry; an unknown plan or account is an AccessError. */
export async function updateAccount(store: Store, id: string, patch: AccountPatch, actor: LedgerActor): Promise<Account> {
  if (patch.planId !== undefined && !(await store.getPlan(patch.planId))) throw noPlan(patch.planId);
  const updated = await store.updateAccount(id, patch, actor);
  if (!updated) throw noAccount(id);
  return updated;
}

/**
 * `--expires` values: a date means the end of that day, UTC (D12); a date-time without a zone is UTC.
 * Returns ISO 8601 UTC, or null when the text is not a real date.
 */
export function parseExpiry(text: string): string | null {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const candidate = day ? `${text}T23:59:59.999Z` : /([zZ]|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`;
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([zZ]|[+-]\d{2}:?\d{2})$/.test(candidate)) return null;
  const d = new Date(candidate.replace(' ', 'T'));
  if (Number.isNaN(d.getTime())) return null;
  // Reject rolled-over dates such as 2026-02-30, which Date silently moves to March.
  if (day && d.toISOString().slice(0, 10) !== text) return null;
  return d.toISOString();
}
