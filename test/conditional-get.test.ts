// Conditional GET: a feed that sent an ETag is asked "only if changed" next time, and its 304 costs
// no parse and stores nothing; a changed feed is fetched and stored as usual.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ingestLive } from '../src/ingest/live.js';
import { ConditionalCache } from '../src/sources/fetch.js';
import { createHttpClient } from '../src/sources/http.js';
import { sourceByCode } from '../src/sources/index.js';
import { testApp, type TestApp } from './helpers.js';

const NOW = new Date('2026-04-15T18:00:00Z');
const daily = (date: string, usd: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><gesmes:subject>Reference rates</gesmes:subject><Cube><Cube time='${date}'><Cube currency='USD' rate='${usd}'/></Cube></Cube></gesmes:Envelope>`;

describe('conditional requests', () => {
  let t: TestApp;
  let server: Server;
  let url: string;
  let body = daily('2026-04-14', '1.1700');
  const seen: IncomingHttpHeaders[] = [];
  before(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers);
      const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
      if (req.headers['if-none-match'] === etag) return res.writeHead(304, { etag }).end();
      res.writeHead(200, { etag, 'content-type': 'text/xml' }).end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await testApp({ now: NOW, seeded: false });
  });
  after(async () => {
    await t.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  test('an unchanged feed answers 304 and nothing is parsed or stored; a changed one is stored', async () => {
    const deps = { store: t.store, http: createHttpClient({ retries: 0 }), cache: new ConditionalCache(), config: { sourceUrls: { ECBF: url }, sourceKeys: {} }, now: () => NOW };
    const ecbf = sourceByCode('ECBF')!;
    const first = await ingestLive(deps, ecbf);
    assert.equal(first.status === 'done' && first.outcomes[0]!.status, 'stored');
    assert.equal(seen[0]!['if-none-match'], undefined);

    const second = await ingestLive(deps, ecbf);
    assert.ok(seen[1]!['if-none-match'], 'the second request was not conditional');
    assert.deepEqual(second.status === 'done' && second.outcomes, []);

    body = daily('2026-04-15', '1.1710');
    const third = await ingestLive(deps, ecbf);
    assert.equal(third.status === 'done' && third.outcomes[0]!.status, 'stored');
    assert.ok((await t.store.sourceHealth()).find((h) => h.source === 'ECBF')!.newestDate === '2026-04-15');
  });
});
