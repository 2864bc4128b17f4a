// `kurs accounts history`, `kurs accounts set-points`, `kurs audit`: the points ledger (issue 17).
import type { Command } from 'commander';
import type { LedgerSums, Store } from '../store/store.js';
import { CliError, print, printJson, table, wholeNumber, withRuntime } from './util.js';

/** Accounts whose ledger does not add up to their balance. */
export const unreconciled = (sums: LedgerSums[]) => sums.filter((s) => s.opening + s.credits - s.debits !== s.balance);

/** Runs the audit on a store: prints it and names every account that does not reconcile. */
export async function audit(store: Store, json: boolean): Promise<void> {
  const sums = await store.ledgerSums();
  const bad = unreconciled(sums);
  if (json) printJson({ accounts: sums.length, unreconciled: bad.map((s) => ({ ...s, ledger: s.opening + s.credits - s.debits })) });
  else {
    const rows = sums.map((s) => {
      const ledger = s.opening + s.credits - s.debits;
      return [s.accountId, String(s.opening), String(s.credits), String(s.debits), String(ledger), String(s.balance), ledger === s.balance ? 'ok' : `OFF BY ${s.balance - ledger}`];
    });
    print(table([['ACCOUNT', 'OPENING', 'CREDITS', 'DEBITS', 'LEDGER', 'BALANCE', 'STATUS'], ...rows]));
    print(`${sums.length} account(s), ${bad.length} not reconciled`);
  }
  if (bad.length > 0) {
    throw new CliError(`${bad.length} account(s) do not reconcile: ${bad.map((s) => `${s.accountId} (ledger ${s.opening + s.credits - s.debits}, balance ${s.balance})`).join(', ')}`);
  }
}

export function ledgerCommands(program: Command): void {
  const accounts = program.commands.find((c) => c.name() === 'accounts')!;
  accounts
    .command('history <account_id>')
    .description("the account's points ledger: every change of its balance, oldest first (charges: one line per UTC day)")
    .option('--limit <n>', 'only the newest n entries', wholeNumber('--limit', 1e6))
    .option('--json', 'print JSON')
    .action(async (id: string, o: { limit?: number; json?: boolean }) => {
      const entries = await withRuntime(async ({ store }) => {
        if (!(await store.getAccount(id))) throw new CliError(`no account ${id}`);
        return store.ledger(id, o.limit);
      });
      if (o.json) return printJson(entries);
      print(table([
        ['AT', 'KIND', 'AMOUNT', 'BALANCE', 'ACTOR', 'DETAIL'],
        ...entries.map((e) => [e.at, e.kind, e.amount > 0 ? `+${e.amount}` : String(e.amount), String(e.balance), e.actor, e.kind === 'charge' ? `${e.requests} request(s)` : (e.detail ?? '')]),
      ]));
    });
  accounts
    .command('set-points <account_id>')
    .description('set the balance to an exact figure (an admin edit in the ledger, for corrections)')
    .requiredOption('--points <n>', 'the new balance', wholeNumber('--points'))
    .option('--reason <text>', 'why, kept in the ledger')
    .action(async (id: string, o: { points: number; reason?: string }) => {
      const old = await withRuntime(({ store }) => store.setPoints(id, o.points, 'cli', o.reason));
      if (old === undefined) throw new CliError(`no account ${id}`);
      print(`account ${id}: ${old} → ${o.points} points`);
    });

  program
    .command('audit')
    .description('check every account: opening balance + credits − debits = balance; exits non-zero naming each account that does not reconcile')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => withRuntime(({ store }) => audit(store, o.json === true)));
}
