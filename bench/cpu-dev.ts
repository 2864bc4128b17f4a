import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKey } from '../src/access/accounts.js';
import { openSqlite } from '../src/store/open.js';
import { cpuMsOf, KURS_ENV, loadOne, startBare, startKurs, stop, convertRequest, type Request } from './servers.js';
const path = process.argv[2] ?? '/v1/USD/latest';
const dir = mkdtempSync(join(tmpdir(), 'kurs-cpu-'));
const store = openSqlite(join(dir, 'kurs.db'));
await store.migrate();
const { key } = await createKey(store, { plan: 'business', points: 1_000_000_000 }, new Date());
const kurs = await startKurs({ ...KURS_ENV, KURS_DATABASE_URL: `sqlite:${join(dir, 'kurs.db')}`, ...(process.env.EXTRA ? JSON.parse(process.env.EXTRA) : {}) });
const body = await (await fetch(`${kurs.url}/v1/USD/latest`, { headers: { authorization: key } })).text();
const bare = await startBare(body);
let req: Request = { path };
if (path === 'convert') {
  const currencies = ((await (await fetch(`${kurs.url}/v1/currencies`, { headers: { authorization: key } })).json()) as { currencies: { currency: string }[] }).currencies.map((c) => c.currency);
  req = { ...convertRequest(currencies), vary: true };
}
const out: Record<string, number[]> = { bare: [], kurs: [] };
for (let i = 0; i < 3; i++) {
  for (const [name, s] of [['bare', bare], ['kurs', kurs]] as const) {
    const before = cpuMsOf(s.child.pid);
    const r = await loadOne(s.url, req, [key], 20, 3);
    out[name]!.push(((cpuMsOf(s.child.pid) - before) * 1000) / (r.ok + r.non2xx));
  }
}
const med = (a: number[]) => a.sort((x, y) => x - y)[1]!;
console.log(`bare ${med(out.bare!).toFixed(1)} µs, kurs ${med(out.kurs!).toFixed(1)} µs, cpu ratio ${(med(out.bare!) / med(out.kurs!)).toFixed(2)}  [${out.bare!.map((x) => x.toFixed(1))}] [${out.kurs!.map((x) => x.toFixed(1))}]`);
await stop(kurs); await stop(bare); await store.close();
