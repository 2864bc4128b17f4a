// `npm run bench [-- <filter>]`: the targets of issue 7, each measured against a baseline taken in the
// same run, with autocannon in processes of its own. The HTTP targets compare charged Kurs requests on
// SQLite with a bare node:http server sending the same bytes as GET /v1/USD/latest; the PostgreSQL
// target (with KURS_TEST_DATABASE_URL, on a throwaway database) compares the group-commit meter with
// the naive one-UPDATE-per-request meter, two instances on one hot account. A filter runs only the
// scenarios whose name contains it (`extra` adds the meter-only and many-account comparisons).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKey } from '../src/access/accounts.js';
import { openPostgres, openSqlite } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { tempPgDatabase } from '../test/support/pg.js';
import { coldStart, convertRequest, KURS_ENV, loadOne, peakRssMb, startBare, startKurs, startMeterServer, type Request, type Result, type Running } from './servers.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 50;
const MANY = 100;
const POINTS = 1_000_000_000;
const INGEST = fileURLToPath(new URL('./ingest-ecb.ts', import.meta.url));
const BLEND = fileURLToPath(new URL('./blend.ts', import.meta.url));
const ECB_HISTORY = fileURLToPath(new URL('../../shared/fixtures/sources/ECBF/eurofxref-hist-2026-04-13.zip', import.meta.url));
const PG_URL = process.env.KURS_TEST_DATABASE_URL;
const FILTER = (process.argv[2] ?? '').toLowerCase();
const wanted = (name: string, extra = false) => (FILTER === '' ? !extra : name.toLowerCase().includes(FILTER) || (extra && FILTER === 'extra'));

/** Load spread over several instances at once (CONNECTIONS in all), summed as a load balancer would see it. */
async function load(urls: string[], req: Request, keys: string[]): Promise<Result> {
  const parts = await Promise.all(urls.map((u) => loadOne(u, req, keys, Math.round(CONNECTIONS / urls.length), SECONDS)));
  const sum = (f: (r: Result) => number) => parts.reduce((a, r) => a + f(r), 0);
  return { rps: sum((r) => r.rps), p50: Math.max(...parts.map((r) => r.p50)), p99: Math.max(...parts.map((r) => r.p99)), ok: sum((r) => r.ok), non2xx: sum((r) => r.non2xx) };
}

const stopAll = (servers: Running[]) => Promise.all(servers.map((s) => new Promise((r) => (s.child.once('exit', r), s.child.kill('SIGTERM')))));

async function keysFor(store: Store, count: number): Promise<{ keys: string[]; accounts: string[] }> {
  const made = await Promise.all(Array.from({ length: count }, () => createKey(store, { plan: 'business', points: POINTS }, new Date())));
  return { keys: made.map((m) => m.key), accounts: made.map((m) => m.account_id) };
}

async function spent(store: Store, accounts: string[]): Promise<number> {
  const left = await Promise.all(accounts.map(async (a) => (await store.getAccount(a))!.points));
  return left.reduce((sum, p) => sum + (POINTS - p), 0);
}

/** One table row; `pass` is undefined for rows that only inform. */
interface Row {
  name: string;
  r?: Result;
  base?: number;
  target: string;
  pass?: boolean;
  note?: string;
}
const rows: Row[] = [];

/** autocannon stops with requests in flight: those may be charged without being counted, never the reverse. */
const exact = (r: Result, charged: number) => charged >= r.ok && charged <= r.ok + CONNECTIONS;

/**
 * Starts `instances` servers (Kurs, or with `meterOnly` node:http plus the meter alone), loads them and
 * returns the result, the points charged (checked against the 2xx count) and the peak RSS seen.
 */
async function measure(dbUrl: string, store: Store, meter: string, instances: number, accountCount: number, req: Request, meterOnly = false) {
  const { keys, accounts } = await keysFor(store, accountCount);
  const servers: Running[] = [];
  for (let i = 0; i < instances; i++) {
    servers.push(await (meterOnly ? startMeterServer({ url: dbUrl, meter, accounts, body }) : startKurs({ ...KURS_ENV, KURS_DATABASE_URL: dbUrl, KURS_METER: meter })));
  }
  try {
    const r = await load(servers.map((s) => s.url), req, keys);
    const rss = Math.max(...servers.map((s) => peakRssMb(s.child) ?? 0));
    const charged = await spent(store, accounts);
    return { r, charged, rss, exact: exact(r, charged) };
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
const currencies = ((await (await fetch(`${probe.url}/v1/currencies`, { headers: { authorization: probeKey! } })).json()) as { currencies: { currency: string }[] }).currencies.map((c) => c.currency);
await stopAll([probe]);
if (sample.status !== 200) throw new Error(`Kurs answered ${sample.status}: ${body}`);
const CONVERT = convertRequest(currencies);

const ratioRow = (name: string, r: Result, base: number, min: number, charged: number, ok: boolean, p99Max?: number): Row => {
  const ratio = r.rps / base;
  const target = `≥ ${min.toFixed(2)}×${p99Max ? `, p99 ≤ ${p99Max} ms` : ''}`;
  return { name, r, base, target, pass: ratio >= min && (p99Max === undefined || r.p99 <= p99Max) && ok && r.non2xx === 0, note: `${charged} points for ${r.ok} 2xx${ok ? '' : ' (MISMATCH)'}` };
};

const bare = await startBare(body);
try {
  // The baseline is measured only when a load scenario will be compared with it.
  const needsBase = ['1 latest sqlite', '2 rate sqlite', '3 convert sqlite', '4 postgresql'].some((n) => wanted(n)) || wanted('extra', true);
  const baseline = needsBase ? await load([bare.url], { path: '' }, ['none']) : undefined;
  const base = baseline?.rps ?? 0;
  if (baseline) rows.push({ name: 'bare node:http, same bytes (baseline)', r: baseline, target: '' });
  // The machine's load from other work changes within a run, so each ratio target gets a baseline
  // measured just before it; the first one serves the rows that only inform.
  let fresh = true;
  const pairedBase = async () => {
    if (fresh) return (fresh = false), base;
    return (await load([bare.url], { path: '' }, ['none'])).rps;
  };

  if (wanted('1 latest sqlite')) {
    const b = await pairedBase();
    const m = await measure(sqliteUrl, sqlite, 'batch', 1, 1, { path: '/v1/USD/latest' });
    rows.push(ratioRow('1 GET /v1/USD/latest, SQLite', m.r, b, 0.7, m.charged, m.exact, 10));
    rows.push({ name: '5b RSS under load (peak, MB)', target: '≤ 200 MB', pass: m.rss > 0 && m.rss <= 200, note: `${m.rss.toFixed(0)} MB` });
  }
  if (wanted('2 rate sqlite')) {
    const b = await pairedBase();
    const m = await measure(sqliteUrl, sqlite, 'batch', 1, 1, { path: '/v1/rate/EUR/USD?amount=1234.56' });
    rows.push(ratioRow('2 GET /v1/rate/EUR/USD?amount=1234.56, SQLite', m.r, b, 0.6, m.charged, m.exact));
  }
  if (wanted('3 convert sqlite')) {
    const b = await pairedBase();
    const m = await measure(sqliteUrl, sqlite, 'batch', 1, 1, CONVERT);
    rows.push(ratioRow('3 POST /v1/rates/convert, 150 targets, SQLite', m.r, b, 0.3, m.charged, m.exact));
    // The same conversion asked again is answered from the recent answers kept with the table; a new
    // amount on every request shows what computing each answer costs (informs, no target).
    const v = await measure(sqliteUrl, sqlite, 'batch', 1, 1, { ...CONVERT, vary: true });
    rows.push({ name: '3b the same, a new amount every request', r: v.r, base: b, target: '', note: `${v.charged} points for ${v.r.ok} 2xx` });
  }
  if (wanted('sqlite naive', true)) {
    const m = await measure(sqliteUrl, sqlite, 'direct', 1, 1, { path: '/v1/USD/latest' });
    rows.push({ name: 'GET /v1/USD/latest, SQLite, naive meter', r: m.r, base, target: '', note: `${m.charged} points for ${m.r.ok} 2xx` });
  }
  if (PG_URL && (wanted('4 postgresql') || wanted('postgresql extra', true))) {
    const pgDb = await tempPgDatabase();
    const pgStore = openPostgres(pgDb.url, { poolSize: 2 });
    try {
      await pgStore.migrate();
      const latest = { path: '/v1/USD/latest' };
      if (wanted('4 postgresql')) {
        const naive = await measure(pgDb.url, pgStore, 'direct', 2, 1, latest);
        rows.push({ name: '4a PostgreSQL, 2 instances, 1 hot account, naive', r: naive.r, base, target: 'baseline of 4', note: `${naive.charged} points for ${naive.r.ok} 2xx` });
        const batch = await measure(pgDb.url, pgStore, 'batch', 2, 1, latest);
        const times = batch.r.rps / naive.r.rps;
        rows.push({
          name: '4 PostgreSQL, 2 instances, 1 hot account, batch',
          r: batch.r,
          base: naive.r.rps,
          target: '≥ 5× naive, exact',
          pass: times >= 5 && batch.exact && naive.exact && batch.r.non2xx === 0,
          note: `${batch.charged} points for ${batch.r.ok} 2xx${batch.exact && naive.exact ? '' : ' (MISMATCH)'}`,
        });
      }
      if (wanted('postgresql extra', true)) {
        for (const [label, accounts, meterOnly] of [['1 hot account, meter only', 1, true], [`${MANY} accounts`, MANY, false]] as const) {
          for (const meter of ['direct', 'batch']) {
            const m = await measure(pgDb.url, pgStore, meter, 2, accounts, latest, meterOnly);
            rows.push({ name: `PostgreSQL, 2 instances, ${label}, ${meter === 'direct' ? 'naive' : 'batch'}`, r: m.r, base, target: '', note: `${m.charged} points for ${m.r.ok} 2xx` });
          }
        }
      }
    } finally {
      await pgStore.close();
      await pgDb.drop();
    }
  } else if (wanted('4 postgresql')) {
    rows.push({ name: '4 PostgreSQL, 2 instances, 1 hot account', target: '≥ 5× naive, exact', note: 'skipped: KURS_TEST_DATABASE_URL is not set' });
  }
  if (wanted('5 cold start')) {
    const cold = await coldStart(`sqlite:${join(dir, 'cold.db')}`);
    rows.push({ name: '5 cold start to first 200, seed loaded (ms)', target: '≤ 1500 ms', pass: cold.status === 200 && cold.ms <= 1500, note: `${cold.ms.toFixed(0)} ms (status ${cold.status})` });
  }
  if (wanted('6 ecb ingest')) rows.push(await ingestRow());
  if (wanted('6b blend')) rows.push(await blendRow());
} finally {
  await stopAll([bare]);
  await sqlite.close();
  rmSync(dir, { recursive: true, force: true });
}

/** Runs a bench script in its own process and parses the JSON it prints; undefined if it fails. */
async function jsonOf(script: string, args: string[], env: Record<string, string> = {}): Promise<Record<string, unknown> | undefined> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise((r) => child.on('exit', r));
  return code === 0 ? JSON.parse(out) : undefined;
}

async function blendRow(): Promise<Row> {
  const name = '6b full blend recompute, all sources (ms)';
  const r = (await jsonOf(BLEND, [], { BENCH_JSON: '1' })) as { first: number; median: number; rows: number } | undefined;
  if (!r) return { name, target: '≤ 200 ms', note: 'failed: see bench/blend.ts' };
  return { name, target: '≤ 200 ms', pass: r.median <= 200, note: `median ${r.median.toFixed(0)} ms, first ${r.first.toFixed(0)} ms, ${r.rows} rows` };
}

async function ingestRow(): Promise<Row> {
  const name = '6 ingest of the ECB history file, 1999 onward (ms)';
  const r = (await jsonOf(INGEST, [ECB_HISTORY])) as { ms: number; status: string; inserted: number } | undefined;
  if (!r) return { name, target: '≤ 5000 ms', note: `skipped or failed: is ${ECB_HISTORY} present?` };
  return { name, target: '≤ 5000 ms', pass: r.status === 'stored' && r.ms <= 5000, note: `${r.ms.toFixed(0)} ms, ${r.inserted} rates ${r.status}` };
}

const table = [
  ['scenario', 'req/s', 'baseline req/s', 'ratio', 'p50 ms', 'p99 ms', 'target', 'result', 'notes'],
  ...rows.map(({ name, r, base, target, pass, note }) => [
    name,
    r ? r.rps.toFixed(0) : '',
    base ? base.toFixed(0) : '',
    r && base ? `${(r.rps / base).toFixed(2)}×` : '',
    r ? String(r.p50) : '',
    r ? String(r.p99) : '',
    target,
    pass === undefined ? '' : pass ? 'PASS' : 'FAIL',
    note ?? '',
  ]),
];
const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
for (const r of table) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd());
console.log(`\n${CONNECTIONS} connections in all, ${SECONDS} s per load, body of GET /v1/USD/latest ${Buffer.byteLength(body)} bytes.`);
