// HTTP as browsers and tools expect it (issue 16, item 6): CORS preflights answered without a key
// and free, exposed headers, HEAD wherever GET is and charged like it, and 405 answers derived from
// the registered routes. The browser part runs a page on one loopback origin calling Kurs on another.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { ConfigError, loadConfig } from '../src/config.js';
import { testApp, type TestApp } from './helpers.js';
import { launchChromium, skip } from './support/browser.js';

const ORIGIN = 'http://app.example';

describe('CORS and HEAD through inject', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await testApp();
    key = (await t.key({ plan: 'business', points: 100 })).key;
  });
  after(() => t.close());

  test('a preflight is 204 without a key, names the methods and headers, and costs nothing', async () => {
    const res = await t.app.inject({ method: 'OPTIONS', url: '/v1/EUR/latest', headers: { origin: ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(res.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS');
    assert.match(String(res.headers['access-control-allow-headers']), /Authorization/);
    assert.equal(res.headers['access-control-allow-credentials'], undefined, 'the key is the credential: no cookies');
    assert.equal(res.headers['x-points-cost'], undefined);
    const convert = await t.app.inject({ method: 'OPTIONS', url: '/v1/rates/convert', headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } });
    assert.equal(convert.headers['access-control-allow-methods'], 'POST, OPTIONS');
    assert.equal((await t.store.getAccount((await t.store.listAccounts())[0]!.id))?.points, 100);
  });

  test('a keyed answer to another origin exposes the points, cache and back-off headers', async () => {
    const res = await t.app.inject({ url: '/v1/EUR/latest', headers: { origin: ORIGIN, authorization: key } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['access-control-allow-origin'], '*');
    const exposed = String(res.headers['access-control-expose-headers']).split(', ');
    for (const h of ['X-Points-Cost', 'X-Points-Remaining', 'ETag', 'Last-Modified', 'Retry-After']) assert.ok(exposed.includes(h), h);
    const denied = await t.app.inject({ url: '/v1/EUR/latest', headers: { origin: ORIGIN } });
    assert.equal(denied.statusCode, 401);
    assert.equal(denied.headers['access-control-allow-origin'], '*', 'a browser app can read why it was refused');
  });

  test('the admin API gets no CORS headers; a plain OPTIONS is a 405 in the envelope', async () => {
    const plain = await t.app.inject({ method: 'OPTIONS', url: '/v1/EUR/latest' });
    assert.equal(plain.statusCode, 405);
    assert.equal(plain.json().error, 'method_not_allowed');
    assert.equal(plain.headers.allow, 'GET, HEAD');
    const unknown = await t.app.inject({ method: 'OPTIONS', url: '/v2/nothing', headers: { origin: ORIGIN, 'access-control-request-method': 'GET' } });
    assert.equal(unknown.statusCode, 404);
  });

  test('HEAD answers where GET does, with the GET\'s headers and no body, charged like the GET', async () => {
    const get = await t.app.inject({ url: '/v1/rate/EUR/USD', headers: { authorization: key } });
    const head = await t.app.inject({ method: 'HEAD', url: '/v1/rate/EUR/USD', headers: { authorization: key } });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    assert.equal(head.headers.etag, get.headers.etag);
    assert.equal(head.headers['content-length'], get.headers['content-length']);
    assert.equal(head.headers['x-points-cost'], '1');
    assert.equal(Number(head.headers['x-points-remaining']), Number(get.headers['x-points-remaining']) - 1);
    const revalidated = await t.app.inject({ method: 'HEAD', url: '/v1/rate/EUR/USD', headers: { authorization: key, 'if-none-match': String(get.headers.etag) } });
    assert.equal(revalidated.statusCode, 304);
    assert.equal(revalidated.headers['x-points-cost'], '0');
    for (const url of ['/', '/healthz', '/status', '/openapi.json']) assert.equal((await t.app.inject({ method: 'HEAD', url })).statusCode, 200, url);
  });

  test('a route added later answers 405, not 404, to a wrong method without being listed anywhere else', async () => {
    const fresh = await testApp();
    try {
      assert.equal((await fresh.app.inject({ method: 'DELETE', url: '/v1/currencies' })).statusCode, 405);
      assert.equal((await fresh.app.inject({ method: 'PUT', url: '/v1/rate/EUR/USD/sources' })).headers.allow, 'GET, HEAD');
      assert.equal((await fresh.app.inject({ method: 'DELETE', url: '/docs/json' })).statusCode, 405);
    } finally {
      await fresh.close();
    }
  });
});

describe('KURS_CORS_ORIGINS', () => {
  test('is read as * (the default) or a comma-separated list of origins; a path or a bare host stops the boot', () => {
    assert.equal(loadConfig({}).corsOrigins, '*');
    assert.deepEqual(loadConfig({ KURS_CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).corsOrigins, ['https://app.example.com', 'http://localhost:5173']);
    assert.throws(() => loadConfig({ KURS_CORS_ORIGINS: 'https://app.example.com/path,app.example.com' }), (e: unknown) => e instanceof ConfigError && e.problems.length === 2);
  });

  test('only the listed origins are allowed, and answers vary by Origin', async () => {
    const t = await testApp({ corsOrigins: [ORIGIN] });
    try {
      const ok = await t.app.inject({ url: '/healthz', headers: { origin: ORIGIN } });
      assert.equal(ok.headers['access-control-allow-origin'], ORIGIN);
      assert.match(String(ok.headers.vary), /Origin/);
      assert.match(String((await t.app.inject({ url: '/healthz' })).headers.vary), /Origin/, 'a cache keeps the answers apart');
      const other = await t.app.inject({ url: '/healthz', headers: { origin: 'http://evil.example' } });
      assert.equal(other.headers['access-control-allow-origin'], undefined);
      const preflight = await t.app.inject({ method: 'OPTIONS', url: '/v1/EUR/latest', headers: { origin: 'http://evil.example', 'access-control-request-method': 'GET' } });
      assert.equal(preflight.statusCode, 204);
      assert.equal(preflight.headers['access-control-allow-origin'], undefined);
    } finally {
      await t.close();
    }
  });
});

/** The "app" origin: a bare page on its own loopback port. */
function pageServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>'));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

describe('cross-origin calls from a real browser page', { skip }, () => {
  let t: TestApp;
  let restricted: TestApp;
  let page: { server: Server; url: string };
  let browser: Browser;
  let kurs: string;
  let kursRestricted: string;
  let key: string;
  before(async () => {
    page = await pageServer();
    t = await testApp();
    restricted = await testApp({ corsOrigins: ['http://somewhere.else'] });
    key = (await t.key({ plan: 'business', points: 100 })).key;
    kurs = await t.app.listen({ host: '127.0.0.1', port: 0 });
    kursRestricted = await restricted.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t.close();
    await restricted.close();
    page.server.close();
  });

  test('a page on another origin calls /v1 with its key, reads the points, and HEADs a pair', async () => {
    const tab = await (await browser.newContext()).newPage();
    await tab.goto(page.url);
    const seen = await tab.evaluate(async ([base, apiKey]) => {
      const get = await fetch(`${base}/v1/EUR/latest`, { headers: { Authorization: apiKey! } });
      const body = (await get.json()) as { rates: Record<string, number> };
      const head = await fetch(`${base}/v1/rate/EUR/USD`, { method: 'HEAD', headers: { Authorization: apiKey! } });
      return { status: get.status, eur: body.rates.EUR, remaining: get.headers.get('x-points-remaining'), etag: get.headers.get('etag'), headStatus: head.status, headRemaining: head.headers.get('x-points-remaining'), headBody: await head.text() };
    }, [kurs, key]);
    assert.deepEqual({ ...seen, etag: typeof seen.etag }, { status: 200, eur: 1, remaining: '99', etag: 'string', headStatus: 200, headRemaining: '98', headBody: '' });
  });

  test('an origin that is not listed is blocked by the browser', async () => {
    const tab = await (await browser.newContext()).newPage();
    await tab.goto(page.url);
    const outcome = await tab.evaluate(async (base) => fetch(`${base}/healthz`).then((r) => `status ${r.status}`, (e: Error) => `blocked: ${e.name}`), kursRestricted);
    assert.equal(outcome, 'blocked: TypeError');
  });
});
