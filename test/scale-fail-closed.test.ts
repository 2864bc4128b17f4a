// Failing closed with a real process: an instance reaches PostgreSQL through a TCP proxy run here;
// cutting it turns keyed requests into 503 `unavailable` (never free, never 500) and /readyz not
// ready, and restoring it brings service back with no restart. Skipped without KURS_TEST_DATABASE_URL.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startKurs, type Running } from '../bench/servers.js';
import { createKey } from '../src/access/accounts.js';
import { openPostgres } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { PG_TEST_URL, tempPgDatabase, type TempPg } from './support/pg.js';

/** Forwards a local port to the database; `cut` drops every connection and refuses new ones. */
class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;
  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = createConnection(this.target);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    this.server.listen(this.port, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as AddressInfo).port;
  }

  async cut(): Promise<void> {
    const closed = new Promise((r) => this.server!.close(r));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}

const get = async (url: string, key?: string) => {
  const res = await fetch(url, { headers: key ? { authorization: key } : {} });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
};

describe('failing closed when PostgreSQL is unreachable (real process, TCP proxy)', { skip: PG_TEST_URL ? false : 'KURS_TEST_DATABASE_URL is not set' }, () => {
  let db: TempPg;
  let store: Store;
  let proxy: TcpProxy;
  let kurs: Running;

  before(async () => {
    db = await tempPgDatabase();
    const direct = new URL(db.url);
    proxy = new TcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    await proxy.open();
    const viaProxy = new URL(db.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    kurs = await startKurs({
      KURS_DATABASE_URL: viaProxy.toString(), KURS_BOOTSTRAP_KEY: 'off', KURS_INGEST: 'off', KURS_LOG_LEVEL: 'fatal',
      KURS_DB_CONNECT_TIMEOUT_MS: '1000', KURS_DB_QUERY_TIMEOUT_MS: '2000',
    });
    store = openPostgres(db.url, { poolSize: 2 });
  });
  after(async () => {
    kurs.child.kill('SIGTERM');
    await once(kurs.child, 'exit');
    await proxy.cut().catch(() => undefined);
    await store.close();
    await db.drop();
  });

  test('503 unavailable while cut, not ready, nothing served free; back by itself when restored', async () => {
    const { key, account_id } = await createKey(store, { plan: 'business', points: 100 }, new Date());
    const latest = `${kurs.url}/v1/USD/latest`;
    assert.equal((await get(latest, key)).status, 200);
    assert.deepEqual((await get(`${kurs.url}/readyz`)).body, { code: 200, message: 'ready' });

    await proxy.cut();
    for (let i = 0; i < 5; i++) {
      const r = await get(latest, key);
      assert.equal(r.status, 503);
      assert.equal(r.body.error, 'unavailable');
      assert.equal(r.body.code, 503);
      assert.match(String(r.body.message), /database/);
      assert.equal(r.headers.get('cache-control'), 'no-store');
      // The key was verified moments ago, so it authenticates from the key cache (KURS_KEY_CACHE_MS)
      // and the charge is what fails: it costs nothing, and nothing is served.
      assert.equal(r.headers.get('x-points-cost'), '0');
    }
    const notReady = await get(`${kurs.url}/readyz`);
    assert.equal(notReady.status, 503);
    assert.equal(notReady.body.error, 'unavailable');
    assert.equal((await get(`${kurs.url}/healthz`)).status, 200);
    // The key lookup failed first, so not even a wrong key is told it is wrong while we cannot check.
    assert.equal((await get(latest, `kurs_${'x'.repeat(32)}`)).status, 503);
    assert.equal((await store.getAccount(account_id))!.points, 99);

    await proxy.open();
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline && (status = (await get(latest, key)).status) !== 200) await new Promise((r) => setTimeout(r, 200));
    assert.equal(status, 200);
    assert.equal((await get(`${kurs.url}/readyz`)).status, 200);
    assert.equal((await store.getAccount(account_id))!.points, 98);
  });
});
