// What held the main thread's event loop: the gaps bench/loop-gaps.mjs recorded, each with the
// functions of ours (src/, dist/) the V8 profile's samples in it spent most in.
//   node bench/long-tasks.cjs <main thread .cpuprofile> <gaps.json>   (run from the repository root)
// How docs/performance.md's first-minute section named what holds the loop (bench/first-minute.ts
// --cpu-prof writes both files).
const { readFileSync } = require('node:fs');
const p = JSON.parse(readFileSync(process.argv[2]));
const gaps = JSON.parse(readFileSync(process.argv[3]));
const ROOT = `file://${process.cwd()}/`;
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
/** The innermost frame of our own code on a sample's stack, else the sample's own frame. */
function ours(id) {
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const f = byId.get(at).callFrame;
    if (f.url.startsWith(ROOT) && !f.url.includes('node_modules')) return `${f.functionName || '(anon)'} ${f.url.slice(ROOT.length)}:${f.lineNumber + 1}`;
  }
  const f = byId.get(id).callFrame;
  return `${f.functionName || '(anon)'} ${f.url.replace(/.*node_modules\//, 'nm/')}`;
}
const times = [];
let t = p.startTime;
for (let i = 0; i < p.samples.length; i++) times.push((t += p.timeDeltas[i] ?? 0));
for (const [from, to] of gaps.sort((a, b) => b[1] - b[0] - (a[1] - a[0])).slice(0, 30)) {
  const where = new Map();
  for (let i = 0; i < times.length; i++) {
    if (times[i] < from || times[i] > to) continue;
    const k = ours(p.samples[i]);
    where.set(k, (where.get(k) ?? 0) + (times[i + 1] ?? times[i]) - times[i]);
  }
  const top = [...where].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, us]) => `${k} ${(us / 1000).toFixed(0)}`);
  console.log(`${((to - from) / 1000).toFixed(0).padStart(5)} ms at ${((from - p.startTime) / 1e6).toFixed(1)} s  ${top.join(' | ')}`);
}
console.log(`${gaps.length} gaps over 40 ms`);
