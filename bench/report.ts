// The bench's table, its generator-saturation evidence, and the regression guard: the ratios the
// docs/performance.md quotes live in bench/figures.json (its table is written from the same run), and
// `npm run bench -- --quick` fails when a ratio falls more than GUARD below its recorded figure.
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Result } from './servers.js';

export const FIGURES_FILE = fileURLToPath(new URL('./figures.json', import.meta.url));
/** A ratio more than this share below its recorded figure fails the quick bench. */
export const GUARD = 0.15;

/** One table row; `pass` is undefined for rows that only inform. `id` names a guarded ratio. */
export interface Row {
  name: string;
  id?: string;
  r?: Result;
  base?: number;
  /** Kurs over its baseline when not simply `r.rps / base` (the median of interleaved pairs). */
  ratio?: number;
  /** Server CPU per answered request, µs (from /proc), for this row and for its baseline. */
  cpu?: number;
  baseCpu?: number;
  target: string;
  pass?: boolean;
  note?: string;
}

export interface Figures {
  measured: string;
  machine: string;
  /** Guarded ratios by row id: req/s of Kurs over req/s of its baseline. */
  ratios: Record<string, number>;
}

/** A row's ratio: as measured in turns, else req/s over the baseline's. */
export const ratioOf = (r: Row): number | undefined => r.ratio ?? (r.r && r.base ? r.r.rps / r.base : undefined);

export const readFigures = (): Figures => JSON.parse(readFileSync(FIGURES_FILE, 'utf8')) as Figures;

/** `--record`: the ratios of this run become the recorded figures (then copy the table into docs/performance.md). */
export function recordFigures(rows: Row[], machine: string): void {
  const ratios = Object.fromEntries(rows.filter((r) => r.id && ratioOf(r) !== undefined).map((r) => [r.id!, Number(ratioOf(r)!.toFixed(2))]));
  writeFileSync(FIGURES_FILE, `${JSON.stringify({ measured: new Date().toISOString(), machine, ratios }, null, 2)}\n`);
}

/** The guard rows for `--quick`: each measured ratio against its recorded figure less GUARD. */
export function guard(rows: Row[], figures: Figures): Row[] {
  return rows
    .filter((r) => r.id && ratioOf(r) !== undefined && figures.ratios[r.id] !== undefined)
    .map((r) => {
      const ratio = ratioOf(r)!;
      const floor = figures.ratios[r.id!]! * (1 - GUARD);
      return { name: `guard: ${r.name}`, target: `≥ ${floor.toFixed(2)}× (recorded ${figures.ratios[r.id!]!.toFixed(2)}× less ${GUARD * 100}%)`, pass: ratio >= floor, note: `${ratio.toFixed(2)}×` };
    });
}

const fmt = (n: number | undefined, digits = 0) => (n === undefined || Number.isNaN(n) ? '' : n.toFixed(digits));

export function printTable(rows: Row[]): void {
  const table = [
    ['scenario', 'req/s', 'baseline req/s', 'ratio', 'p50 ms', 'p99 ms', 'gen CPU', 'server µs/req (base)', 'target', 'result', 'notes'],
    ...rows.map((row) => [row, ratioOf(row)] as const).map(([{ name, r, base, cpu, baseCpu, target, pass, note }, ratio]) => [
      name,
      fmt(r?.rps),
      fmt(base),
      ratio === undefined ? '' : `${ratio.toFixed(2)}×`,
      r ? String(r.p50) : '',
      r ? String(r.p99) : '',
      r ? `${Math.round(r.genCpu * 100)}%${r.generators > 1 ? ` ×${r.generators}` : ''}` : '',
      cpu === undefined ? '' : `${fmt(cpu, 1)}${baseCpu === undefined ? '' : ` (${fmt(baseCpu, 1)})`}`,
      target,
      pass === undefined ? '' : pass ? 'PASS' : 'FAIL',
      note ?? '',
    ]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  for (const r of table) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd());
}

/**
 * The evidence that the generator did not hold the baseline down: the bare server loaded by one
 * generator process and then by two (same connections in all). If one generator were the limit, two
 * would get more through; the busiest generator's CPU is shown too (100% = one core, saturated).
 */
export function saturation(one: Result, two: Result, cpus: number): { text: string; ok: boolean } {
  const rise = two.rps / one.rps - 1;
  const ok = rise < 0.1;
  // With more runnable work than cores, two processes simply get a larger share of them than one.
  const busy = loadavg()[0]! > cpus ? ` (The machine's load average ${loadavg()[0]!.toFixed(1)} exceeds its ${cpus} cores: this check, and every figure, is unreliable.)` : '';
  const text =
    `Generator check: bare baseline ${one.rps.toFixed(0)} req/s with 1 generator (its CPU ${Math.round(one.genCpu * 100)}% of a core), ` +
    `${two.rps.toFixed(0)} req/s with 2 (${rise >= 0 ? '+' : ''}${(rise * 100).toFixed(0)}%, busiest ${Math.round(two.genCpu * 100)}%): ` +
    (!ok
      ? 'GENERATOR-BOUND: a second generator raises it, so the ratios below flatter Kurs.'
      : rise > 0
        ? 'a second generator raises it by less than the 10% this check allows for the noise between two loads, so the generator is not taken for the bottleneck.'
        : 'a second generator does not raise it, so the generator is not the bottleneck.') +
    busy;
  return { text, ok };
}

export const machineLine = (cpus: number) => `${cpus} cores, Node ${process.versions.node}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`;
