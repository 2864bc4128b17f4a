// The shared HTTP client against a real local server: what it sends, what it retries, what it fails.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startFeedServer, type FeedServer } from '../../test/support/feed-server.js';
import { HttpError, USER_AGENT, createHttpClient } from './http.js';

describe('the shared HTTP client', () => {
  let server: FeedServer;
  /** Per path, the statuses to answer in turn (the last one repeats). */
  const plans: Record<string, number[]> = {};
  const seen: Record<string, number> = {};
  before(async () => {
    server = await startFeedServer((path) => {
      const p = path.split('?')[0]!;
      const n = (seen[p] = (seen[p] ?? 0) + 1);
      const plan = plans[p] ?? [200];
      const status = plan[Math.min(n, plan.length) - 1]!;
      return {
        status,
        body: status === 200 ? `ok after ${n}` : 'no',
        headers: { etag: '"v1"', 'last-modified': 'Mon, 23 Nov 2026 10:00:00 GMT', 'set-cookie': ['a=1; Path=/', 'b=2'], ...(p === '/limited' ? { 'retry-after': '2' } : {}) },
      };
    });
  });
  after(() => server.close());

  const sleeps: number[] = [];
  const http = createHttpClient({ retries: 2, backoffMs: 10, sleep: async (ms) => void sleeps.push(ms) });

  test('sends its User-Agent, the method, headers and body; answers with body, validators and cookies', async () => {
    const r = await http({ url: `${server.url}/plain`, method: 'POST', headers: { 'content-type': 'text/plain', 'x-test': '1' }, body: 'hello' });
    assert.deepEqual({ ...r, body: r.body.toString() }, { status: 200, body: 'ok after 1', etag: '"v1"', lastModified: 'Mon, 23 Nov 2026 10:00:00 GMT', setCookie: ['a=1; Path=/', 'b=2'] });
    const sent = server.requests.at(-1)!;
    assert.equal(sent.headers['user-agent'], USER_AGENT);
    assert.deepEqual([sent.method, sent.headers['x-test'], sent.body], ['POST', '1', 'hello']);
  });

  test('retries 5xx with doubling backoff until it succeeds', async () => {
    plans['/flaky'] = [503, 502, 200];
    sleeps.length = 0;
    const r = await http({ url: `${server.url}/flaky` });
    assert.equal(r.body.toString(), 'ok after 3');
    assert.deepEqual(sleeps, [10, 20]);
  });

  test('retries 429 after the Retry-After the feed asks for', async () => {
    plans['/limited'] = [429, 200];
    sleeps.length = 0;
    assert.equal((await http({ url: `${server.url}/limited` })).body.toString(), 'ok after 2');
    assert.deepEqual(sleeps, [2000]);
  });

  test('gives up after its retries, saying how often it tried', async () => {
    plans['/down'] = [500];
    await assert.rejects(http({ url: `${server.url}/down` }), (err: unknown) => err instanceof HttpError && err.status === 500 && /HTTP 500 .* \(after 3 attempts\)$/.test(err.message));
    assert.equal(seen['/down'], 3);
  });

  test('any other non-2xx is an error at once, with the key redacted from the URL', async () => {
    plans['/missing'] = [404];
    await assert.rejects(http({ url: `${server.url}/missing?api_key=SECRET&x=1` }), (err: unknown) => {
      assert.ok(err instanceof HttpError && err.status === 404);
      assert.ok(!err.message.includes('SECRET') && err.message.includes('api_key=***'), err.message);
      return true;
    });
    assert.equal(seen['/missing'], 1);
  });

  test('a feed that does not answer times out', async () => {
    const { createServer } = await import('node:http');
    // Reads the request, never answers.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const quick = createHttpClient({ retries: 0, timeoutMs: 200 });
      const { port } = silent.address() as import('node:net').AddressInfo;
      await assert.rejects(quick({ url: `http://127.0.0.1:${port}/hang` }), /timed out after 200 ms/);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
