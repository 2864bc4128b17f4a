// `npm run soak [-- --minutes 10 | --seconds 90] [--rate 200] [--concurrency 16]`: mixed traffic
// against the real server on 127.0.0.1 for a bounded time, with ingestion running beside it
// (`kurs ingest` storing a new ECB table every 15 s, which the server picks up and rebuilds from).
// Prints requests, status counts, errors, latency percentiles and the server's memory at start and
// end, checks that the points charged equal the 200s received, and exits 1 on any 5xx or failure.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { BIN, kursJson, startServer, stopServer } from '../test/support/server-process.js';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, seconds: { type: 'string' }, rate: { type: 'string', default: '200' }, concurrency: { type: 'string', default: '16' } },
});
const durationMs = values.seconds ? Number(values.seconds) * 1000 : Number(values.minutes) * 60_000;
const rate = Number(values.rate);
const concurrency = Number(values.concurrency);
const INGEST_EVERY_MS = 15_000;

const dir = mkdtempSync(join(tmpdir(), 'kurs-soak-'));
const dbUrl = `sqlite:${join(dir, 'kurs.db')}`;
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/** A fresh ECB daily table for today, each rate moved by up to 1%, so that every ingest is new data. */
function ecbTable(): string {
  const today = new Date().toISOString().slice(0, 10);
  const base: Record<string, number> = { USD: 1.17, JPY: 187.1, GBP: 0.865, CHF: 0.93, SEK: 11.2, PLN: 4.25 };
  const cubes = Object.entries(base).map(([c, r]) => `<Cube currency='${c}' rate='${(r * (1 + (Math.random() - 0.5) / 50)).toFixed(4)}'/>`);
  return `<?xml version="1.0" encoding="UTF-8"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><gesmes:subject>Reference rates</gesmes:subject><Cube><Cube time='${today}'>${cubes.join('')}</Cube></Cube></gesmes:Envelope>`;
}

function ingestOnce(): boolean {
  mkdirSync(join(dir, 'feeds', 'ECBF'), { recursive: true });
  writeFileSync(join(dir, 'feeds', 'ECBF', 'eurofxref-daily.xml'), ecbTable());
  const run = spawnSync(process.execPath, [BIN, 'ingest', 'ECBF', '--from-dir', join(dir, 'feeds')], { env: { ...process.env, KURS_DATABASE_URL: dbUrl }, encoding: 'utf8' });
  rmSync(join(dir, 'feeds'), { recursive: true, force: true });
  return run.status === 0 && /ECBF eurofxref-daily\.xml: \d+ new/.test(run.stdout);
}

type Req = { method: 'GET' | 'POST'; path: string; key: 'business' | 'starter' | 'wrong'; body?: string };
const MIX: [number, Req][] = [
  [30, { method: 'GET', path: '/v1/EUR/latest', key: 'business' }],
  [20, { method: 'GET', path: '/v1/rate/EUR/USD?amount=12.5', key: 'business' }],
  [15, { method: 'POST', path: '/v1/rates/convert', key: 'business', body: '{"base":"USD","amount":"100","targets":["EUR","JPY","GBP","XYZ"]}' }],
  [10, { method: 'GET', path: '/v1/bank/ECBF?reciprocal=true', key: 'business' }],
  [5, { method: 'GET', path: '/v1/currencies', key: 'business' }],
  [5, { method: 'GET', path: '/v1/EUR/latest', key: 'starter' }],
  [5, { method: 'GET', path: '/v1/EUR/latest', key: 'wrong' }],
  [5, { method: 'GET', path: '/v1/EUR/latest?amount=-1', key: 'business' }],
  [5, { method: 'GET', path: '/v1/nowhere', key: 'business' }],
];
const pick = (): Req => {
  let r = Math.random() * 100;
  for (const [weight, req] of MIX) if ((r -= weight) < 0) return req;
  return MIX[0]![1];
};
const label = (r: Req) => `${r.method} ${r.path} (${r.key} key)`;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main(): Promise<number> {
  const business = kursJson<{ key: string; account_id: string }>(['keys', 'create', '--plan', 'business', '--points', '100000000'], dbUrl);
  const starter = kursJson<{ key: string }>(['keys', 'create', '--plan', 'starter', '--points', '100000000'], dbUrl);
  const keys = { business: business.key, starter: starter.key, wrong: `kurs_${'0'.repeat(32)}` };
  const server = await startServer({ KURS_DATABASE_URL: dbUrl, KURS_SEED: 'on', KURS_BOOTSTRAP_KEY: 'off' });
  const pid = server.child.pid!;
  if (!ingestOnce()) throw new Error('the first `kurs ingest` failed');
  await sleep(3_000); // the server notices the new data within its 2 s poll
  const rssStart = rssMb(pid);
  const statuses = new Map<string, number>();
  const byRequest = new Map<string, Map<string, number>>();
  const latencies: number[] = [];
  let businessOk = 0;
  let ingests = 0;
  let ingestFailures = 0;
  const started = Date.now();
  const deadline = started + durationMs;
  const gap = (concurrency * 1000) / rate; // each worker's pacing for the target rate
  const worker = async () => {
    while (Date.now() < deadline) {
      const next = Date.now() + gap;
      const req = pick();
      const t0 = performance.now();
      let status: string;
      try {
        const res = await fetch(server.url + req.path, {
          method: req.method,
          headers: { authorization: keys[req.key], ...(req.body ? { 'content-type': 'application/json' } : {}) },
          ...(req.body ? { body: req.body } : {}),
        });
        await res.arrayBuffer();
        status = String(res.status);
        if (res.status === 200 && req.key === 'business') businessOk++;
      } catch (err) {
        status = `network: ${(err as Error).message}`;
      }
      latencies.push(performance.now() - t0);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      const mine = byRequest.get(label(req)) ?? byRequest.set(label(req), new Map()).get(label(req))!;
      mine.set(status, (mine.get(status) ?? 0) + 1);
      const wait = next - Date.now();
      if (wait > 0) await sleep(wait);
    }
  };
  const ingestLoop = async () => {
    while (Date.now() + INGEST_EVERY_MS < deadline) {
      await sleep(INGEST_EVERY_MS);
      ingests++;
      if (!ingestOnce()) ingestFailures++;
    }
  };
  const progress = setInterval(() => process.stdout.write(`  ${Math.round((Date.now() - started) / 1000)} s: ${latencies.length} requests, server RSS ${rssMb(pid).toFixed(0)} MB\n`), 30_000);
  await Promise.all([...Array.from({ length: concurrency }, worker), ingestLoop()]);
  clearInterval(progress);
  const rssEnd = rssMb(pid);
  const elapsed = (Date.now() - started) / 1000;
  const exit = await stopServer(server.child);
  const charged = 100_000_000 - kursJson<{ points: number }>(['accounts', 'show', business.account_id], dbUrl).points;

  const sorted = latencies.sort((a, b) => a - b);
  const errors = [...statuses].filter(([s]) => !/^[234]\d\d$/.test(s)).reduce((n, [, c]) => n + c, 0);
  const lines = [
    `soak: ${elapsed.toFixed(0)} s, ${latencies.length} requests (${(latencies.length / elapsed).toFixed(0)}/s, target ${rate}/s, ${concurrency} clients)`,
    `statuses: ${[...statuses].sort().map(([s, c]) => `${s}×${c}`).join(', ')}`,
    ...[...byRequest].map(([l, m]) => `  ${l}: ${[...m].sort().map(([st, c]) => `${st}×${c}`).join(', ')}`),
    `errors (5xx or network): ${errors}`,
    `latency ms: p50 ${percentile(sorted, 50).toFixed(2)}, p90 ${percentile(sorted, 90).toFixed(2)}, p99 ${percentile(sorted, 99).toFixed(2)}, max ${sorted.at(-1)?.toFixed(2)}`,
    `server RSS MB: start ${rssStart.toFixed(1)}, end ${rssEnd.toFixed(1)}`,
    `ingestion: ${ingests} runs of \`kurs ingest\` beside the server, ${ingestFailures} failed`,
    `points: ${charged} charged for ${businessOk} answered 200s on the business key; server exit code ${exit}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  rmSync(dir, { recursive: true, force: true });
  return errors === 0 && ingestFailures === 0 && charged === businessOk && exit === 0 ? 0 : 1;
}

process.exitCode = await main();
