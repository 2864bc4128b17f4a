// Errors raised before a route runs, at the HTTP level, still come in the D1 envelope.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from './helpers.js';

/** Sends raw bytes and returns the whole answer (the server closes these connections). */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let answer = '';
    socket.on('data', (c) => (answer += c));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('malformed HTTP', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await testApp({ seeded: false });
    port = Number(new URL(await t.app.listen({ host: '127.0.0.1', port: 0 })).port);
  });
  after(() => t.close());

  test('oversized headers get 431 header_too_large in the envelope', async () => {
    const answer = await raw(port, `GET /v1/EUR/latest HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.match(answer, /^HTTP\/1\.1 431 /);
    assert.match(answer, /Cache-Control: no-store/i);
    assert.deepEqual(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)), { code: 431, message: 'request headers are too large', error: 'header_too_large' });
  });

  test('a request that is not HTTP gets 400 bad_request in the envelope', async () => {
    const answer = await raw(port, 'HELLO\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.equal(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error, 'bad_request');
  });
});
