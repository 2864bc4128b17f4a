// One load generator process: autocannon against one URL. With one key and a fixed body every request
// is the same bytes, built once (static headers); only when keys rotate ("many accounts") or with
// `vary` (a different amount, 1000.00, 1000.01, …, in place of `"1234.56"` in every request's body)
// does each request go through `setupRequest`, which costs the generator CPU of its own. The bare
// baseline is driven through this same file with the same settings, so both sides pay the same.
// Prints autocannon's JSON result on stdout, with the generator's own CPU time (`cpuMs`, user +
// system) and wall time (`wallMs`): a generator near 1,000 ms of CPU per second is the bottleneck.
import { createRequire } from 'node:module';

const autocannon = createRequire(import.meta.url)('autocannon');
const { url, keys, connections, seconds, method, body, vary } = JSON.parse(process.env.BENCH_LOAD!) as {
  url: string;
  keys: string[];
  connections: number;
  seconds: number;
  method?: string;
  body?: string;
  vary?: boolean;
};
const json = body === undefined ? {} : { 'content-type': 'application/json' };
let next = 0;
const perRequest = keys.length > 1 || (vary === true && body !== undefined);
const request = perRequest
  ? {
      setupRequest: (req: Record<string, unknown>) => {
        const n = next++;
        const amount = `"${1000 + (Math.floor(n / 100) % 1_000_000)}.${String(n % 100).padStart(2, '0')}"`;
        return { ...req, headers: { ...json, authorization: keys[n % keys.length]! }, ...(vary && body ? { body: body.replace('"1234.56"', amount) } : {}) };
      },
    }
  : { headers: { ...json, authorization: keys[0]! }, ...(body === undefined ? {} : { body }) };
const cpu = process.cpuUsage();
const started = performance.now();
const result = await autocannon({ url, connections, duration: seconds, ...(method ? { method } : {}), requests: [request] });
const used = process.cpuUsage(cpu);
process.stdout.write(JSON.stringify({ ...result, cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - started }));
