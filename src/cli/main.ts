// The `kurs` command line. Every failure ends as one line on stderr and a non-zero exit.
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { VERSION } from '../version.js';
import { accessCommands } from './access-commands.js';
import { backfillCommand } from './backfill.js';
import { dataCommands } from './data-commands.js';
import { sourcesCommand } from './sources-command.js';
import { mcpCommand } from './mcp-command.js';
import { keepCommands } from './keep-commands.js';
import { ledgerCommands } from './ledger-commands.js';
import { CliError } from './util.js';

export function buildProgram(): Command {
  const program = new Command('kurs')
    .description('Kurs: official central-bank exchange rates behind API keys, plans and points')
    .version(VERSION, '-V, --version', 'print the version (package.json) and exit')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  dataCommands(program);
  sourcesCommand(program);
  accessCommands(program);
  mcpCommand(program);
  ledgerCommands(program);
  keepCommands(program);
  backfillCommand(program);
  program.commands.forEach(function inherit(cmd: Command) {
    cmd.exitOverride();
    cmd.commands.forEach(inherit);
  });
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander already printed its one-line message (or the help).
      process.exitCode = err.exitCode === 0 ? 0 : 2;
    } else if (err instanceof CliError) {
      process.stderr.write(`kurs: ${err.message}\n`);
      process.exitCode = 1;
    } else if (err instanceof ConfigError) {
      process.stderr.write(`kurs: ${err.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`kurs: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    }
  }
}

await main(process.argv.slice(2));
