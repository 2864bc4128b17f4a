// One load generator process: autocannon against one URL, rotating through the given keys so that
// "many accounts" spreads charges over many balances, and with `vary`, putting a different amount
// (1000.00, 1000.01, …) in place of `"1234.56"` in every request's body. Prints autocannon's JSON
// result on stdout.
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
const result = await autocannon({
  url,
  connections,
  duration: seconds,
  ...(method ? { method } : {}),
  ...(body === undefined ? {} : { body }),
  requests: [
    {
      setupRequest: (req: Record<string, unknown>) => {
        const n = next++;
        const amount = `"${1000 + Math.floor(n / 100) % 1_000_000}.${String(n % 100).padStart(2, '0')}"`;
        return { ...req, headers: { ...json, authorization: keys[n % keys.length]! }, ...(vary && body ? { body: body.replace('"1234.56"', amount) } : {}) };
      },
    },
  ],
});
process.stdout.write(JSON.stringify(result));
