// Processes the benchmark starts: the real Kurs server and a bare node:http baseline, each in its
// own process so that the load generator (a third process) measures them the same way.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/kurs', import.meta.url));
const LOADER = fileURLToPath(new URL('./load.ts', import.meta.url));

export interface Running {
  child: ChildProcess;
  url: string;
  lines: string[];
}

function waitForListening(child: ChildProcess, pattern: RegExp): Promise<Running> {
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        const m = pattern.exec(line);
        if (m) resolve({ child, url: m[1]!, lines });
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${lines.join('\n')}`)));
  });
}

export function startKurs(env: Record<string, string>, nodeArgs: string[] = []): Promise<Running> {
  const child = spawn(process.execPath, [...nodeArgs, BIN, 'serve'], { env: { ...process.env, KURS_PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return waitForListening(child, /^listening on (http:\/\/\S+)$/);
}

/** A bare node:http server answering every request with the same bytes and headers. */
export function startBare(body: string): Promise<Running> {
  const script = `
    const http = require('node:http');
    const body = Buffer.from(process.env.BODY);
    const server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
    });
    server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));`;
  const child = spawn(process.execPath, ['-e', script], { env: { ...process.env, BODY: body }, stdio: ['ignore', 'pipe', 'inherit'] });
  return waitForListening(child, /^listening on (http:\/\/\S+)$/);
}

/** bench/meter-server.ts: node:http plus the points meter, nothing else. */
export function startMeterServer(config: { url: string; meter: string; accounts: string[]; body: string }): Promise<Running> {
  const script = fileURLToPath(new URL('./meter-server.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, BENCH_METER: JSON.stringify(config) }, stdio: ['ignore', 'pipe', 'inherit'] });
  return waitForListening(child, /^listening on (http:\/\/\S+)$/);
}

/** Peak resident memory of a running server (VmHWM), in MB; Linux only, undefined elsewhere. */
export function peakRssMb(child: ChildProcess): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Cold start: `kurs serve` on an empty SQLite database (so it loads the bundled seed and prints a
 * first-start key), timed from spawn to the first 200 of a charged GET /v1/USD/latest.
 */
export async function coldStart(dbUrl: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, KURS_PORT: '0', KURS_DATABASE_URL: dbUrl, KURS_INGEST: 'off', KURS_BOOTSTRAP_KEY: 'on', KURS_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const { url, lines } = await waitForListening(child, /^listening on (http:\/\/\S+)$/);
    const key = lines.map((l) => /^\s+(kurs_\w+)$/.exec(l)?.[1]).find(Boolean);
    const res = await fetch(`${url}/v1/USD/latest`, { headers: { authorization: key ?? '' } });
    await res.arrayBuffer();
    return { ms: performance.now() - started, status: res.status };
  } finally {
    await new Promise((r) => (child.once('exit', r), child.kill('SIGTERM')));
  }
}

export interface Result {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
}
export interface Request {
  path: string;
  method?: string;
  body?: string;
  /** A different amount in every request's body (bench/load.ts). */
  vary?: boolean;
}

/** One load generator process (bench/load.ts) against one server. */
export function loadOne(url: string, req: Request, keys: string[], connections: number, seconds: number): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', LOADER], {
      env: { ...process.env, BENCH_LOAD: JSON.stringify({ url: `${url}${req.path}`, method: req.method, body: req.body, vary: req.vary, keys, connections, seconds }) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      const r = JSON.parse(out);
      resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, ok: r['2xx'], non2xx: r.non2xx });
    });
  });
}

// Ingest is off, so the bundled seed is all there is: a wide freshness grace keeps its rates quotable
// (otherwise /v1/rate answers 404 and /v1/rates/convert lists every target as missing).
export const KURS_ENV = { KURS_BOOTSTRAP_KEY: 'off', KURS_LOG_LEVEL: 'warn', KURS_INGEST: 'off', KURS_FRESHNESS_GRACE_DAYS: '3650' };

/** Target 3's request: 150 targets, every currency Kurs quotes, repeated as needed (a real client may repeat one too). */
export function convertRequest(currencies: string[]): Request {
  const targets = Array.from({ length: 150 }, (_, i) => currencies[i % currencies.length]!);
  return { path: '/v1/rates/convert', method: 'POST', body: JSON.stringify({ base: 'EUR', amount: '1234.56', targets }) };
}
