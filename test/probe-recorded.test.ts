// `kurs sources --probe` over every recorded payload (issue 35): a local server holding them all
// (test/support/replay-feed.ts) plays every publisher, and each source's probe parses figures from
// what it was sent. The replay picks a file by the words of the request; the few sources whose
// feeds want a form page's session first, or tell two formats apart by a request header, are
// played faithfully by live-e2e.test.ts instead, and here only have to fail as unreadable, not hang.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { probeSource, probeSummary, type ProbeResult } from '../src/ingest/probe.js';
import { createHttpClient } from '../src/sources/http.js';
import { SOURCES } from '../src/sources/index.js';
import { FIXTURES_ROOT } from './support/fixtures.js';
import type { FeedServer } from './support/feed-server.js';
import { startReplayFeed } from './support/replay-feed.js';

/** Form sessions (BCCR, CBEG, MASG, NBSR, PMAP), a header-chosen format (BCCG), a page that names
 *  its file (BCPA): see STEP_PAGES and FILE_FOR in live-e2e.test.ts. */
const PLAYED_ELSEWHERE = ['BCCG', 'BCCR', 'BCPA', 'CBEG', 'MASG', 'NBSR', 'PMAP'];
/** Feeds asked for today's month, which no recording holds: the replay sends the nearest file (a
 *  recorded 404 body, a month without a publication), which parses to no figures. */
const NOTHING_FOR_TODAY = ['HMRC', 'PHCB'];

let feeds: FeedServer;
before(async () => {
  feeds = await startReplayFeed();
});
after(() => feeds.close());

test('every source with recordings parses figures from them through its own requests', async () => {
  const recorded = SOURCES.filter((s) => existsSync(new URL(`${s.code}/`, FIXTURES_ROOT)));
  assert.ok(recorded.length >= 90, `${recorded.length} sources with recordings`);
  const config = { sourceUrls: Object.fromEntries(recorded.map((s) => [s.code, `${feeds.url}/${s.code}`])), sourceKeys: Object.fromEntries(recorded.map((s) => [s.code, 'test-key'])) };
  // A long timeout: a large workbook parsed in this process blocks the replay server meanwhile.
  const deps = { http: createHttpClient({ retries: 0, timeoutMs: 180_000 }), config, now: () => new Date(), timeoutMs: 10_000 };
  const results: ProbeResult[] = [];
  for (const s of recorded) results.push(await probeSource(deps, s));
  for (const r of results) {
    if (PLAYED_ELSEWHERE.includes(r.source)) {
      assert.equal(r.cause?.kind, 'parse', `${r.source}: ${r.error}`);
      continue;
    }
    assert.equal(r.outcome, 'parsed', `${r.source}: ${r.error}`);
    if (NOTHING_FOR_TODAY.includes(r.source)) {
      assert.deepEqual([r.http_status, r.figures], [200, 0], r.source);
      continue;
    }
    assert.ok(r.figures > 0 && r.bytes > 0 && r.http_status === 200 && r.tls === 'http', `${r.source}: ${JSON.stringify(r)}`);
    assert.match(r.newest_date ?? '', /^\d{4}-\d{2}-\d{2}$/, r.source);
  }
  assert.equal(probeSummary(results), `probed ${recorded.length} sources: ${recorded.length - PLAYED_ELSEWHERE.length} parsed, ${PLAYED_ELSEWHERE.length} failed (${PLAYED_ELSEWHERE.length} parse)`);
});
