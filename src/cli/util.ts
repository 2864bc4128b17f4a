// What every command shares: a runtime opened from the environment, closed after the command, and
// errors that end the process with one line.
import { loadConfig } from '../config.js';
import { openRuntime, type Runtime } from '../runtime.js';

export class CliError extends Error {
  override name = 'CliError';
}

export async function withRuntime<T>(fn: (rt: Runtime) => Promise<T>): Promise<T> {
  const rt = await openRuntime(loadConfig());
  try {
    return await fn(rt);
  } finally {
    await rt.store.close();
  }
}

export function wholeNumber(name: string, max = 1e12) {
  return (text: string): number => {
    if (!/^\d+$/.test(text) || Number(text) > max) throw new CliError(`${name} must be a whole number from 0 to ${max}, got ${JSON.stringify(text)}`);
    return Number(text);
  };
}

export function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

export function printJson(value: unknown): void {
  print(JSON.stringify(value, null, 2));
}

/** Fixed-width columns for the human-readable listings. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}
