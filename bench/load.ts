// One load generator process: autocannon against one URL, rotating through the given keys so that
// "many accounts" spreads charges over many balances. Prints autocannon's JSON result on stdout.
import { createRequire } from 'node:module';

const autocannon = createRequire(import.meta.url)('autocannon');
const { url, keys, connections, seconds } = JSON.parse(process.env.BENCH_LOAD!) as { url: string; keys: string[]; connections: number; seconds: number };
let next = 0;
const result = await autocannon({
  url,
  connections,
  duration: seconds,
  requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, headers: { authorization: keys[next++ % keys.length]! } }) }],
});
process.stdout.write(JSON.stringify(result));
