// The connection deadline (src/http/stalled.ts, D33): the sweep's rule on plain records of what a
// connection holds, then a client that stops reading a large answer from the server Kurs listens on
// (laneServer), cut, while its output waited no shorter than the deadline.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { describe, test } from 'node:test';
import { laneServer } from '../src/http/fast-lane.js';
import { StalledWriters, type Watched } from '../src/http/stalled.js';

/** A connection's figures as the sweep reads them; `destroyed` records a cut. */
function conn(writableLength: number, queued = 0): Watched & { writableLength: number; bytesRead: number; bytesWritten: number; destroyed: boolean; _handle: { writeQueueSize: number } } {
  return {
    writableLength,
    bytesRead: 100,
    bytesWritten: 5_000,
    _handle: { writeQueueSize: queued },
    destroyed: false,
    destroy() {
      this.destroyed = true;
    },
  };
}

describe('the stalled-writer sweep', () => {
  test('a connection whose waiting output does not move is cut once it has waited the deadline, not before', () => {
    const sweep = new StalledWriters(3_000);
    const c = conn(64_000, 200_000);
    assert.deepEqual(sweep.sweep([c], 10_000), []);
    assert.deepEqual(sweep.sweep([c], 12_999), []);
    assert.equal(c.destroyed, false);
    assert.deepEqual(sweep.sweep([c], 13_000), [c]);
    assert.equal(c.destroyed, true);
  });

  test('output that moves (the client reads, or the server writes more) starts the wait again', () => {
    const sweep = new StalledWriters(3_000);
    const c = conn(0, 200_000);
    sweep.sweep([c], 0);
    c._handle.writeQueueSize = 150_000; // the client read some
    sweep.sweep([c], 2_000);
    c.bytesWritten += 65_536; // the server wrote more
    sweep.sweep([c], 4_000);
    c.bytesRead += 40; // the client sent a request
    sweep.sweep([c], 6_000);
    assert.deepEqual(sweep.sweep([c], 8_999), []);
    assert.deepEqual(sweep.sweep([c], 9_000), [c]);
  });

  test('a connection with nothing waiting is never cut, however long it stays (idle ones are the keep-alive timeout\'s)', () => {
    const sweep = new StalledWriters(3_000);
    const idle = conn(0, 0);
    for (let at = 0; at <= 60_000; at += 1_000) assert.deepEqual(sweep.sweep([idle], at), []);
    assert.equal(idle.destroyed, false);
  });

  test('output that drained and waits again later is timed from the later wait', () => {
    const sweep = new StalledWriters(3_000);
    const c = conn(10, 0);
    sweep.sweep([c], 0);
    c.writableLength = 0;
    sweep.sweep([c], 2_000);
    c.writableLength = 10;
    sweep.sweep([c], 4_000);
    assert.deepEqual(sweep.sweep([c], 6_999), []);
    assert.deepEqual(sweep.sweep([c], 7_000), [c]);
  });
});

/** A body larger than loopback's socket buffers on both sides (several MB each, autotuned). */
const LARGE = Buffer.alloc(64 * 1024 * 1024, 0x61);
const DEADLINE_MS = 1_500;

describe('laneServer cuts a client that stops reading', () => {
  test('the connection is cut, not before its answer had waited the deadline, and its answer never arrives whole; a reading client gets all of it', { timeout: 60_000 }, async () => {
    let began = 0;
    const serve = (_req: IncomingMessage, res: ServerResponse) => {
      began = Date.now();
      res.writeHead(200, { 'content-length': String(LARGE.length) });
      res.end(LARGE);
    };
    const server = laneServer({ keepAliveTimeout: 72_000, requestTimeout: 1_000, connectionTimeout: DEADLINE_MS }, () => undefined, serve);
    const accepted: Socket[] = [];
    server.on('connection', (s: Socket) => accepted.push(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      // The reading client first: 64 MB arrive in full on the same server.
      const whole = await new Promise<number>((resolve, reject) => {
        const s = connect(port, '127.0.0.1', () => s.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
        let n = 0;
        s.on('data', (c: Buffer) => (n += c.length));
        s.on('error', reject);
        s.on('close', () => resolve(n));
      });
      assert.ok(whole > LARGE.length, `the reading client got ${whole} bytes`);

      // Then one that asks and never reads.
      const next = accepted.length;
      const client = connect(port, '127.0.0.1');
      client.on('error', () => undefined);
      client.pause();
      client.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      while (accepted.length === next) await new Promise((r) => setTimeout(r, 10));
      const socket = accepted[next]!;
      const closedAt = await new Promise<number>((r) => socket.once('close', () => r(Date.now())));
      // Checked from below only: a cut before the deadline is a bug, a later one a busy machine.
      assert.ok(closedAt - began >= DEADLINE_MS, `cut ${closedAt - began} ms after its answer began`);
      // Read now, the client finds only what the socket buffers held when it was cut: not the answer.
      const got = await new Promise<number>((resolve) => {
        let n = 0;
        client.on('data', (c: Buffer) => (n += c.length));
        client.on('close', () => resolve(n));
        client.resume();
      });
      assert.ok(got < LARGE.length, `the stalled client still got ${got} bytes`);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
