// The real server as a child process (`bin/kurs serve`, KURS_PORT=0): started, read up to its
// `listening on` line, and stopped by signal. Tests that need the process boundary use it.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { startKurs, type Running } from '../../bench/servers.js';

export const BIN = fileURLToPath(new URL('../../bin/kurs', import.meta.url));

/** Starts `kurs serve` (ingestion off, port 0) and resolves once it prints `listening on`. */
export async function startServer(env: Record<string, string>): Promise<Running> {
  const running = startKurs({ KURS_LOG_LEVEL: 'warn', KURS_INGEST: 'off', ...env });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the server printed no listening line in 15 s')), 15_000)));
  try {
    return await Promise.race([running, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Sends a signal and resolves with the exit code (null when killed by the signal). */
export async function stopServer(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  child.kill(signal);
  const [code] = await once(child, 'exit');
  return code as number | null;
}

/** Runs a `kurs` command on the same database and returns its parsed `--json` output. */
export function kursJson<T>(args: string[], databaseUrl: string): T {
  const run = spawnSync(process.execPath, [BIN, ...args, '--json'], { env: { ...process.env, KURS_DATABASE_URL: databaseUrl }, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`kurs ${args.join(' ')} failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
