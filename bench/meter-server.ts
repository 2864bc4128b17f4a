// A bare node:http server that charges every request through the points meter and then sends a
// fixed body: the meter's own cost with Fastify, the key lookup and the rates out of the picture
// (row 1m); given `headers`, it sends Kurs's other headers of that answer too (row 1f).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMeter, type MeterKind } from '../src/access/meter.js';
import { openStore } from '../src/store/open.js';

const { url, meter, accounts, body, headers } = JSON.parse(process.env.BENCH_METER!) as { url: string; meter: MeterKind; accounts: string[]; body: string; headers?: [string, string][] };
const store = await openStore(url);
const m = createMeter(meter, store);
const payload = Buffer.from(body);
let next = 0;
const server = createServer((_req, res) => {
  m.charge(accounts[next++ % accounts.length]!, 1).then(
    (r) => {
      const head = ['content-type', 'application/json; charset=utf-8', 'content-length', String(payload.length)];
      // With `headers` (row 1f), Kurs's own too, the balance the meter answered in x-points-remaining.
      for (const [name, value] of headers ?? []) head.push(name, name === 'x-points-remaining' ? String(r.remaining) : value);
      res.writeHead(r.ok ? 200 : 402, head);
      res.end(payload);
    },
    () => {
      res.writeHead(503);
      res.end();
    },
  );
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`));
