// Caching (issue 6.8): rate responses carry an ETag and Cache-Control; a matching If-None-Match is a
// free 304 that still reports the points; cached bodies carry a tag hashed once, sent byte for byte.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { entityTag } from '../src/http/bodies/entity.js';
import { latestBody } from '../src/http/bodies/latest.js';
import { testApp, type TestApp } from './helpers.js';

describe('ETag and conditional GET on the API', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await testApp();
    ({ key } = await t.key({ plan: 'business', points: 1000 }));
  });
  after(() => t.close());
  const get = (url: string, headers: Record<string, string> = {}, k = key) => t.app.inject({ method: 'GET', url, headers: { authorization: k, ...headers } });

  test('a cached /latest body is sent as cached, with the tag hashed once alongside it', async () => {
    const cached = latestBody(t.market.current.rates, 'EUR')!;
    assert.equal(latestBody(t.market.current.rates, 'EUR'), cached, 'the table hands out one Entity per base');
    const res = await get('/v1/EUR/latest');
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, cached.body, 'the pre-serialized body went out byte for byte');
    assert.equal(res.headers.etag, cached.etag);
    assert.equal(res.headers.etag, entityTag(res.body));
    assert.equal(res.headers['cache-control'], 'private, no-cache');
    assert.equal(res.headers['x-points-cost'], '1');
  });

  test('a matching If-None-Match answers 304 with no body, costs no points and keeps the validators', async () => {
    const first = await get('/v1/rate/EUR/USD');
    assert.equal(first.statusCode, 200);
    const balance = Number(first.headers['x-points-remaining']);
    const etag = String(first.headers.etag);
    for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const res = await get('/v1/rate/EUR/USD', { 'if-none-match': inm });
      assert.equal(res.statusCode, 304, inm);
      assert.equal(res.body, '');
      assert.equal(res.headers['x-points-cost'], '0');
      assert.equal(res.headers['x-points-remaining'], String(balance));
      assert.equal(res.headers.etag, etag);
      assert.equal(res.headers['cache-control'], 'private, no-cache');
      assert.equal(res.headers['last-modified'], first.headers['last-modified']);
    }
    const changed = await get('/v1/rate/EUR/USD', { 'if-none-match': '"something-else"' });
    assert.equal(changed.statusCode, 200);
    assert.equal(changed.headers['x-points-cost'], '1');
    assert.equal(changed.headers['x-points-remaining'], String(balance - 1));
  });

  test('each endpoint and variant has its own tag, stable across requests', async () => {
    const urls = ['/v1/EUR/latest', '/v1/USD/latest', '/v1/EUR/latest?amount=2', '/v1/rate/EUR/USD', '/v1/rate/EUR/USD?amount=3',
      '/v1/rate/EUR/USD/sources', '/v1/bank/ECBF', '/v1/bank/ECBF?format=full', '/v1/bank/ECBF?reciprocal=true', '/v1/banks', '/v1/currencies'];
    const tags = new Set<string>();
    for (const url of urls) {
      const [a, b] = [await get(url), await get(url)];
      assert.equal(a.statusCode, 200, url);
      assert.equal(a.headers.etag, b.headers.etag, url);
      if (url.includes('amount=')) {
        // Amount-dependent answers: the amount-less answer's digest plus the amount (RFC 9110 etagc).
        assert.match(String(a.headers.etag), /^"[A-Za-z0-9_-]{27}\.[0-9.e+-]+"$/, url);
      } else {
        assert.match(String(a.headers.etag), /^"[A-Za-z0-9_-]{27}"$/, url);
        if (!url.startsWith('/v1/rate/EUR/USD')) assert.equal(a.headers.etag, entityTag(a.body), url);
      }
      tags.add(String(a.headers.etag));
    }
    assert.equal(tags.size, urls.length);
  });

  test('an amount-dependent tag changes with the amount and only with it', async () => {
    const tag = async (url: string) => String((await get(url)).headers.etag);
    for (const path of ['/v1/rate/EUR/USD', '/v1/EUR/latest']) {
      assert.equal(await tag(`${path}?amount=2.50`), await tag(`${path}?amount=2.5`), path);
      assert.notEqual(await tag(`${path}?amount=2.5`), await tag(`${path}?amount=2.51`), path);
      assert.notEqual(await tag(`${path}?amount=1`), await tag(path), path);
    }
    assert.notEqual(await tag('/v1/rate/EUR/USD?amount=3'), await tag('/v1/rate/EUR/GBP?amount=3'));
  });

  test('an empty balance still gets its free 304, and the 402 carries no validators', async () => {
    const { key: poor } = await t.key({ plan: 'business', points: 0 });
    const etag = String((await get('/v1/banks')).headers.etag);
    const notModified = await get('/v1/banks', { 'if-none-match': etag }, poor);
    assert.equal(notModified.statusCode, 304);
    assert.equal(notModified.headers['x-points-remaining'], '0');
    const refused = await get('/v1/banks', {}, poor);
    assert.equal(refused.statusCode, 402);
    assert.equal(refused.json().error, 'points_exhausted');
    assert.equal(refused.headers.etag, undefined);
    assert.equal(refused.headers['cache-control'], 'no-store');
  });

  test('errors and POST answers carry no ETag; a 304 needs a valid key first', async () => {
    const bad = await get('/v1/rate/EUR/XXX');
    assert.equal(bad.statusCode, 422);
    assert.equal(bad.headers.etag, undefined);
    const post = await t.app.inject({ method: 'POST', url: '/v1/rates/convert', headers: { authorization: key, 'if-none-match': '*' }, payload: { base: 'EUR', targets: ['USD'] } });
    assert.equal(post.statusCode, 200);
    assert.equal(post.headers.etag, undefined);
    assert.equal(post.headers['cache-control'], 'private');
    const anonymous = await t.app.inject({ method: 'GET', url: '/v1/banks', headers: { 'if-none-match': '*' } });
    assert.equal(anonymous.statusCode, 401);
  });
});
