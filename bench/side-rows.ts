// The bench's rows that run as processes of their own (bench/blend.ts, bench/ingest-ecb.ts,
// bench/history.ts, bench/first-start.ts): each prints JSON or its own lines, and run.ts adds what they report.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Row } from './report.js';

const INGEST = fileURLToPath(new URL('./ingest-ecb.ts', import.meta.url));
const BLEND = fileURLToPath(new URL('./blend.ts', import.meta.url));
const HISTORY = fileURLToPath(new URL('./history.ts', import.meta.url));
const FIRST_START = fileURLToPath(new URL('./first-start.ts', import.meta.url));
const ECB_HISTORY = fileURLToPath(new URL('../test/fixtures/sources/ECBF/eurofxref-hist-2026-04-13.zip', import.meta.url));

/** Runs a bench script in its own process and parses the JSON it prints; undefined if it fails. */
async function jsonOf(script: string, args: string[], env: Record<string, string> = {}): Promise<Record<string, unknown> | undefined> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise((r) => child.on('exit', r));
  return code === 0 ? JSON.parse(out) : undefined;
}

export async function blendRow(): Promise<Row> {
  const name = '6b full blend recompute, all sources (ms)';
  const r = (await jsonOf(BLEND, [], { BENCH_JSON: '1' })) as { first: number; median: number; rows: number } | undefined;
  if (!r) return { name, target: '≤ 200 ms', note: 'failed: see bench/blend.ts' };
  return { name, target: '≤ 200 ms', pass: r.median <= 200, note: `median ${r.median.toFixed(0)} ms, first ${r.first.toFixed(0)} ms, ${r.rows} rows` };
}

export async function ingestRow(): Promise<Row> {
  const name = '6 ingest of the ECB history file, 1999 onward (ms)';
  const r = (await jsonOf(INGEST, [ECB_HISTORY])) as { ms: number; status: string; inserted: number } | undefined;
  if (!r) return { name, target: '≤ 5000 ms', note: `skipped or failed: is ${ECB_HISTORY} present?` };
  return { name, target: '≤ 5000 ms', pass: r.status === 'stored' && r.ms <= 5000, note: `${r.ms.toFixed(0)} ms, ${r.inserted} rates ${r.status}` };
}

/** The history rows (issue 14), printed as they come; true when one failed. */
export async function historyRows(): Promise<boolean> {
  console.log('\nHistory (bench/history.ts):');
  const child = spawn(process.execPath, ['--import', 'tsx', HISTORY], { stdio: 'inherit' });
  return (await new Promise((r) => child.on('exit', r))) !== 0;
}

/** The first start rows (issue 26), printed as they come; true when one failed. `load`: also the
 *  starts that load the history themselves (SQLite, and PostgreSQL when configured): minutes. */
export async function firstStartRows(load: boolean): Promise<boolean> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIRST_START, ...(load ? ['--load', '--pg'] : [])], { stdio: 'inherit' });
  return (await new Promise((r) => child.on('exit', r))) !== 0;
}
