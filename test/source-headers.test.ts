// What each source sends a publisher (D25): the default User-Agent in the compatible form CDNs let
// through, the operator's in its place, and the headers an adapter declares for a bank's firewall,
// on every request the source makes (its page and the data request that follows), as a local server
// playing the banks receives them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../src/config.js';
import { fetchSource } from '../src/sources/fetch.js';
import { BROWSER_USER_AGENT, USER_AGENT, createHttpClient } from '../src/sources/http.js';
import { SOURCES } from '../src/sources/index.js';
import type { Source } from '../src/sources/types.js';
import { startFeedServer, type FeedServer } from './support/feed-server.js';

const TESTDATA = new URL('../src/sources/banks/testdata/', import.meta.url);
const WINDOW = { from: '2026-05-18', to: '2026-05-19' };
const source = (code: string): Source => SOURCES.find((s) => s.code === code)!;

/** Per source, the headers every one of its requests must carry (beyond the client's defaults). */
const EXPECTED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  // CDN-fronted: the compatible default clears them (the peer's finding), so they declare nothing.
  BCTN: { 'user-agent': USER_AGENT },
  CBSA: { 'user-agent': USER_AGENT },
  CBLR: { 'user-agent': USER_AGENT },
  CBEG: { 'user-agent': BROWSER_USER_AGENT, origin: 'https://www.cbe.org.eg', accept: '*/*' },
  BCCR: { 'user-agent': USER_AGENT, origin: 'https://sdd.bccr.fi.cr' },
  SBPP: { 'user-agent': BROWSER_USER_AGENT },
  BKEN: { 'user-agent': BROWSER_USER_AGENT, accept: 'text/csv,*/*' },
  CBTU: { 'user-agent': BROWSER_USER_AGENT },
  STAN: { 'user-agent': BROWSER_USER_AGENT },
};

/** Step pages, so that the request after them is made and checked too. */
const PAGES: Readonly<Record<string, string>> = {
  '/CBEG/en/economic-research/statistics/cbe-exchange-rates/historical-data': 'CBEG-form.html',
  '/BCCR/Bccr.GE.SDDE.IndicadoresSitioExterno.ServiciosUsuario.API/Token/GenereCSRF': 'BCCR-GenereCSRF.json',
};

describe('the headers each source sends', () => {
  let server: FeedServer;
  before(async () => {
    server = await startFeedServer((pathAndQuery, req) => {
      const page = req.method === 'GET' ? PAGES[pathAndQuery.split('?')[0]!] : undefined;
      return page ? { body: readFileSync(new URL(page, TESTDATA)), contentType: 'text/html' } : { body: 'payload' };
    });
  });
  after(() => server.close());

  /** The requests the server received from `code`, fetched through `http`. */
  async function sent(code: string, http = createHttpClient({ retries: 0 })) {
    const before = server.requests.length;
    // What happens to the answers ('payload' is no bank's format) does not matter here.
    await fetchSource(source(code), WINDOW, { base: `${server.url}/${code}`, key: 'test-key' }, http).catch(() => undefined);
    return server.requests.slice(before);
  }

  test('the default User-Agent names Kurs, its version and its address, in the compatible form', () => {
    assert.match(USER_AGENT, /^Mozilla\/5\.0 \(compatible; Kurs\/\d+\.\d+\.\d+; \+https:\/\/\S+\)$/);
  });

  for (const [code, headers] of Object.entries(EXPECTED)) {
    test(`${code} sends ${Object.keys(headers).join(', ')} on every request`, async () => {
      const requests = await sent(code);
      assert.ok(requests.length > 0, `${code} sent nothing`);
      for (const r of requests) for (const [name, value] of Object.entries(headers)) assert.equal(r.headers[name], value, `${code} ${r.method} ${r.url}: ${name}`);
      if (PAGES[new URL(source(code).requests(WINDOW, { base: `/${code}` })[0]!.url, 'http://x').pathname]) assert.ok(requests.length > 1, `${code} did not get past its page`);
    });
  }

  test('the declared sources are exactly those of the table, and a source that declares nothing sends the default', async () => {
    assert.deepEqual(SOURCES.filter((s) => s.headers).map((s) => s.code).sort(), ['BCCR', 'BKEN', 'CBEG', 'CBTU', 'SBPP', 'STAN']);
    const [r] = await sent('ECBF');
    assert.deepEqual([r?.headers['user-agent'], r?.headers.accept], [USER_AGENT, '*/*']);
  });

  test("the operator's User-Agent replaces the default, and a source's own still wins", async () => {
    const { userAgent } = loadConfig({ KURS_USER_AGENT: 'Acme rates/2.1 (ops@acme.example)' });
    const http = createHttpClient({ retries: 0, userAgent });
    assert.equal((await sent('ECBF', http))[0]?.headers['user-agent'], 'Acme rates/2.1 (ops@acme.example)');
    assert.equal((await sent('BCTN', http))[0]?.headers['user-agent'], 'Acme rates/2.1 (ops@acme.example)');
    assert.equal((await sent('CBEG', http))[0]?.headers['user-agent'], BROWSER_USER_AGENT);
  });

  test('KURS_USER_AGENT takes printable ASCII only, so that no line break adds a header', () => {
    assert.throws(() => loadConfig({ KURS_USER_AGENT: 'Acme\r\nX-Injected: 1' }), /KURS_USER_AGENT must be printable ASCII/);
    assert.equal(loadConfig({}).userAgent, undefined);
  });
});
