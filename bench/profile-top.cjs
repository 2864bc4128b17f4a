// Top self-time functions and modules of a V8 .cpuprofile (from `node --cpu-prof`):
//   node bench/profile-top.cjs <file.cpuprofile> [rows]   (run from the repository root)
// How the figures in docs/performance.md were read.
const ROOT = new RegExp(`.*${process.cwd().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`);
const p = JSON.parse(require('fs').readFileSync(process.argv[2]));
const self = new Map(); const byId = new Map(p.nodes.map(n => [n.id, n]));
const dt = {}; for (let i = 0; i < p.samples.length; i++) { const d = p.timeDeltas[i] || 0; dt[p.samples[i]] = (dt[p.samples[i]] || 0) + d; }
let total = 0;
for (const n of p.nodes) { const t = dt[n.id] || 0; total += t; const cf = n.callFrame; const url = cf.url.replace(/.*node_modules\//, 'nm/').replace(ROOT, ''); const k = `${cf.functionName || '(anon)'} ${url}:${cf.lineNumber}`; self.set(k, (self.get(k) || 0) + t); }
const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, +process.argv[3] || 25);
for (const [k, t] of top) console.log((100 * t / total).toFixed(1).padStart(5) + '%  ' + k);
// by package
const pk = new Map();
for (const n of p.nodes) { const t = dt[n.id] || 0; const u = n.callFrame.url; let g = u.includes('node_modules/') ? u.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1') : u.includes(process.cwd()) ? 'kurs:' + u.replace(ROOT, '') : u.startsWith('node:') ? 'node-core' : n.callFrame.functionName || '(native)'; pk.set(g, (pk.get(g) || 0) + t); }
console.log('--- by module'); for (const [k, t] of [...pk].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log((100 * t / total).toFixed(1).padStart(5) + '%  ' + k);
