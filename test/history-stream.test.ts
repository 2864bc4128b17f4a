// Streaming (D16) on a real loopback server: a long range is charged before its first byte, and a
// client that hangs up mid-stream has paid exactly once.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { testApp } from './helpers.js';

test('a client that disconnects mid-stream is charged once, before the first byte', async () => {
  const t = await testApp({ history: true });
  try {
    const { key, accountId } = await t.key({ plan: 'business', points: 10_000 });
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const cost = Math.ceil(10331 / 31);
    const { status, headers } = await new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
      const req = request(`${address}/v1/timeseries/USD?start=1998-01-01&end=2026-04-14&format=ndjson`, { headers: { authorization: key } }, (res) => {
        res.once('data', () => {
          // Hang up after the first chunk.
          req.destroy();
          resolve({ status: res.statusCode!, headers: res.headers });
        });
      });
      req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
      req.end();
    });
    assert.equal(status, 200);
    assert.equal(headers['x-points-cost'], String(cost));
    assert.equal(headers['x-points-remaining'], String(10_000 - cost));
    assert.match(String(headers['content-type']), /^application\/x-ndjson/);
    await new Promise((r) => setTimeout(r, 300));
    // The charge was committed before the headers left: the balance shows one charge, not two, not none.
    assert.equal((await t.store.getAccount(accountId))!.points, 10_000 - cost);
  } finally {
    await t.close();
  }
});
