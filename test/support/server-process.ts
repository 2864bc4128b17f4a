// The real server as a child process (`bin/kurs serve`, KURS_PORT=0): started, read up to its
// `listening on` line, and stopped by signal. Tests that need the process boundary use it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/kurs', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  lines: string[];
  url: string;
}

/** Starts `kurs serve` and resolves with everything it printed up to the `listening on` line. */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [BIN, 'serve'], { env: { ...process.env, KURS_PORT: '0', KURS_LOG_LEVEL: 'warn', KURS_INGEST: 'off', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let buffer = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line; printed:\n${lines.join('\n')}`)), 15_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        const m = /^listening on (http:\/\/\S+)$/.exec(line);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening:\n${lines.join('\n')}`)));
  });
  return { child, lines, url };
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
