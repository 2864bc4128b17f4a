// The host rules: a source's requests, its follow steps and the redirects it meets go only to its own
// hosts or to the operator's override; internal addresses only when the override names them; a
// page's cookie only back to the host that set it. No test here asks a real DNS server.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startFeedServer, type FeedServer } from '../../test/support/feed-server.js';
import { fetchSource } from './fetch.js';
import { hostRules, isInternalAddress, type Resolve } from './hosts.js';
import { linkOn, postBack } from './follow.js';
import { createHttpClient, type FeedLimits, type HttpClient } from './http.js';
import type { FeedRequest, FollowedPage, Source } from './types.js';

const WINDOW = { from: '2026-03-02', to: '2026-03-06' };
const http = createHttpClient({ retries: 0 });
/** A DNS that knows three names and nothing else. */
const resolve: Resolve = async (name) => {
  const known: Record<string, string[]> = { 'bank.example': ['93.184.216.34'], 'intranet.example': ['93.184.216.35', '10.1.2.3'], 'loop.example': ['::1'] };
  if (!known[name]) throw new Error(`ENOTFOUND ${name}`);
  return known[name];
};

/** A bank whose page (`/page`) names the link to follow; the link is resolved as adapters do. */
function linking(baseUrl: string, overrides: Partial<Source> = {}): Source {
  const source: Source = {
    code: 'TEST', name: 'Test', countryCode: 'XX', countryName: 'Test', currency: 'EUR', cadence: 'daily', schedule: '0 * * * *',
    publishedAtUtc: '12:00:00', feedUrl: `${baseUrl}/page`, baseUrl, termsUrl: `${baseUrl}/terms`, terms: 'unknown',
    accepts: () => true,
    parse: () => [],
    requests: (_w, ctx) => [{ url: `${ctx.base}/page`, follow: true }],
    follow: (page: FollowedPage, _w, ctx): FeedRequest[] => [{ url: linkOn(page.body.toString(), page, source.baseUrl, ctx) }],
    ...overrides,
  };
  return source;
}

test('loopback, link-local, private, mapped and multicast addresses are internal; public ones are not', () => {
  const internal = ['127.0.0.1', '127.8.9.1', '10.0.0.5', '172.16.4.4', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:7f00:1'];
  const public_ = ['93.184.216.34', '172.32.0.1', '8.8.8.8', '2a00:1450:4001:80b::200e', 'bank.example'];
  assert.deepEqual(internal.filter((a) => !isInternalAddress(a)), []);
  assert.deepEqual(public_.filter(isInternalAddress), []);
});

describe('host rules on a bank reached through the operator override', () => {
  let server: FeedServer;
  let link = '';
  before(async () => {
    server = await startFeedServer((path) => {
      if (path === '/page') return { body: link };
      if (path === '/to-metadata') return { status: 302, body: '', headers: { location: 'http://169.254.169.254/latest/meta-data/' } };
      if (path === '/to-elsewhere') return { status: 301, body: '', headers: { location: 'https://elsewhere.example/data' } };
      return path === '/data' ? { body: 'rates' } : undefined;
    });
  });
  after(() => server.close());
  const fetchLinked = (to: string) => {
    link = to;
    return fetchSource(linking('https://bank.example'), WINDOW, { base: server.url }, http, undefined, resolve);
  };

  test("a link on the bank's own host lands on the override and is fetched", async () => {
    const payloads = await fetchLinked('https://www.bank.example/data');
    assert.deepEqual(payloads.map((p) => p.body.toString()), ['rates']);
    assert.equal(server.requests.at(-1)!.url, '/data');
  });

  test('a link to the cloud metadata address is refused', async () => {
    await assert.rejects(fetchLinked('http://169.254.169.254/latest/meta-data/'), /refused to fetch http:\/\/169\.254\.169\.254\/latest\/meta-data\/: 169\.254\.169\.254 is not a host of TEST/);
  });

  test('a link to another public host is refused', async () => {
    await assert.rejects(fetchLinked('https://elsewhere.example/data'), /refused to fetch https:\/\/elsewhere\.example\/data: elsewhere\.example is not a host of TEST \(bank\.example, or 127\.0\.0\.1\)/);
  });

  test('a link to a non-HTTP scheme is refused', async () => {
    await assert.rejects(fetchLinked('file:///etc/passwd'), /file: URLs are not fetched/);
  });

  test('a redirect to the metadata address or to another host is refused before it is followed', async () => {
    const before = server.requests.length;
    await assert.rejects(fetchLinked(`${server.url}/to-metadata`), /refused to fetch http:\/\/169\.254\.169\.254\/latest\/meta-data\/: .* not a host of TEST/);
    await assert.rejects(fetchLinked(`${server.url}/to-elsewhere`), /refused to fetch https:\/\/elsewhere\.example\/data/);
    assert.deepEqual(server.requests.slice(before).map((r) => r.url), ['/page', '/to-metadata', '/page', '/to-elsewhere']);
  });
});

describe('internal addresses without an override', () => {
  test('a bank whose own address is link-local, private or loopback is refused; the override may name it', async () => {
    const check = (source: Source, base = source.baseUrl) => hostRules(source, { base }, resolve);
    assert.match((await check(linking('http://169.254.169.254'))(new URL('http://169.254.169.254/page'))) ?? '', /is at 169\.254\.169\.254, a loopback, link-local or private address; only an override \(KURS_SOURCE_TEST_URL\) may name one/);
    assert.match((await check(linking('https://intranet.example'))(new URL('https://intranet.example/page'))) ?? '', /intranet\.example is at 10\.1\.2\.3/);
    assert.match((await check(linking('https://loop.example'))(new URL('https://loop.example/x'))) ?? '', /loop\.example is at ::1/);
    assert.equal(await check(linking('https://bank.example'))(new URL('https://www.bank.example/x')), undefined);
    assert.equal(await check(linking('https://bank.example'), 'http://10.1.2.3:8080')(new URL('http://10.1.2.3:8080/page')), undefined);
  });

  test('fetchSource refuses the request before sending it', async () => {
    const server = await startFeedServer(() => ({ body: 'rates' }));
    try {
      const source = linking(server.url, { follow: undefined, requests: (_w, ctx) => [{ url: `${ctx.base}/data` }] });
      await assert.rejects(fetchSource(source, WINDOW, { base: source.baseUrl }, http), /127\.0\.0\.1 is at 127\.0\.0\.1, a loopback/);
      assert.equal(server.requests.length, 0);
      // The same server named by the operator's override is fetched.
      assert.equal((await fetchSource({ ...source, baseUrl: 'https://bank.example' }, WINDOW, { base: server.url }, http)).length, 1);
    } finally {
      await server.close();
    }
  });
});

describe('cookies and limits per source', () => {
  /** Records each request and the limits it was sent with; every page sets a session cookie. */
  const recording = (sent: { request: FeedRequest; limits?: FeedLimits }[]): HttpClient => async (request, limits) => {
    sent.push({ request, ...(limits ? { limits } : {}) });
    return { status: 200, body: Buffer.from('page'), setCookie: ['session=s3cr3t; Path=/'] };
  };

  test("a page's cookie goes back to its own host, not to another host the bank also uses", async () => {
    const sent: { request: FeedRequest; limits?: FeedLimits }[] = [];
    const source = linking('https://bank.example', {
      extraHosts: ['files.bank-cdn.example'],
      maxBytes: 12_345,
      follow: (page) => [postBack(page, 'https://bank.example/form', [['a', '1']], []), postBack(page, 'https://files.bank-cdn.example/rates.csv', [['a', '1']], [])],
    });
    await fetchSource(source, WINDOW, { base: source.baseUrl }, recording(sent), undefined, resolve);
    assert.deepEqual(sent.map((s) => [s.request.url, s.request.headers?.cookie]), [
      ['https://bank.example/page', undefined],
      ['https://bank.example/form', 'session=s3cr3t'],
      ['https://files.bank-cdn.example/rates.csv', undefined],
    ]);
    assert.deepEqual(sent.map((s) => s.limits?.maxBytes), [12_345, 12_345, 12_345]);
    assert.equal(await sent[0]!.limits!.allow!(new URL('https://files.bank-cdn.example/x')), undefined, 'an extra host is the bank\'s own');
  });
});

test('a redirect to another host drops the cookie and credentials; a 307 keeps a POST, a 303 turns it into a GET', async () => {
  // 127.0.0.2 is loopback too on Linux, but another host name than 127.0.0.1.
  const seen: { method: string; cookie?: string; authorization?: string }[] = [];
  const other = createServer((req, res) => {
    seen.push({ method: req.method!, ...(req.headers.cookie ? { cookie: req.headers.cookie } : {}), ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
    res.end('moved here');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.2', resolve));
  const elsewhere = `http://127.0.0.2:${(other.address() as AddressInfo).port}/data`;
  const bank = await startFeedServer((path) => ({ status: path === '/form' ? 303 : path === '/same' ? 307 : 302, body: '', headers: { location: path === '/same' ? '/form' : elsewhere } }));
  try {
    const headers = { cookie: 'session=s3cr3t', authorization: 'Basic abc' };
    assert.equal((await http({ url: `${bank.url}/away`, headers })).body.toString(), 'moved here');
    assert.equal((await http({ url: `${bank.url}/same`, method: 'POST', body: 'a=1', headers })).body.toString(), 'moved here');
    assert.deepEqual(seen, [{ method: 'GET' }, { method: 'GET' }]);
    // On the same host the cookie went along, and the POST stayed a POST through the 307.
    assert.deepEqual(bank.requests.map((r) => [r.method, r.url, r.headers.cookie]), [['GET', '/away', 'session=s3cr3t'], ['POST', '/same', 'session=s3cr3t'], ['POST', '/form', 'session=s3cr3t']]);
  } finally {
    await bank.close();
    await new Promise<void>((resolve) => other.close(() => resolve()));
  }
});
