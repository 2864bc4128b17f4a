// `kurs keys …`, `kurs accounts …`, `kurs plans list`: the operator's account work (the commands docs/accounts.md documents; scripts rely on them).
import type { Command } from 'commander';
import { AccessError, createKey, parseExpiry, updateAccount } from '../access/accounts.js';
import { refillAccounts } from '../access/refill.js';
import { accountUsage, keyUsage } from '../access/usage.js';
import type { Account } from '../store/store.js';
import { CliError, print, printJson, table, wholeNumber, withRuntime } from './util.js';

function expiry(text: string): string {
  const iso = parseExpiry(text);
  if (!iso) throw new CliError(`--expires must be a date (2026-12-31) or date-time (2026-12-31T18:00:00Z), got ${JSON.stringify(text)}`);
  return iso;
}

/** A new account's expiry: one already past would make a key that every request refuses from its
 *  first, so it is refused here rather than created (issue 34; D23). */
function futureExpiry(text: string): string {
  const iso = expiry(text);
  if (Date.parse(iso) <= Date.now()) throw new CliError(`--expires ${text} is in the past: the key would be expired from the start; give a later date, or leave --expires out for no expiry`);
  return iso;
}

const cliAccessError = (err: unknown): never => {
  if (!(err instanceof AccessError)) throw err;
  throw new CliError(err.missing === 'plan' ? `${err.message}; see \`kurs plans list\`` : err.message);
};

const accountJson = (a: Account) => ({ account_id: a.id, plan: a.planId, points: a.points, expires_at: a.expiresAt, created_at: a.createdAt });

export function accessCommands(program: Command): void {
  const keys = program.command('keys').description('create, list and revoke API keys');
  keys
    .command('create')
    .description('create an API key on a new account (or, with --account, on an existing one)')
    .option('--plan <id>', 'plan of the new account', 'starter')
    .option('--points <n>', "starting balance (default: the plan's monthly allowance)", wholeNumber('--points'))
    .option('--expires <date>', 'plan expiry, in the future: a date (end of that day, UTC) or an ISO date-time', futureExpiry)
    .option('--account <id>', 'add the key to this existing account (plan and points are then ignored)')
    .option('--json', 'print JSON')
    .action(async (o: { plan: string; points?: number; expires?: string; account?: string; json?: boolean }) => {
      const created = await withRuntime(({ store }) =>
        createKey(store, { plan: o.plan, points: o.points, expiresAt: o.expires, accountId: o.account, actor: 'cli' }, new Date()).catch(cliAccessError),
      );
      if (o.json) return printJson(created);
      print(`key ${created.key}\n(shown only now; Kurs stores only its hash)\nkey_id ${created.key_id}  account ${created.account_id}  plan ${created.plan}  points ${created.points}  expires ${created.expires_at ?? 'never'}`);
    });
  keys
    .command('revoke <key_id>')
    .description('revoke a key; its account and balance stay')
    .action(async (keyId: string) => {
      if (!(await withRuntime(({ store }) => store.revokeKey(keyId, 'cli')))) throw new CliError(`no live key ${keyId}`);
      print(`revoked ${keyId}`);
    });
  keys
    .command('list')
    .description('list keys (never the keys themselves: their id and first characters)')
    .option('--account <id>', 'only this account')
    .option('--json', 'print JSON')
    .action(async (o: { account?: string; json?: boolean }) => {
      const list = await withRuntime(({ store }) => store.listKeys(o.account));
      const rows = list.map((k) => ({ key_id: k.id, account_id: k.accountId, prefix: `kurs_${k.prefix}…`, created_at: k.createdAt, revoked_at: k.revokedAt }));
      if (o.json) return printJson(rows);
      print(table([['KEY_ID', 'ACCOUNT', 'KEY', 'CREATED', 'REVOKED'], ...rows.map((r) => [r.key_id, r.account_id, r.prefix, r.created_at, r.revoked_at ?? ''])]));
    });

  const accounts = program.command('accounts').description('show, list, top up and update accounts');
  accounts
    .command('show <account_id>')
    .description("an account's plan, balance and expiry")
    .option('--json', 'print JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      const account = await withRuntime(({ store }) => store.getAccount(id));
      if (!account) throw new CliError(`no account ${id}`);
      if (o.json) return printJson(accountJson(account));
      print(`account ${account.id}\nplan    ${account.planId}\npoints  ${account.points}\nexpires ${account.expiresAt ?? 'never'}`);
    });
  accounts
    .command('list')
    .description('every account')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const list = (await withRuntime(({ store }) => store.listAccounts())).map(accountJson);
      if (o.json) return printJson(list);
      print(table([['ACCOUNT', 'PLAN', 'POINTS', 'EXPIRES'], ...list.map((a) => [a.account_id, a.plan, String(a.points), a.expires_at ?? 'never'])]));
    });
  accounts
    .command('topup <account_id>')
    .description('add points to an account')
    .requiredOption('--points <n>', 'points to add', wholeNumber('--points'))
    .action(async (id: string, o: { points: number }) => {
      const balance = await withRuntime(({ store }) => store.topUp(id, o.points, 'cli'));
      if (balance === undefined) throw new CliError(`no account ${id}`);
      print(`account ${id}: ${balance} points`);
    });
  accounts
    .command('update <account_id>')
    .description("change an account's plan or expiry")
    .option('--plan <id>', 'new plan')
    .option('--expires <date>', 'new expiry', expiry)
    .option('--no-expiry', 'remove the expiry')
    .action(async (id: string, o: { plan?: string; expires?: string; expiry: boolean }) => {
      if (o.expires !== undefined && !o.expiry) throw new CliError('give either --expires or --no-expiry, not both');
      const updated = await withRuntime(({ store }) => updateAccount(store, id, { planId: o.plan, expiresAt: o.expiry ? o.expires : null }, 'cli').catch(cliAccessError));
      print(`account ${id}: plan ${updated.planId}, expires ${updated.expiresAt ?? 'never'}`);
    });
  accounts
    .command('refill')
    .description("the monthly allowance: raise every account below its plan's allowance to it, once per month (UTC)")
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const result = await withRuntime(({ store }) => refillAccounts(store, new Date()));
      if (o.json) return printJson(result);
      print(`refilled ${result.refilled} account(s) for ${result.period}${result.refilled === 0 ? ' (nothing left to refill this month)' : ''}`);
    });

  program
    .command('usage <account_id>')
    .description("an account's plan, balance, expiry and requests and points used today and this month (UTC)")
    .option('--by-key', 'also split today and this month by key')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { byKey?: boolean; json?: boolean }) => {
      const now = new Date();
      const [u, keys] = await withRuntime(async ({ store }) => {
        const report = await accountUsage(store, (...a) => store.usageDays(...a), id, now).catch(cliAccessError);
        return [report, o.byKey ? await keyUsage((...a) => store.usageByKey(...a), id, now) : undefined] as const;
      });
      if (o.json) return printJson(keys ? { ...u, keys } : u);
      print(`account ${u.account_id}  plan ${u.plan}  points ${u.points}  expires ${u.expires_at ?? 'never'}`);
      print(table([['PERIOD', 'REQUESTS', 'POINTS'], [`today ${u.today.date}`, String(u.today.requests), String(u.today.points)], [`month ${u.month.month}`, String(u.month.requests), String(u.month.points)]]));
      if (keys) {
        const row = (k: (typeof keys)[number]) => [k.key_id || '(before per-key counts)', String(k.today.requests), String(k.today.points), String(k.month.requests), String(k.month.points)];
        print(table([['KEY_ID', 'TODAY REQUESTS', 'TODAY POINTS', 'MONTH REQUESTS', 'MONTH POINTS'], ...keys.map(row)]));
      }
    });

  program
    .command('plans')
    .description('plans')
    .command('list')
    .description('the plans, their monthly points, request limits and endpoints')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const plans = await withRuntime(({ store }) => store.listPlans());
      const rows = plans.map((p) => ({ plan: p.id, name: p.name, monthly_points: p.monthlyPoints, requests_per_minute: p.requestsPerMinute, endpoints: p.endpoints }));
      if (o.json) return printJson(rows);
      print(table([['PLAN', 'MONTHLY POINTS', 'PER MINUTE', 'ENDPOINTS'], ...rows.map((r) => [r.plan, String(r.monthly_points), String(r.requests_per_minute ?? 'no limit'), r.endpoints.join(',')])]));
    });
}
