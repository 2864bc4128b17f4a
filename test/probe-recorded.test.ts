// `kurs sources --probe` over every recorded payload (issue 35): a local server holding them all
// (test/support/replay-feed.ts, the player live-e2e.test.ts uses: form sessions and tokens included)
// plays every publisher, and each source's probe parses figures from what it was sent.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { probeSource, probeSummary, type ProbeResult } from '../src/ingest/probe.js';
import { createHttpClient } from '../src/sources/http.js';
import { SOURCES } from '../src/sources/index.js';
import { FIXTURES_ROOT } from './support/fixtures.js';
import type { FeedServer } from './support/feed-server.js';
import { dayAfterRecordings, replayable, startReplayFeed } from './support/replay-feed.js';


let feeds: FeedServer;
before(async () => {
  feeds = await startReplayFeed();
});
after(() => feeds.close());

test('every source with recordings parses figures from them through its own requests, form sessions and per-day tokens included', async () => {
  const recorded = SOURCES.filter((s) => existsSync(new URL(`${s.code}/`, FIXTURES_ROOT)));
  assert.ok(recorded.length >= 90, `${recorded.length} sources with recordings`);
  const config = { sourceUrls: Object.fromEntries(recorded.map((s) => [s.code, `${feeds.url}/${s.code}`])), sourceKeys: Object.fromEntries(recorded.map((s) => [s.code, 'test-key'])) };
  // A long timeout: a large workbook parsed in this process blocks the replay server meanwhile.
  const http = createHttpClient({ retries: 0, timeoutMs: 180_000 });
  const results: ProbeResult[] = [];
  // Each probed on the evening after its newest recording, so that "today's" request asks for what
  // the recordings hold (a year, a month, a date), and without per-currency requests for currencies
  // nobody recorded (replayable).
  for (const s of recorded) {
    const at = await dayAfterRecordings(s);
    results.push(await probeSource({ http, config, now: () => at, timeoutMs: 10_000 }, replayable(s)));
  }
  const failed = results.filter((r) => r.outcome !== 'parsed').map((r) => `${r.source}: ${r.error}`);
  assert.deepEqual(failed, []);
  for (const r of results) {
    assert.ok(r.figures > 0 && r.bytes > 0 && r.http_status === 200 && r.tls === 'http', `${r.source}: ${JSON.stringify(r)}`);
    assert.match(r.newest_date ?? '', /^\d{4}-\d{2}-\d{2}$/, r.source);
  }
  assert.equal(probeSummary(results), `probed ${recorded.length} sources: ${recorded.length} parsed, 0 failed`);
});
