// `node --import tsx bench/blend.ts`: milliseconds per full blend recompute over every source, on the
// bundled seed (each source's last 45 days, what Market.rebuild blends): the first run in a fresh
// process, then the median of RUNS more. Issue 7's target is 200 ms. With BENCH_JSON set it prints
// {first, median, rows} as JSON, for `npm run bench`'s table.
import { readFileSync } from 'node:fs';
import { blend } from '../src/blend/blend.js';
import type { Seed } from '../src/ingest/seed.js';
import { latestBody } from '../src/http/bodies/latest.js';
import { RatesTable } from '../src/rates/table.js';
import { SEED_FILE } from '../src/server.js';
import { SOURCES } from '../src/sources/index.js';
import type { Figure } from '../src/blend/inputs.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);

const seed = JSON.parse(readFileSync(SEED_FILE, 'utf8')) as Seed;
const rows: Figure[] = seed.sources.flatMap((s) =>
  s.rows.map(([date, quote, rate, unit, direction, table]) => ({ source: s.source, date, quote, rate, unit, direction, table, storedAt: '2026-04-14T00:00:00.000Z' })),
);
const referenceDay = rows.reduce((m, r) => (r.date > m ? r.date : m), '');

function once(): number {
  const started = performance.now();
  const table = new RatesTable(blend([...SOURCES], rows, { referenceDay, graceDays: 0 }));
  // A whole /latest body makes every pair: the table is complete, not lazily half-built.
  latestBody(table, 'EUR');
  return performance.now() - started;
}

const first = once();
const times = Array.from({ length: RUNS }, once).sort((a, b) => a - b);
const median = times[times.length >> 1]!;
if (process.env.BENCH_JSON) {
  process.stdout.write(JSON.stringify({ first, median, rows: rows.length }));
  process.exit(0);
}
console.log(`blend: ${rows.length} rows, ${SOURCES.length} sources`);
console.log(`first recompute ${first.toFixed(1)} ms; median of ${RUNS} ${median.toFixed(1)} ms (min ${times[0]!.toFixed(1)}, max ${times[times.length - 1]!.toFixed(1)})`);
