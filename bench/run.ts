// `npm run bench`: requests/s of Kurs scenarios as a ratio against a bare node:http server sending
// the same bytes, measured in the same run with autocannon in its own process.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKey } from '../src/access/accounts.js';
import { openSqlite } from '../src/store/open.js';
import { startBare, startKurs } from './servers.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

interface Result {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

function load(url: string, headers: Record<string, string>): Result {
  const args = [AUTOCANNON, '-c', String(CONNECTIONS), '-d', String(SECONDS), '-j'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  const r = spawnSync(process.execPath, [...args, url], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`autocannon failed: ${r.stderr}`);
  const out = JSON.parse(r.stdout);
  return { rps: out.requests.average, p50: out.latency.p50, p99: out.latency.p99, non2xx: out.non2xx };
}

const dir = mkdtempSync(join(tmpdir(), 'kurs-bench-'));
const dbPath = join(dir, 'kurs.db');
const store = openSqlite(dbPath);
await store.migrate();
// Enough points that the run never reaches 402: every measured request is charged.
const { key, account_id: accountId } = await createKey(store, { plan: 'business', points: 1_000_000_000 }, new Date());
await store.close();

const kurs = await startKurs({ KURS_DATABASE_URL: `sqlite:${dbPath}`, KURS_BOOTSTRAP_KEY: 'off', KURS_LOG_LEVEL: 'warn', KURS_INGEST: 'off' });
const target = `${kurs.url}/v1/USD/latest`;
const sample = await fetch(target, { headers: { authorization: key } });
const body = await sample.text();
if (sample.status !== 200) throw new Error(`Kurs answered ${sample.status}: ${body}`);
const bare = await startBare(body);

try {
  const baseline = load(bare.url, {});
  const charged = load(target, { authorization: key });
  const after = openSqlite(dbPath);
  const spent = 1_000_000_000 - (await after.getAccount(accountId))!.points;
  await after.close();

  const rows = [
    ['scenario', 'req/s', 'baseline req/s', 'ratio', 'p50 ms', 'p99 ms', 'non-2xx'],
    ['bare node:http, same bytes', baseline.rps.toFixed(0), baseline.rps.toFixed(0), '1.00', String(baseline.p50), String(baseline.p99), String(baseline.non2xx)],
    ['charged GET /v1/USD/latest (SQLite)', charged.rps.toFixed(0), baseline.rps.toFixed(0), (charged.rps / baseline.rps).toFixed(2), String(charged.p50), String(charged.p99), String(charged.non2xx)],
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
  console.log(`\n${CONNECTIONS} connections, ${SECONDS} s each, body ${Buffer.byteLength(body)} bytes; points charged during the run: ${spent}`);
} finally {
  kurs.child.kill('SIGTERM');
  bare.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
