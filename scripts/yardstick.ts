// Blends every day of the bundled seed in memory, as a first start materialises it, and measures the
// blended EUR crosses against the ECB's whole history file (test/support/yardstick.ts): for working on
// the method. `node --import tsx scripts/yardstick.ts [--worst N] [--from YYYY-MM-DD]`.
import { inputWindow } from '../src/blend/window.js';
import { blendDay, DayMemo, quotedOn } from '../src/history/day.js';
import { enabledSources } from '../src/sources/enabled.js';
import { SOURCES as REGISTRY } from '../src/sources/index.js';
import { addDays } from '../src/time/days.js';
import { seedRows } from '../test/support/seed-rows.js';
import { blendedEur, EIGHTEEN, measure, readEcbFile } from '../test/support/yardstick.js';

/** The sources a default start blends (D22): those whose terms allow commercial use. */
const SOURCES = enabledSources(REGISTRY, []);

const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const ecb = readEcbFile(new URL('../test/fixtures/sources/ECBF/eurofxref-hist-2026-04-13.csv', import.meta.url).pathname);
const memo = new DayMemo(SOURCES);
const started = Date.now();
const eur = blendedEur(seedRows(), arg('--from') ?? '1999-01-01', [...ecb.keys()].pop()!, (rows, day) => blendDay(SOURCES, rows, day, 0, memo), inputWindow, addDays);
console.log(`blended ${eur.size} days in ${Date.now() - started} ms`);
const get = (day: string, code: string) => eur.get(day)?.get(code);
for (const [name, counts] of [['the 18 currencies the ECB quoted in 1999 and quotes now', (code: string) => EIGHTEEN.has(code)], ['every ECB currency', () => true]] as const) {
  const y = measure(ecb, get, (day, code) => counts(code) && quotedOn(day)(code));
  console.log(`${name}: ${y.pairs} pairs, ${(y.share * 100).toFixed(2)}% within 0.5% of the ECB's span, ${y.beyond2.length} beyond 2%, ${y.spikes.length} spikes, DKK outside ERM II on ${y.dkkOutside.length} days`);
  console.log(`  of the ${y.beyond2.length} beyond 2%, ${y.beyond2.filter((b) => !b.inSpan).length} are also outside the ECB's span`);
  for (const b of y.beyond2.slice(0, Number(arg('--worst') ?? 10))) console.log(`  ${b.day} ${b.code} ${b.blended.toPrecision(6)} vs ${b.ecb}, next ${b.next} (${(b.off * 100).toFixed(1)}%)${b.inSpan ? '' : ' outside the span'}`);
  for (const s of y.spikes) console.log(`  spike ${s.day} ${s.code} ${s.blended.toPrecision(6)}`);
}
if (process.argv.includes('--by-year')) {
  const byYear = new Map<string, [number, number]>();
  const days = [...ecb.keys()];
  days.forEach((day, i) => {
    const next = ecb.get(days[i + 1] ?? day)!;
    for (const [code, text] of ecb.get(day)!) {
      if (!EIGHTEEN.has(code)) continue;
      const b = get(day, code);
      if (b === undefined) continue;
      const [e, n] = [Number(text), Number(next.get(code) ?? text)];
      const inside = b >= Math.min(e, n) * 0.995 && b <= Math.max(e, n) * 1.005;
      const k = `${day.slice(0, 4)}`;
      const [a, t] = byYear.get(k) ?? [0, 0];
      byYear.set(k, [a + (inside ? 0 : 1), t + 1]);
    }
  });
  console.log([...byYear].map(([y, [a, t]]) => `${y}:${((a / t) * 100).toFixed(1)}%`).join(' '));
}
