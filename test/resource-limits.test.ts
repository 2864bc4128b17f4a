// Resource limits over raw sockets: the body limit, slowloris clients cut at the headers deadline
// while others are served, a stalled body cut at the request deadline, and the concurrency cap.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Limits } from '../src/config.js';
import { testApp, type TestApp } from './helpers.js';

const LIMITS: Limits = { maxConcurrent: 256, headersTimeoutMs: 1_000, requestTimeoutMs: 2_000, shutdownTimeoutMs: 1_000 };
/**
 * Deadlines are checked from below only: a connection cut before its deadline is a bug, one cut later
 * is a busy machine (Node sweeps once a second, src/http/limits.ts). That it is cut at all is proved by
 * its close (the trickle would go on for ever); the test's own timeout bounds a hang.
 */
const TEST_TIMEOUT = { timeout: 60_000 };

interface Conn {
  socket: Socket;
  opened: number;
  closed: Promise<{ at: number; answer: string }>;
}

function open(port: number, first: string): Promise<Conn> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (c) => (answer += c));
    socket.on('error', () => undefined);
    const closed = new Promise<{ at: number; answer: string }>((done) => socket.on('close', () => done({ at: Date.now(), answer })));
    socket.once('connect', () => {
      socket.write(first);
      resolve({ socket, opened: Date.now(), closed });
    });
    socket.once('error', reject);
  });
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: number; error: string };

async function listening(limits: Limits): Promise<{ t: TestApp; port: number; key: string }> {
  const t = await testApp({ limits });
  const { key } = await t.key({ plan: 'business', points: 1_000 });
  const port = Number(new URL(await t.app.listen({ host: '127.0.0.1', port: 0 })).port);
  return { t, port, key };
}

describe('resource limits', () => {
  let t: TestApp;
  let port: number;
  let key: string;
  before(async () => ({ t, port, key } = await listening(LIMITS)));
  after(() => t.close());

  test('a body over 64 KB is refused with 413 payload_too_large', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/rates/convert`, {
      method: 'POST',
      headers: { authorization: key, 'content-type': 'application/json' },
      body: JSON.stringify({ base: 'EUR', targets: ['USD'], pad: 'x'.repeat(70_000) }),
    });
    assert.equal(res.status, 413);
    assert.equal((await res.json()).error, 'payload_too_large');
  });

  test('slowloris: 60 trickling clients are cut at the headers deadline while others are served', TEST_TIMEOUT, async () => {
    const slow = await Promise.all(Array.from({ length: 60 }, () => open(port, 'GET /v1/EUR/latest HTTP/1.1\r\nHost: x\r\n')));
    const trickle = setInterval(() => {
      for (const c of slow) if (!c.socket.destroyed) c.socket.write('X-a: b\r\n');
    }, 100);
    try {
      let cut = 0;
      for (const c of slow) void c.closed.then(() => cut++);
      const res = await fetch(`http://127.0.0.1:${port}/v1/EUR/latest`, { headers: { authorization: key } });
      assert.equal(res.status, 200);
      // Served while every slow client still held its connection, not after they were cut.
      assert.equal(cut, 0, 'a good client waited behind the slow ones');
      const ends = await Promise.all(slow.map((c) => c.closed));
      for (const [i, end] of ends.entries()) {
        const lasted = end.at - slow[i]!.opened;
        assert.ok(lasted >= LIMITS.headersTimeoutMs - 100, `a slow client lasted ${lasted} ms`);
        assert.match(end.answer, /^HTTP\/1\.1 408 /);
        assert.deepEqual(bodyOf(end.answer), { code: 408, message: 'the request was not received in time', error: 'request_timeout' });
      }
    } finally {
      clearInterval(trickle);
    }
  });

  test('a client that connects and says nothing is cut too', TEST_TIMEOUT, async () => {
    const silent = await open(port, '');
    const end = await silent.closed;
    assert.ok(end.at - silent.opened >= LIMITS.headersTimeoutMs - 100, `lasted ${end.at - silent.opened} ms`);
    assert.match(end.answer, /^HTTP\/1\.1 408 /);
  });

  test('a body that stalls half-way is cut at the request deadline with 408', TEST_TIMEOUT, async () => {
    const c = await open(port, `POST /v1/rates/convert HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"base":`);
    const end = await c.closed;
    const lasted = end.at - c.opened;
    assert.ok(lasted >= LIMITS.requestTimeoutMs - 100, `lasted ${lasted} ms`);
    assert.equal(bodyOf(end.answer).error, 'request_timeout');
  });
});

describe('concurrency cap', () => {
  let t: TestApp;
  let port: number;
  let key: string;
  before(async () => ({ t, port, key } = await listening({ ...LIMITS, maxConcurrent: 2 })));
  after(() => t.close());

  test('beyond the cap a request gets 503 unavailable; once the others finish it is served again', async () => {
    const body = '{"base":"EUR","targets":["USD","JPY"]}';
    const head = `POST /v1/rates/convert HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    // Two requests in flight: headers sent, body held back.
    const held = await Promise.all([open(port, head + body.slice(0, 10)), open(port, head + body.slice(0, 10))]);
    // Until the server has read both held requests' headers a request still gets in (and is served).
    let refused: Response;
    do refused = await fetch(`http://127.0.0.1:${port}/v1/EUR/latest`, { headers: { authorization: key } });
    while (refused.status === 200);
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.equal(refused.headers.get('x-points-cost'), null, 'refused before the key was looked at');
    assert.deepEqual(await refused.json(), { code: 503, message: 'the server is at its limit of concurrent requests; retry shortly', error: 'unavailable' });
    const before = (await t.store.listAccounts()).reduce((sum, a) => sum + a.points, 0);
    for (const c of held) c.socket.write(body.slice(10));
    for (const c of held) assert.match((await c.closed).answer, /^HTTP\/1\.1 200 /);
    const ok = await fetch(`http://127.0.0.1:${port}/v1/EUR/latest`, { headers: { authorization: key } });
    assert.equal(ok.status, 200);
    assert.equal((await t.store.listAccounts()).reduce((sum, a) => sum + a.points, 0), before - 3, 'the two held requests and the last one are charged, the refused one is not');
  });
});
