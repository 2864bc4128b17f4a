// First start rows (issue 26), standalone: `node --import tsx bench/first-start.ts [--load] [--pg]`. A Kurs
// server on a new SQLite file, default settings (ingest off): the time from its `listening on` line
// to the first 200 of GET /v1/EUR/2008-09-15, with /v1/USD/latest under load (10 connections) all
// the while, and `kurs keys create` run meanwhile. The first row uses the install-time build
// (`npm run build:first-start` makes it); `--load` adds the start without it (an existing, empty
// file), `--pg` with KURS_TEST_DATABASE_URL the same on a throwaway PostgreSQL database (which loads
// the seed's history itself, 500 rows per multi-row INSERT).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempPgDatabase } from '../test/support/pg.js';
import { loadOne, type Result, type Running, startKurs, stop } from './servers.js';

const BIN = fileURLToPath(new URL('../bin/kurs', import.meta.url));
const DATED = '/v1/EUR/2008-09-15';
/** Seconds per slice of load on /latest: slices follow each other until the dated 200 has come. */
const SLICE_SECONDS = 3;

const logged = (server: Running, msg: string) => server.lines.find((l) => l.includes(`"msg":"${msg}"`));

function createKey(dbUrl: string): Promise<{ key: string; ms: number; ok: boolean }> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'keys', 'create', '--plan', 'business', '--points', '1000000000', '--json'], { env: { ...process.env, KURS_DATABASE_URL: dbUrl }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ key: code === 0 ? (JSON.parse(out) as { key: string }).key : '', ms: performance.now() - started, ok: code === 0 })));
}

interface FirstStart {
  /** From the `listening on` line to the first 200 of the dated request. */
  ms: number;
  /** The worst slice's p99 of /latest meanwhile, and per phase the worst and the median. */
  p99: number;
  phases: string;
  keysMs: number;
  keysOk: boolean;
  statuses: string;
  usedBuild: boolean;
}

async function firstStart(dbUrl: string): Promise<FirstStart> {
  const server = await startKurs({ KURS_DATABASE_URL: dbUrl, KURS_INGEST: 'off', KURS_BOOTSTRAP_KEY: 'on', KURS_LOG_FORMAT: 'json' });
  const listening = performance.now();
  try {
    // The first-start key asks the dated question from the start (within its plan's 600 a minute);
    // the load on /latest uses a business key made meanwhile with `kurs keys create`.
    const bootstrap = server.lines.map((l) => /^\s+(kurs_\w+)$/.exec(l)?.[1]).find((k) => k !== undefined) ?? '';
    let firstOk: number | undefined;
    const seen = new Map<number, number>();
    const asking = (async () => {
      while (firstOk === undefined) {
        const res = await fetch(`${server.url}${DATED}`, { headers: { authorization: bootstrap } });
        await res.arrayBuffer();
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        if (res.status === 200) firstOk = performance.now() - listening;
        else await new Promise((r) => setTimeout(r, 150));
      }
    })();
    const made = await createKey(dbUrl);
    // Each slice is put down to the phase it began in: loading (on SQLite, in a worker, with
    // materialising), then after the load (the server's own catch-up).
    const slices = new Map<string, Result[]>();
    do {
      const phase = logged(server, 'seed history loaded') || logged(server, 'seed history already loaded') ? 'after the load' : 'loading';
      const r = await loadOne(server.url, { path: '/v1/USD/latest' }, [made.key], 10, SLICE_SECONDS);
      slices.set(phase, [...(slices.get(phase) ?? []), r]);
    } while (firstOk === undefined);
    await asking;
    const p99s = (rs: Result[]) => rs.map((r) => r.p99).sort((a, b) => a - b);
    return {
      ms: firstOk,
      p99: Math.max(...[...slices.values()].flatMap(p99s)),
      phases: [...slices].map(([phase, rs]) => `${phase} ${p99s(rs).at(-1)!.toFixed(0)}/${p99s(rs)[Math.floor(rs.length / 2)]!.toFixed(0)} ms (${rs.length} slices)`).join(', '),
      keysMs: made.ms,
      keysOk: made.ok,
      statuses: [...seen].map(([s, n]) => `${n}× ${s}`).join(', '),
      usedBuild: logged(server, 'first start from the install-time history build') !== undefined,
    };
  } finally {
    await stop(server);
  }
}

const row = (name: string, r: FirstStart, target: string, pass: boolean) =>
  `${pass ? 'PASS' : 'FAIL'}  ${name}: ${(r.ms / 1000).toFixed(1)} s (target ${target}); p99 of /v1/USD/latest meanwhile ${r.p99.toFixed(0)} ms at worst (≤ 50 ms; worst/median slice: ${r.phases}); kurs keys create ${r.keysOk ? `${(r.keysMs / 1000).toFixed(1)} s` : 'FAILED'}; dated answers ${r.statuses}`;

const dir = mkdtempSync(join(tmpdir(), 'kurs-bench-first-start-'));
let failed = false;
try {
  console.log('\nFirst start (bench/first-start.ts):');
  const built = await firstStart(`sqlite:${join(dir, 'new', 'kurs.db')}`);
  const pass = built.usedBuild && built.ms <= 10_000 && built.p99 <= 50 && built.keysOk;
  failed ||= !pass;
  console.log(row('first start → first dated 200, SQLite, install-time build', built, '≤ 10 s', pass) + (built.usedBuild ? '' : ' — the build was not used: run `npm run build:first-start`'));
  if (process.argv.includes('--load')) {
    const empty = join(dir, 'empty.db');
    writeFileSync(empty, '');
    const loaded = await firstStart(`sqlite:${empty}`);
    console.log(row('first start → first dated 200, SQLite, loading the history itself', loaded, 'informative', loaded.p99 <= 50 && loaded.keysOk));
  }
  if (process.argv.includes('--pg') && process.env.KURS_TEST_DATABASE_URL) {
    const pg = await tempPgDatabase();
    try {
      const r = await firstStart(pg.url);
      console.log(row('first start → first dated 200, PostgreSQL, loading the history itself', r, 'informative', r.p99 <= 50 && r.keysOk));
    } finally {
      await pg.drop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
