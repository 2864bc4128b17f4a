// `npm run bench:profile -- <latest|rate|convert|convert-new> [seconds]`: one bench scenario against a Kurs server
// started under `node --cpu-prof`, then the top of its CPU profile (bench/profile-top.cjs). This is
// how the figures in docs/performance.md are taken; the profile file is kept for a closer look.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKey } from '../src/access/accounts.js';
import { openSqlite } from '../src/store/open.js';
import { convertRequest, historySettled, KURS_ENV, loadOne, startKurs, stop, type Request } from './servers.js';

const scenario = process.argv[2] ?? 'latest';
const seconds = Number(process.argv[3] ?? 8);
const dir = mkdtempSync(join(tmpdir(), 'kurs-profile-'));
const store = openSqlite(join(dir, 'kurs.db'));
await store.migrate();
const { key } = await createKey(store, { plan: 'business', points: 1_000_000_000 }, new Date());
await store.close();

const env = { ...KURS_ENV, KURS_DATABASE_URL: `sqlite:${join(dir, 'kurs.db')}` };
// A first start loads and materialises the bundled history in the background: done by a server that
// is not profiled, else that work would be most of the profile (the bench does the same).
const first = await startKurs(env);
await historySettled(first).finally(() => stop(first));
const server = await startKurs(env, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
await historySettled(server);
const get = async (path: string) => (await fetch(`${server.url}${path}`, { headers: { authorization: key } })).json();
const currencies = ((await get('/v1/currencies')) as { currencies: { currency: string }[] }).currencies.map((c) => c.currency);
const requests: Record<string, Request> = {
  latest: { path: '/v1/USD/latest' },
  rate: { path: '/v1/rate/EUR/USD?amount=1234.56' },
  convert: convertRequest(currencies),
  // Target 3 as the bench measures it: a new amount on every request, so no kept answer is used.
  'convert-new': { ...convertRequest(currencies), vary: true },
};
const req = requests[scenario];
if (!req) throw new Error(`unknown scenario ${scenario}: one of ${Object.keys(requests).join(', ')}`);
const r = await loadOne(server.url, req, [key], 50, seconds);
await stop(server);
const profile = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
console.log(`${scenario}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.non2xx} non-2xx; profile ${join(dir, profile ?? '(none written)')}`);
if (profile) {
  const top = fileURLToPath(new URL('./profile-top.cjs', import.meta.url));
  spawnSync(process.execPath, [top, join(dir, profile), '30'], { stdio: 'inherit', cwd: fileURLToPath(new URL('..', import.meta.url)) });
}
