// `npm run bench`: requests/s of Kurs scenarios as a ratio against a bare node:http server sending
// the same bytes, measured in the same run with autocannon in processes of its own. Every Kurs
// request is an authenticated, charged GET /v1/USD/latest. With KURS_TEST_DATABASE_URL set, the same
// on PostgreSQL (a throwaway database): one hot account and many accounts, one and two instances,
// the naive meter (one conditional UPDATE per request) against the group-commit meter.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKey } from '../src/access/accounts.js';
import { openPostgres, openSqlite } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { tempPgDatabase } from '../test/support/pg.js';
import { startBare, startKurs, startMeterServer, type Running } from './servers.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const MANY = 100;
const POINTS = 1_000_000_000;
const LOADER = fileURLToPath(new URL('./load.ts', import.meta.url));
const PG_URL = process.env.KURS_TEST_DATABASE_URL;

interface Result {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
}

function loadOne(url: string, keys: string[], connections: number): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', LOADER], {
      env: { ...process.env, BENCH_LOAD: JSON.stringify({ url, keys, connections, seconds: SECONDS }) },
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

/** Load spread over several instances at once (CONNECTIONS in all), summed as a load balancer would see it. */
async function load(urls: string[], path: string, keys: string[]): Promise<Result> {
  const parts = await Promise.all(urls.map((u) => loadOne(`${u}${path}`, keys, Math.round(CONNECTIONS / urls.length))));
  const sum = (f: (r: Result) => number) => parts.reduce((a, r) => a + f(r), 0);
  return { rps: sum((r) => r.rps), p50: Math.max(...parts.map((r) => r.p50)), p99: Math.max(...parts.map((r) => r.p99)), ok: sum((r) => r.ok), non2xx: sum((r) => r.non2xx) };
}

const KURS_ENV = { KURS_BOOTSTRAP_KEY: 'off', KURS_LOG_LEVEL: 'warn', KURS_INGEST: 'off' };
const stopAll = (servers: Running[]) => Promise.all(servers.map((s) => new Promise((r) => (s.child.once('exit', r), s.child.kill('SIGTERM')))));

async function keysFor(store: Store, count: number): Promise<{ keys: string[]; accounts: string[] }> {
  const made = await Promise.all(Array.from({ length: count }, () => createKey(store, { plan: 'business', points: POINTS }, new Date())));
  return { keys: made.map((m) => m.key), accounts: made.map((m) => m.account_id) };
}

async function spent(store: Store, accounts: string[]): Promise<number> {
  const left = await Promise.all(accounts.map(async (a) => (await store.getAccount(a))!.points));
  return left.reduce((sum, p) => sum + (POINTS - p), 0);
}

type Row = { name: string; r: Result; charged: number };
const rows: Row[] = [];

/**
 * Starts `instances` servers (Kurs, or with `meterOnly` node:http plus the meter alone), measures, and
 * checks that every 2xx was charged exactly once.
 */
async function scenario(name: string, dbUrl: string, store: Store, meter: string, instances: number, accountCount: number, meterOnly = false): Promise<void> {
  const { keys, accounts } = await keysFor(store, accountCount);
  const servers: Running[] = [];
  for (let i = 0; i < instances; i++) {
    servers.push(await (meterOnly ? startMeterServer({ url: dbUrl, meter, accounts, body }) : startKurs({ ...KURS_ENV, KURS_DATABASE_URL: dbUrl, KURS_METER: meter })));
  }
  try {
    const r = await load(servers.map((s) => s.url), '/v1/USD/latest', keys);
    rows.push({ name, r, charged: await spent(store, accounts) });
  } finally {
    await stopAll(servers);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'kurs-bench-'));
const sqliteUrl = `sqlite:${join(dir, 'kurs.db')}`;
const sqlite = openSqlite(join(dir, 'kurs.db'));
await sqlite.migrate();
const { keys: [probeKey] } = await keysFor(sqlite, 1);
const probe = await startKurs({ ...KURS_ENV, KURS_DATABASE_URL: sqliteUrl });
const sample = await fetch(`${probe.url}/v1/USD/latest`, { headers: { authorization: probeKey! } });
const body = await sample.text();
await stopAll([probe]);
if (sample.status !== 200) throw new Error(`Kurs answered ${sample.status}: ${body}`);
const bare = await startBare(body);

try {
  const baseline = await load([bare.url], '', ['none']);
  rows.push({ name: 'bare node:http, same bytes', r: baseline, charged: 0 });
  await scenario('SQLite, 1 hot account, naive meter', sqliteUrl, sqlite, 'direct', 1, 1);
  await scenario('SQLite, 1 hot account, batch meter', sqliteUrl, sqlite, 'batch', 1, 1);
  await scenario('meter only (node:http + meter), SQLite, 1 hot account, naive', sqliteUrl, sqlite, 'direct', 1, 1, true);
  await scenario('meter only (node:http + meter), SQLite, 1 hot account, batch', sqliteUrl, sqlite, 'batch', 1, 1, true);
  if (PG_URL) {
    const pgDb = await tempPgDatabase();
    const pgStore = openPostgres(pgDb.url, { poolSize: 2 });
    try {
      await pgStore.migrate();
      for (const instances of [1, 2]) {
        for (const meter of ['direct', 'batch']) {
          await scenario(`meter only (node:http + meter), PostgreSQL, ${instances} instance${instances > 1 ? 's' : ''}, 1 hot account, ${meter === 'direct' ? 'naive' : 'batch'}`, pgDb.url, pgStore, meter, instances, 1, true);
        }
      }
      for (const instances of [1, 2]) {
        for (const [label, accounts] of [['1 hot account', 1], [`${MANY} accounts`, MANY]] as const) {
          for (const meter of ['direct', 'batch']) {
            await scenario(`PostgreSQL, ${instances} instance${instances > 1 ? 's' : ''}, ${label}, ${meter === 'direct' ? 'naive' : 'batch'} meter`, pgDb.url, pgStore, meter, instances, accounts);
          }
        }
      }
    } finally {
      await pgStore.close();
      await pgDb.drop();
    }
  }

  const base = baseline.rps;
  const table = [
    ['scenario', 'req/s', 'ratio to bare', 'p50 ms', 'p99 ms', '2xx', 'non-2xx', 'points charged'],
    ...rows.map(({ name, r, charged }) => [name, r.rps.toFixed(0), (r.rps / base).toFixed(2), String(r.p50), String(r.p99), String(r.ok), String(r.non2xx), name.startsWith('bare') ? '-' : String(charged)]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  for (const r of table) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
  console.log(`\n${CONNECTIONS} connections in all, ${SECONDS} s each, body ${Buffer.byteLength(body)} bytes.`);
  // autocannon stops with requests in flight: those may be charged without being counted, never the reverse.
  for (const { name, r, charged } of rows) if (!name.startsWith("bare") && (charged < r.ok || charged > r.ok + CONNECTIONS)) console.log(`MISMATCH: ${name}: ${r.ok} answered 2xx, ${charged} points charged`);
} finally {
  await stopAll([bare]);
  await sqlite.close();
  rmSync(dir, { recursive: true, force: true });
}
