// What KURS_SQLITE_SYNC=full costs (issue 17): charged GET /v1/USD/latest on one SQLite server, one
// hot account, `normal` against `full`, with the batch meter (the default) and the naive one (a
// commit, so an fsync, per request). Alternating runs so that the machine's load hits both alike.
// Run: node --import tsx bench/sqlite-sync.ts   (BENCH_SECONDS, default 5; BENCH_ROUNDS, default 2)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KURS_ENV, loadOne, startKurs } from './servers.js';

const BIN = fileURLToPath(new URL('../bin/kurs', import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = 50;

async function once(sync: string, meter: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'kurs-sync-'));
  const url = `sqlite:${join(dir, 'kurs.db')}`;
  try {
    const created = spawnSync(process.execPath, [BIN, 'keys', 'create', '--plan', 'business', '--points', '1000000000', '--json'], { env: { ...process.env, KURS_DATABASE_URL: url }, encoding: 'utf8' });
    const { key } = JSON.parse(created.stdout) as { key: string };
    const server = await startKurs({ ...KURS_ENV, KURS_DATABASE_URL: url, KURS_SQLITE_SYNC: sync, KURS_METER: meter });
    try {
      return (await loadOne(server.url, { path: '/v1/USD/latest' }, [key], CONNECTIONS, SECONDS)).rps;
    } finally {
      server.child.kill('SIGTERM');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const results: Record<string, number[]> = {};
for (let r = 0; r < ROUNDS; r++) {
  for (const meter of ['batch', 'direct']) {
    for (const sync of ['normal', 'full']) (results[`${meter} ${sync}`] ??= []).push(await once(sync, meter));
  }
}
for (const [name, rps] of Object.entries(results)) process.stdout.write(`${name.padEnd(14)} ${rps.map((x) => Math.round(x)).join(' ')} req/s (mean ${Math.round(rps.reduce((a, b) => a + b, 0) / rps.length)})\n`);
process.stdout.write(`load average: ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')}\n`);
