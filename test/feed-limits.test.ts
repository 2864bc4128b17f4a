// A feed's answer is bounded: an endless body, a 1 GB body, a redirect loop, a gzip bomb and a ZIP
// bomb each end in a clear ingest error after reading at most about the limit, and the previous
// figures stay served (docs/reliability.md#feed-limits).
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';
import { ingestLive } from '../src/ingest/live.js';
import { createHttpClient, MAX_REDIRECTS } from '../src/sources/http.js';
import { sourceByCode } from '../src/sources/index.js';
import { testApp, type TestApp } from './helpers.js';
import { startHostileFeed, type HostileFeed, type Hostility } from './support/hostile-feed.js';

const NOW = new Date('2026-04-15T18:00:00Z');
/** The operator's KURS_FEED_MAX_BYTES in these tests. */
const LIMIT = 1024 * 1024;
/** What sockets may hold beyond what the client read: loopback buffers, one chunk in flight. */
const SLACK = 16 * 1024 * 1024;
/** Inflates to well past every limit; deflated it is a few tens of kilobytes. */
const BOMB = 64 * 1024 * 1024;
const GOOD = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
<Cube><Cube time='2026-04-14'><Cube currency='USD' rate='1.1700'/><Cube currency='JPY' rate='187.10'/></Cube></Cube>
</gesmes:Envelope>`;

describe('bounded feed answers', () => {
  let t: TestApp;
  let feed: HostileFeed;
  let key: string;
  before(async () => {
    feed = await startHostileFeed(BOMB);
    t = await testApp({ now: NOW, seeded: false });
    ({ key } = await t.key());
  });
  after(async () => {
    await t.close();
    await feed.close();
  });

  const ecbf = sourceByCode('ECBF')!;
  const live = () => ingestLive({ store: t.store, http: createHttpClient({ retries: 0, maxBytes: LIMIT }), config: { sourceUrls: { ECBF: feed.url }, sourceKeys: {} }, now: () => NOW }, ecbf);
  const served = async () => {
    await t.market.rebuild(NOW);
    return (await t.app.inject({ method: 'GET', url: '/v1/bank/ECBF?reciprocal=true', headers: { authorization: key } })).json().rates;
  };

  test('a good answer is stored and served first', async () => {
    feed.mode = { body: GOOD };
    assert.equal((await live()).status, 'done');
    assert.deepEqual(await served(), { JPY: 187.1, USD: 1.17 });
  });

  const cases: [string, Hostility, RegExp][] = [
    ['an endless body', 'endless', /larger than the feed limit of 1048576 bytes/],
    ['a 1 GB body', 'huge', /larger than the feed limit of 1048576 bytes/],
    ['a redirect loop', 'redirect-loop', new RegExp(`more than ${MAX_REDIRECTS} redirects`)],
    ['a gzip bomb', 'gzip-bomb', /larger than the feed limit of 1048576 bytes/],
  ];
  for (const [what, mode, reason] of cases) {
    test(`${what} ends in a failed fetch having read about the limit at most; the old figures stay served`, async () => {
      feed.mode = mode;
      feed.sent = 0;
      feed.requests = 0;
      const version = await t.store.dataVersion();
      const r = await live();
      assert.equal(r.status, 'fetch_failed');
      assert.match(r.status === 'fetch_failed' ? r.reason : '', reason);
      await sleep(100);
      assert.ok(feed.sent < LIMIT + SLACK, `the feed sent ${feed.sent} bytes`);
      assert.equal(feed.requests, mode === 'redirect-loop' ? MAX_REDIRECTS + 1 : 1);
      assert.equal(await t.store.dataVersion(), version);
      assert.deepEqual(await served(), { JPY: 187.1, USD: 1.17 });
      assert.match((await t.store.sourceHealth()).find((h) => h.source === 'ECBF')!.lastError ?? '', reason);
    });
  }

  test('a ZIP bomb that lies about its size stops inflating at the limit: a failed payload, nothing stored', async () => {
    feed.mode = 'zip-bomb';
    const version = await t.store.dataVersion();
    const r = await live();
    assert.equal(r.status, 'done');
    const outcome = r.status === 'done' ? r.outcomes[0] : undefined;
    assert.equal(outcome?.status, 'failed');
    assert.match(outcome && 'reason' in outcome ? outcome.reason : '', /unreadable ZIP: rates\.csv: inflates past the limit/);
    assert.equal(await t.store.dataVersion(), version);
    assert.deepEqual(await served(), { JPY: 187.1, USD: 1.17 });
  });
});

test('KURS_FEED_MAX_BYTES is read as a whole number of bytes, at least 1024; unset, each source keeps its own', () => {
  assert.equal(loadConfig({ KURS_FEED_MAX_BYTES: '2048' }).feedMaxBytes, 2048);
  assert.equal(loadConfig({}).feedMaxBytes, undefined);
  assert.throws(() => loadConfig({ KURS_FEED_MAX_BYTES: '10' }), (err: unknown) => err instanceof ConfigError && /KURS_FEED_MAX_BYTES must be a whole number from 1024/.test(err.message));
});
