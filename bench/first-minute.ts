// The first minute of a start (issue 34 item 4), standalone: `node --import tsx
// bench/first-minute.ts [--seconds 60] [--only 'local feeds']`. A new SQLite file (the install-time
// build), default settings, with feed polling off, on with no network (this machine's DNS answers
// "not found"), and on against a local server
// holding every recorded payload; each idle and with two CPU-bound processes beside the server.
// Per row: `listening on` after launch; the first /healthz and the first 200 of a dated request after
// it; then /healthz every 250 ms to the end of the minute (median and worst). Give the install-time
// build as npm made it (or KURS_FIRST_START_DB=<a build of this code>, e.g. `node
// scripts/build-first-start.mjs /tmp/first.db` after `npm run build`): without one, the start loads
// the history itself and the dated request waits for that. `--cpu-prof <dir>` profiles each server.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SOURCES } from '../src/sources/index.js';
import { startReplayFeed } from '../test/support/replay-feed.js';
import { startKurs, stop } from './servers.js';

const DATED = '/v1/EUR/2008-09-15';
const arg = process.argv.indexOf('--seconds');
const SECONDS = arg > 0 ? Number(process.argv[arg + 1]) : 60;
/** `--only 'local feeds'`: the rows whose name holds these words. */
const only = process.argv.indexOf('--only');
const ONLY = only > 0 ? process.argv[only + 1]! : '';
/** `--cpu-prof <dir>`: each server writes a V8 profile there, and the times the loop was held
 *  (bench/loop-gaps.mjs); `node bench/long-tasks.cjs <profile> <gaps>` names what held it. */
const prof = process.argv.indexOf('--cpu-prof');
const PROF_DIR = prof > 0 ? process.argv[prof + 1]! : undefined;
const NODE_ARGS = PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', PROF_DIR, '--import', fileURLToPath(new URL('./loop-gaps.mjs', import.meta.url))] : [];
let rowNo = 0;

interface Row { scenario: string; listenMs: number; healthzMs: number; datedAfterMs: number; datedMs: number; healthzP50: number; healthzMax: number; stored: number; load: string }

async function timed(url: string, headers: Record<string, string> = {}): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status };
}

const burners = (n: number): ChildProcess[] => Array.from({ length: n }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));

async function run(scenario: string, env: Record<string, string>, busy: number): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), 'kurs-first-minute-'));
  const cpu = burners(busy);
  const launched = performance.now();
  const server = await startKurs({ KURS_DATABASE_URL: `sqlite:${join(dir, 'kurs.db')}`, KURS_LOG_LEVEL: 'info', ...(PROF_DIR ? { KURS_LOOP_GAPS: join(PROF_DIR, `gaps-${rowNo++}.json`) } : {}), ...env }, NODE_ARGS);
  const listenMs = performance.now() - launched;
  try {
    const key = server.lines.map((l) => /^ {2}(\S+)$/.exec(l)?.[1]).find(Boolean)!;
    const listening = performance.now();
    const healthzMs = (await timed(`${server.url}/healthz`)).ms;
    let dated = await timed(`${server.url}${DATED}`, { authorization: key });
    // 503 while history loads; a pause between tries keeps the key under its per-minute limit.
    while (dated.status !== 200) {
      await new Promise((r) => setTimeout(r, 200));
      dated = await timed(`${server.url}${DATED}`, { authorization: key });
    }
    const datedAfterMs = performance.now() - listening;
    const samples: number[] = [];
    while (performance.now() - launched < SECONDS * 1000) {
      samples.push((await timed(`${server.url}/healthz`)).ms);
      await new Promise((r) => setTimeout(r, 250));
    }
    samples.sort((a, b) => a - b);
    const stored = server.lines.filter((l) => l.includes('"msg":"payload stored"')).length;
    // The machine is shared: the 1-minute load average at the row's end says how busy it was.
    const load = loadavg()[0]!.toFixed(1);
    return { scenario: `${scenario}${busy ? ', 2 CPU-bound beside' : ''}`, listenMs, healthzMs, datedAfterMs, datedMs: dated.ms, healthzP50: samples[Math.floor(samples.length / 2)] ?? 0, healthzMax: samples.at(-1) ?? 0, stored, load };
  } finally {
    await stop(server);
    for (const c of cpu) c.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

const feeds = await startReplayFeed();
const local = Object.fromEntries(SOURCES.map((s) => [`KURS_SOURCE_${s.code}_URL`, `${feeds.url}/${s.code}`]));
const rows: Row[] = [];
const scenarios: [string, Record<string, string>][] = [
  ['polling off', { KURS_INGEST: 'off' }],
  ['polling on, no network', { KURS_INGEST: 'on' }],
  ['polling on, local feeds', { KURS_INGEST: 'on', ...local }],
];
for (const busy of [0, 2]) {
  for (const [name, env] of scenarios) if (name.includes(ONLY)) rows.push(await run(name, env, busy));
}
await feeds.close();
const ms = (n: number) => `${Math.round(n)} ms`;
console.log('| start | listening on | first /healthz | first dated 200 after listening (request) | /healthz to 60 s: median, worst | payloads stored | load average |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.scenario} | ${ms(r.listenMs)} | ${ms(r.healthzMs)} | ${ms(r.datedAfterMs)} (${ms(r.datedMs)}) | ${ms(r.healthzP50)}, ${ms(r.healthzMax)} | ${r.stored} | ${r.load} |`);
