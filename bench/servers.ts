// Processes the benchmark starts: the real Kurs server and a bare node:http baseline, each in its
// own process so that the load generator (a third process) measures them the same way.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/kurs', import.meta.url));
const LOADER = fileURLToPath(new URL('./load.ts', import.meta.url));
const OUT_DIR = tmpdir();

export interface Running {
  child: ChildProcess;
  url: string;
  /** The file its stdout goes to. */
  out: string;
  /** Its stdout so far, line by line (read from that file). */
  readonly lines: string[];
}

/**
 * Waits for the `listening on <url>` line. The server's stdout goes to a file, as it would to a log
 * collector: read through a pipe, every request log line would cost the bench process CPU that
 * competes with the server on the same cores.
 */
function waitForListening(child: ChildProcess, out: string, pattern = /^listening on (http:\/\/\S+)$/m): Promise<Running> {
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      const m = pattern.exec(readFileSync(out, 'utf8'));
      if (m) {
        clearInterval(poll);
        child.off('exit', exited);
        resolve({
          child,
          url: m[1]!,
          out,
          get lines() {
            return readFileSync(out, 'utf8').split('\n');
          },
        });
      }
    }, 20);
    const exited = (code: number | null) => {
      clearInterval(poll);
      reject(new Error(`server exited with ${code}: ${readFileSync(out, 'utf8').slice(-2000)}`));
    };
    child.once('exit', exited);
  });
}

let outputs = 0;
/** Spawns a server with its stdout in a fresh file under the OS temp directory. */
function spawnServer(args: string[], env: Record<string, string | undefined>): Promise<Running> {
  const out = join(OUT_DIR, `server-${process.pid}-${outputs++}.log`);
  const fd = openSync(out, 'w');
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', fd, 'inherit'] });
  closeSync(fd);
  return waitForListening(child, out);
}

/** SIGTERM, wait for the exit, then drop its output file (request logs at `info` grow tens of MB). */
export async function stop(server: Running): Promise<void> {
  if (server.child.exitCode === null) await new Promise((r) => (server.child.once('exit', r), server.child.kill('SIGTERM')));
  rmSync(server.out, { force: true });
}

export function startKurs(env: Record<string, string>, nodeArgs: string[] = []): Promise<Running> {
  return spawnServer([...nodeArgs, BIN, 'serve'], { ...process.env, KURS_PORT: '0', ...env });
}

/** A bare node:http server answering every request with the same body, its type and length, and
 *  with `headers` (name, value pairs) those too: Kurs's own, to see what writing them costs. */
export function startBare(body: string, headers: [string, string][] = []): Promise<Running> {
  const script = `
    const http = require('node:http');
    const body = Buffer.from(process.env.BODY);
    const headers = ['content-type', 'application/json; charset=utf-8', 'content-length', String(body.length), ...JSON.parse(process.env.HEADERS).flat()];
    const server = http.createServer((req, res) => {
      res.writeHead(200, headers);
      res.end(body);
    });
    server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));`;
  return spawnServer(['-e', script], { ...process.env, BODY: body, HEADERS: JSON.stringify(headers) });
}

/** bench/meter-server.ts: node:http plus the points meter, nothing else. */
export function startMeterServer(config: { url: string; meter: string; accounts: string[]; body: string; headers?: [string, string][] }): Promise<Running> {
  const script = fileURLToPath(new URL('./meter-server.ts', import.meta.url));
  return spawnServer(['--import', 'tsx', script], { ...process.env, BENCH_METER: JSON.stringify(config) });
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

/** CPU time (user + system) a process has used so far, in ms, from /proc; Linux only, NaN elsewhere. */
export function cpuMsOf(pid: number | undefined): number {
  try {
    // Fields 14 and 15 (utime, stime) in clock ticks of 10 ms; the name in field 2 may hold spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/**
 * Cold start: `kurs serve` on an empty SQLite database (so it loads the bundled seed and prints a
 * first-start key), timed from spawn to the first 200 of a charged GET /v1/USD/latest.
 */
export async function coldStart(dbUrl: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const server = await spawnServer([BIN, 'serve'], { ...process.env, KURS_PORT: '0', KURS_DATABASE_URL: dbUrl, KURS_INGEST: 'off', KURS_BOOTSTRAP_KEY: 'on' });
  try {
    const key = /^\s+(kurs_\w+)$/m.exec(readFileSync(server.out, 'utf8'))?.[1];
    const res = await fetch(`${server.url}/v1/USD/latest`, { headers: { authorization: key ?? '' } });
    await res.arrayBuffer();
    return { ms: performance.now() - started, status: res.status };
  } finally {
    await stop(server);
  }
}

export interface Result {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  /** The busiest generator process's CPU as a share of one core (1 = saturated), and how many ran. */
  genCpu: number;
  generators: number;
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
      const genCpu = r.cpuMs / r.wallMs;
      resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, ok: r['2xx'], non2xx: r.non2xx, genCpu, generators: 1 });
    });
  });
}

/** Several generator processes against several servers at once (CONNECTIONS split evenly), summed as a load balancer would see it. */
export async function loadMany(urls: string[], req: Request, keys: string[], connections: number, seconds: number, perUrl = 1): Promise<Result> {
  const targets = urls.flatMap((u) => Array.from({ length: perUrl }, () => u));
  const parts = await Promise.all(targets.map((u) => loadOne(u, req, keys, Math.round(connections / targets.length), seconds)));
  const sum = (f: (r: Result) => number) => parts.reduce((a, r) => a + f(r), 0);
  const max = (f: (r: Result) => number) => Math.max(...parts.map(f));
  return { rps: sum((r) => r.rps), p50: max((r) => r.p50), p99: max((r) => r.p99), ok: sum((r) => r.ok), non2xx: sum((r) => r.non2xx), genCpu: max((r) => r.genCpu), generators: targets.length };
}

// Default settings (request logs at `info` included), except: ingest is off, so the bundled seed is all there is: a wide freshness grace keeps its rates quotable
// (otherwise /v1/rate answers 404 and /v1/rates/convert lists every target as missing).
/**
 * Resolves once a server on a seeded database has its history in place: it logs `history ready` once
 * the seed's history is in (loaded now, by an earlier start, or copied from the install-time build)
 * and its first catch-up after that has ended (materialised, or on an instance that does not ingest,
 * read). Rows measured before then would measure that background work, not serving.
 */
export async function historySettled(kurs: Running, maxMs = 240_000): Promise<void> {
  for (const until = Date.now() + maxMs; !kurs.lines.some((l) => l.includes('"msg":"history ready"')); ) {
    if (Date.now() > until) throw new Error(`history did not settle within ${maxMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const KURS_ENV = { KURS_BOOTSTRAP_KEY: 'off', KURS_INGEST: 'off', KURS_FRESHNESS_GRACE_DAYS: '3650' };

/** Target 3's request: 150 targets, every currency Kurs quotes, repeated as needed (a real client may repeat one too). */
export function convertRequest(currencies: string[]): Request {
  const targets = Array.from({ length: 150 }, (_, i) => currencies[i % currencies.length]!);
  return { path: '/v1/rates/convert', method: 'POST', body: JSON.stringify({ base: 'EUR', amount: '1234.56', targets }) };
}
