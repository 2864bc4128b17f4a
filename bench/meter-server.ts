// A bare node:http server that charges every request through the points meter and then sends a
// fixed body: the meter's own cost with Fastify, the key lookup and the rates out of the picture.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMeter, type MeterKind } from '../src/access/meter.js';
import { openStore } from '../src/store/open.js';

const { url, meter, accounts, body } = JSON.parse(process.env.BENCH_METER!) as { url: string; meter: MeterKind; accounts: string[]; body: string };
const store = await openStore(url);
const m = createMeter(meter, store);
const payload = Buffer.from(body);
let next = 0;
const server = createServer((_req, res) => {
  m.charge(accounts[next++ % accounts.length]!, 1).then(
    (r) => {
      res.writeHead(r.ok ? 200 : 402, { 'content-type': 'application/json; charset=utf-8', 'content-length': payload.length });
      res.end(payload);
    },
    () => {
      res.writeHead(503);
      res.end();
    },
  );
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`));
