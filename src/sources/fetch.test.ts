import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startFeedServer, type FeedServer } from '../../test/support/feed-server.js';
import { fetchSource, MAX_FOLLOW_DEPTH, nextCookie } from './fetch.js';
import { linkOn, hiddenFields, postBack } from './follow.js';
import { createHttpClient } from './http.js';
import type { FeedRequest, FollowedPage, Source } from './types.js';

const WINDOW = { from: '2026-03-02', to: '2026-03-06' };
const http = createHttpClient({ retries: 0 });

/** A source whose pages link onward `hops` times before the data, each hop carrying the page's cookie. */
function chain(hops: number, overrides: Partial<Source> = {}): Source {
  return {
    code: 'TEST', name: 'Test', countryCode: 'XX', countryName: 'Test', currency: 'EUR', cadence: 'daily', schedule: '0 * * * *',
    publishedAtUtc: '12:00:00', feedUrl: 'https://bank.example/', baseUrl: 'https://bank.example', termsUrl: 'https://bank.example/terms', terms: 'unknown',
    accepts: () => true,
    parse: () => [],
    requests: (_w, ctx) => [{ url: `${ctx.base}/page/0`, follow: true }],
    follow: (page: FollowedPage, _w, ctx): FeedRequest[] => {
      const n = Number(page.url.split('/').pop());
      const next = n + 1 < hops ? { url: `${ctx.base}/page/${n + 1}`, follow: true } : { url: `${ctx.base}/data`, name: `data after ${page.body.toString()}` };
      return [{ ...next, ...(page.cookie ? { headers: { cookie: page.cookie } } : {}) }];
    },
    ...overrides,
  };
}

describe('fetchSource with follow steps', () => {
  let server: FeedServer;
  before(async () => {
    server = await startFeedServer((path) => {
      const page = /^\/page\/(\d+)$/.exec(path)?.[1];
      if (page !== undefined) return { body: `page ${page}`, headers: { 'set-cookie': [`step=${page}; path=/`, `s${page}=1; HttpOnly`] } };
      return path === '/data' ? { body: 'rates' } : undefined;
    });
  });
  after(() => server.close());

  test('hands each page to follow and only the final answers to parse, carrying cookies across hops', async () => {
    const before = server.requests.length;
    const payloads = await fetchSource(chain(2), WINDOW, { base: server.url }, http);
    assert.deepEqual(payloads.map((p) => [p.name, p.body.toString()]), [['data after page 1', 'rates']]);
    const sent = server.requests.slice(before);
    assert.deepEqual(sent.map((r) => r.url), ['/page/0', '/page/1', '/data']);
    assert.equal(sent[1]!.headers.cookie, 'step=0; s0=1');
    // The second page's cookies update the first's: step replaced, s0 kept.
    assert.equal(sent[2]!.headers.cookie, 'step=1; s0=1; s1=1');
  });

  test(`stops after ${MAX_FOLLOW_DEPTH} pages in a row instead of following for ever`, async () => {
    await assert.rejects(fetchSource(chain(MAX_FOLLOW_DEPTH + 1), WINDOW, { base: server.url }, http), /more than 3 pages followed/);
    assert.equal((await fetchSource(chain(MAX_FOLLOW_DEPTH), WINDOW, { base: server.url }, http)).length, 1);
  });

  test('a page to follow on a source without a follow step is an error, not a payload', async () => {
    await assert.rejects(fetchSource(chain(1, { follow: undefined }), WINDOW, { base: server.url }, http), /has no follow step/);
  });

  test('a missing page is an HTTP error unless optional', async () => {
    const missing = chain(1, { requests: (_w, ctx) => [{ url: `${ctx.base}/nowhere`, follow: true }] });
    await assert.rejects(fetchSource(missing, WINDOW, { base: server.url }, http), /HTTP 404/);
    const optional = chain(1, { requests: (_w, ctx) => [{ url: `${ctx.base}/nowhere`, follow: true, optional: true }] });
    assert.deepEqual(await fetchSource(optional, WINDOW, { base: server.url }, http), []);
  });
});

describe('follow helpers', () => {
  const page: FollowedPage = { name: 'p', url: 'http://127.0.0.1:9/en/rates/page.aspx', body: Buffer.alloc(0), cookie: 'sid=1' };

  test('nextCookie merges Set-Cookie over the cookies sent, attributes dropped', () => {
    assert.equal(nextCookie(undefined, []), undefined);
    assert.equal(nextCookie('a=1; b=2', ['b=3; Path=/; HttpOnly', 'c=x=y; Secure']), 'a=1; b=3; c=x=y');
  });

  test('hiddenFields reads named hidden inputs in order, entities decoded, within a scope', () => {
    const html = '<input type="hidden" name="out" value="0"><form id="f"><input type="HIDDEN" name="__VIEWSTATE" value="a&amp;b"><input type="text" name="t"><input type="hidden" value="noname"><input type="hidden" name="e"></form>';
    assert.deepEqual(hiddenFields(html, 'form#f'), [['__VIEWSTATE', 'a&b'], ['e', '']]);
    assert.deepEqual(hiddenFields(html).map(([n]) => n), ['out', '__VIEWSTATE', 'e']);
  });

  test('postBack keeps the page fields in place, fills the given ones, adds the rest, sends cookie and referer', () => {
    const r = postBack(page, 'http://127.0.0.1:9/post', [['b', 'B'], ['c', '1'], ['c', '2']], [['a', 'x'], ['b', '']]);
    assert.equal(r.body, 'a=x&b=B&c=1&c=2');
    assert.deepEqual(r.headers, { 'content-type': 'application/x-www-form-urlencoded', referer: page.url, cookie: 'sid=1' });
  });

  test("linkOn resolves a link and moves the bank's own host (with or without www.) onto the base", () => {
    const ctx = { base: 'http://127.0.0.1:9/RBFJ' };
    assert.equal(linkOn('https://www.rbf.gov.fj/wp-content/a b.xlsx', page, 'https://www.rbf.gov.fj', ctx), 'http://127.0.0.1:9/RBFJ/wp-content/a%20b.xlsx');
    assert.equal(linkOn('https://rbf.gov.fj/x?y=1', page, 'https://www.rbf.gov.fj', ctx), 'http://127.0.0.1:9/RBFJ/x?y=1');
    // Relative and server-relative links resolve as on the bank's own page, then move onto the base.
    const onBase = { ...page, url: 'http://127.0.0.1:9/RBFJ/en/rates/page.aspx' };
    assert.equal(linkOn('file.xlsx', onBase, 'https://www.rbf.gov.fj', ctx), 'http://127.0.0.1:9/RBFJ/en/rates/file.xlsx');
    assert.equal(linkOn('/Lists/a.pdf', onBase, 'https://www.rbf.gov.fj', ctx), 'http://127.0.0.1:9/RBFJ/Lists/a.pdf');
    assert.equal(linkOn('/Lists/a.pdf', onBase, 'https://www.rbf.gov.fj', { base: 'http://127.0.0.1:9/RBFJ/' }), 'http://127.0.0.1:9/RBFJ/Lists/a.pdf');
    assert.equal(linkOn('https://cdn.example/file.xlsx', page, 'https://www.rbf.gov.fj', ctx), 'https://cdn.example/file.xlsx');
    assert.equal(linkOn('https://apim.bccr.fi.cr/SDDE/api/T/x', page, 'https://apim.bccr.fi.cr/SDDE/api', ctx), 'http://127.0.0.1:9/RBFJ/T/x');
  });
});
