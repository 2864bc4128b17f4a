// History benchmark rows (issue 14), standalone: `node --import tsx bench/history.ts`. A temporary
// SQLite database gets the bundled seed and the ECB's 1999–2026 history file; materialising it is
// timed, then one day more (a typical daily ingest); then a Kurs server and a bare node:http server
// sending the same bytes are loaded in turns (harness.ts, as `npm run bench`'s rows: a ratio is the
// median of the rounds'), and the whole history is streamed as NDJSON.
import { readFileSync } from 'node:fs';
import { createKey } from '../src/access/accounts.js';
import { History } from '../src/history/history.js';
import { ingestPayload } from '../src/ingest/ingest.js';
import { loadSeed, type Seed } from '../src/ingest/seed.js';
import { SEED_FILE } from '../src/server.js';
import { SOURCES, sourceByCode } from '../src/sources/index.js';
import { openSqlite } from '../src/store/open.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { median } from '../src/blend/consensus.js';
import { Harness } from './harness.js';
import { historySettled, KURS_ENV, peakRssMb, startKurs, type Running } from './servers.js';

/** servers.ts's bare server, with the body read from a file: a range's body is larger than an
 *  environment variable may be (128 KB on Linux). */
function startBareFile(bodyFile: string, type: string): Promise<Running> {
  const script = `
    const http = require('node:http');
    const body = require('node:fs').readFileSync(process.env.BODY_FILE);
    const server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': process.env.BODY_TYPE, 'content-length': body.length });
      res.end(body);
    });
    server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));`;
  const child = spawn(process.execPath, ['-e', script], { env: { ...process.env, BODY_FILE: bodyFile, BODY_TYPE: type }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const m = /listening on (http:\/\/\S+)/.exec(chunk.toString());
      if (m) resolve({ child, url: m[1]!, out: '', lines: [] });
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
}

/** Whether the server logged a rates rebuild after `history ready` (the load's new figures set one
 *  off), waiting up to 30 s for it. */
async function rebuiltAfterLoad(kurs: Running): Promise<boolean> {
  for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    const lines = kurs.lines;
    const ready = lines.findIndex((l) => l.includes('"msg":"history ready"'));
    if (lines.slice(ready + 1).some((l) => l.includes('"msg":"rates rebuilt"'))) return true;
  }
  return false;
}

const ECB_HISTORY = new URL('../test/fixtures/sources/ECBF/eurofxref-hist-2026-04-13.csv', import.meta.url);
/** Rounds of each server and seconds a round, as in `npm run bench` (run.ts): loaded once each, one
 *  after the other, the range row read 0.48–0.74× bare between runs of the same code. */
const PAIRS = Number(process.env.BENCH_PAIRS ?? 4);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 4);
const POINTS = 1e12;
const today = new Date().toISOString().slice(0, 10);

const dir = mkdtempSync(join(tmpdir(), 'kurs-bench-history-'));
const dbPath = join(dir, 'kurs.db');
const store = openSqlite(dbPath);
await store.migrate();
await loadSeed(store, SOURCES, JSON.parse(readFileSync(SEED_FILE, 'utf8')) as Seed, new Date());
await ingestPayload(store, sourceByCode('ECBF')!, { name: 'eurofxref-hist-2026-04-13.csv', body: readFileSync(ECB_HISTORY) }, new Date());

const history = new History(store, SOURCES, 0);
await history.load();
let t = performance.now();
const whole = await history.materialise(today);
const wholeMs = performance.now() - t;
// A typical daily ingest: one new ECB day.
const lastDay = (await store.sourceObservationsBetween('ECBF', '2026-04-13', '2026-04-13')).map((r) => ({ quote: r.quote, date: '2026-04-14', rate: r.rate, direction: r.direction, unit: r.unit, table: r.table }));
await store.storeSnapshot({ source: 'ECBF', name: 'bench-day', sha256: 'f'.repeat(64), rows: lastDay, at: new Date().toISOString() });
t = performance.now();
const daily = await history.materialise(today);
const dailyMs = performance.now() - t;
const { key } = await createKey(store, { plan: 'business', points: POINTS }, new Date());
await store.close();

const servers: Running[] = [];
const stop = (s: Running) => new Promise((r) => (s.child.once('exit', r), s.child.kill('SIGTERM')));
const rssMb = (s: Running) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${s.child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
try {
  const kurs = await startKurs({ ...KURS_ENV, KURS_DATABASE_URL: `sqlite:${dbPath}`, KURS_FRESHNESS_GRACE_DAYS: '0' });
  servers.push(kurs);
  const get = (path: string) => fetch(`${kurs.url}${path}`, { headers: { authorization: key } });
  const range = `/v1/timeseries/EUR?start=1999-01-04&end=2026-04-14&symbols=USD`;
  // The server loads the seed's history in the background, then re-materialises the days it
  // touched: the rows below measure serving once that is done (the peak RSS row still covers it).
  await historySettled(kurs, 180_000);
  // Which phase the peak belongs to: loading and materialising, the rates rebuild that the load's
  // new figures set off (in the rates worker, D31), or serving (columns loaded, ranges).
  const settledPeak = peakRssMb(kurs.child);
  const rebuiltPeak = (await rebuiltAfterLoad(kurs)) ? peakRssMb(kurs.child) : undefined;
  for (let i = 0; i < 600 && (await get(range).then(async (r) => (await r.arrayBuffer(), r.status))) !== 200; i++) await new Promise((r) => setTimeout(r, 100));

  const rows: string[] = [];
  const compare = async (name: string, path: string, connections: number, target: number, p99Max?: number) => {
    const res = await get(path);
    const body = await res.text();
    const file = join(dir, 'body');
    writeFileSync(file, body);
    const bare = await startBareFile(file, res.headers.get('content-type') ?? 'application/json');
    servers.push(bare);
    const harness = new Harness({ connections, seconds: ROUND_SECONDS, pairs: PAIRS, roundSeconds: ROUND_SECONDS, warmSeconds: 2, points: POINTS });
    const { a: k, b, ratios } = await harness.inTurns(kurs, bare, { path }, [key]);
    await stop(bare);
    const ratio = median(ratios);
    const pass = ratio >= target && (p99Max === undefined || k.r.p99 <= p99Max) && k.r.non2xx === 0;
    const pairs = `pairs ${ratios.map((x) => x.toFixed(2)).join(' ')}`;
    rows.push(`${name}: ${Math.round(k.r.rps)} req/s vs bare ${Math.round(b.r.rps)} = ${ratio.toFixed(2)}x (${pairs}; target ≥ ${target}x${p99Max ? `, p99 ≤ ${p99Max} ms` : ''}); p99 ${k.r.p99} ms; ${body.length} bytes; non-2xx ${k.r.non2xx} → ${pass ? 'PASS' : 'FAIL'}`);
  };
  await compare('GET /v1/USD/2020-06-15 (charged)', '/v1/USD/2020-06-15', 50, 0.5);
  await compare('GET /v1/timeseries/EUR 1999-01-04..2026-04-14 USD (charged, 10 conn)', range, 10, 0.25, 50);

  // Every currency over the whole history as NDJSON: first byte, throughput, RSS growth.
  const before = rssMb(kurs);
  let peak = before;
  const started = performance.now();
  const res = await get(`/v1/timeseries/USD?start=1998-01-01&end=${today}&format=ndjson`);
  const reader = res.body!.getReader();
  let first = 0;
  let bytes = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    if (first === 0) first = performance.now() - started;
    bytes += chunk.value.length;
    peak = Math.max(peak, rssMb(kurs));
  }
  const seconds = (performance.now() - started) / 1000;
  const mbps = bytes / 1e6 / seconds;
  const growth = peak - before;
  rows.push(`NDJSON whole history, every currency: ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s = ${mbps.toFixed(1)} MB/s (≥ 20), first byte ${first.toFixed(0)} ms (≤ 100), RSS +${growth.toFixed(0)} MB (< 50) → ${mbps >= 20 && first <= 100 && growth < 50 ? 'PASS' : 'FAIL'}`);
  rows.push(`Materialise the whole history (${whole.days} days): ${(wholeMs / 1000).toFixed(1)} s (≤ 30) → ${wholeMs <= 30_000 ? 'PASS' : 'FAIL'}`);
  rows.push(`Materialise after a daily ingest (${daily.days} days rebuilt): ${dailyMs.toFixed(0)} ms (≤ 300) → ${dailyMs <= 300 ? 'PASS' : 'FAIL'}`);
  const peakRss = peakRssMb(kurs.child);
  const phases = `${settledPeak?.toFixed(0)} MB at "history ready", ${rebuiltPeak === undefined ? 'no rates rebuild after it within 30 s' : `${rebuiltPeak.toFixed(0)} MB once the rates were rebuilt after it`}`;
  rows.push(`Peak RSS of the server, history loaded and serving: ${peakRss?.toFixed(0)} MB (${phases}) (≤ 250) → ${peakRss !== undefined && peakRss <= 250 ? 'PASS' : 'FAIL'}`);
  console.log(rows.join('\n'));
  process.exitCode = rows.some((r) => r.endsWith('FAIL')) ? 1 : 0;
} finally {
  await Promise.all(servers.filter((s) => s.child.exitCode === null && s.child.signalCode === null).map(stop));
  rmSync(dir, { recursive: true, force: true });
}
