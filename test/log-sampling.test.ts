// Request lines sampled (KURS_LOG_SAMPLE), through the fast lane and through Fastify's path alike.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { testApp } from './helpers.js';

// KURS_LOG_SAMPLE: one counter for both paths; errors always get a line, sampled lines say how many
// requests each stands for, and the metrics still count every request.
for (const fastLane of [true, false]) {
  test(`request lines are sampled alike with the lane ${fastLane ? 'on' : 'off'}: 1 in 3 successful, every error`, async () => {
    const t = await testApp({ fastLane, keyCache: { ttlMs: 600_000 }, logSample: 3 });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      const { key } = await t.key({ plan: 'business', points: 1000 });
      const statuses = [];
      for (const path of ['/v1/USD/latest', '/v1/USD/latest', '/v1/XXX/latest', '/v1/rate/EUR/USD?amount=2', '/v1/USD/latest', '/v1/USD/latest', '/v1/USD/latest', '/v1/USD/latest']) {
        statuses.push((await fetch(`${url}${path}`, { headers: { authorization: key } })).status);
      }
      assert.deepEqual(statuses, [200, 200, 422, 200, 200, 200, 200, 200]);
      // Log lines are written in batches: read until the three expected have come (or 30 s went by).
      const logged = () => t.logs.flatMap((l) => l.split('\n')).filter((l) => l.includes('"msg":"request"'));
      for (const deadline = Date.now() + 30_000; logged().length < 3 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
      const lines = logged().map((l) => JSON.parse(l) as Record<string, unknown>);
      // Seven 200s: the 3rd and the 6th get a line, each standing for three; the 422 gets its own.
      assert.deepEqual(
        lines.map((l) => [l.url, l.status, l.sample]),
        [
          ['/v1/XXX/latest', 422, undefined],
          ['/v1/rate/EUR/USD?amount=2', 200, 3],
          ['/v1/USD/latest', 200, 3],
        ],
      );
      const counted = (await (await fetch(`${url}/metrics`)).text()).split('\n').filter((l) => l.startsWith('kurs_http_requests_total') && l.includes('/v1/'));
      assert.equal(counted.reduce((n, l) => n + Number(l.split(' ').pop()), 0), 8, 'the metrics count every request');
    } finally {
      await t.close();
    }
  });
}
