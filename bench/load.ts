// One load generator process: autocannon against one URL, rotating through the given keys so that
// "many accounts" spreads charges over many balances. Prints autocannon's JSON result on stdout.
import { createRequire } from 'node:module';

const autocannon = createRequire(import.meta.url)('autocannon');
const { url, keys, connections, seconds, method, body } = JSON.parse(process.env.BENCH_LOAD!) as {
  url: string;
  keys: string[];
  connections: number;
  seconds: number;
  method?: string;
  body?: string;
};
const json = body === undefined ? {} : { 'content-type': 'application/json' };
let next = 0;
const result = await autocannon({
  url,
  connections,
  duration: seconds,
  ...(method ? { method } : {}),
  ...(body === undefined ? {} : { body }),
  requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, headers: { ...json, authorization: keys[next++ % keys.length]! } }) }],
});
process.stdout.write(JSON.stringify(result));
