// A source that keeps failing (issue 35 item 4): the cause in words for each way a real feed fails,
// a backoff that grows, caps and resets on success, and never more than MAX_PARALLEL_SOURCES feeds
// waited on at once, so that a hanging feed holds up only its own turn.
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { BACKOFF_BASE_MS, BACKOFF_CAP_MS, failureCause, retryNotBefore, type FailureKind } from '../src/ingest/causes.js';
import { ingestLive } from '../src/ingest/live.js';
import { MAX_PARALLEL_SOURCES, Scheduler } from '../src/ingest/scheduler.js';
import { createHttpClient } from '../src/sources/http.js';
import { sourceByCode } from '../src/sources/index.js';
import type { Source } from '../src/sources/types.js';
import { testApp, type TestApp } from './helpers.js';
import { startBrokenFeeds, type BrokenFeeds } from './support/broken-feeds.js';
import { startFeedServer, type FeedServer } from './support/feed-server.js';

const NOW = new Date('2026-04-15T18:00:00Z');
const ecbf = sourceByCode('ECBF')!;
const daily = (date: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><gesmes:subject>Reference rates</gesmes:subject><Cube><Cube time='${date}'><Cube currency='USD' rate='1.1700'/></Cube></Cube></gesmes:Envelope>`;
const quiet = { info: () => undefined, warn: () => undefined };

describe('a failing source says why', () => {
  let t: TestApp;
  let broken: BrokenFeeds;
  let garbled: FeedServer;
  before(async () => {
    t = await testApp({ now: NOW, seeded: false });
    broken = await startBrokenFeeds();
    garbled = await startFeedServer(() => ({ body: '<html><body>We moved our rates to a new page</body></html>' }));
  });
  after(async () => {
    await t.close();
    await broken.close();
    await garbled.close();
  });

  const cases: [string, () => string, FailureKind, RegExp][] = [
    ['a certificate the default trust cannot verify', () => broken.untrusted, 'tls', /^TLS: .*intermediate/],
    ['a 403 from a firewall', () => broken.forbidden, 'forbidden', /^HTTP 403: .*User-Agent/],
    ['a connection reset', () => broken.reset, 'reset', /^connection reset: .*firewall/],
    ['a feed that never answers', () => broken.silent, 'timeout', /^timeout/],
    ['an answer in a format it cannot parse', () => garbled.url, 'parse', /format may have changed/],
  ];
  for (const [what, url, kind, words] of cases) {
    test(`${what}: recorded, and its cause is ${kind}`, async () => {
      // A short client timeout makes the silent feed a timeout; the others fail long before it.
      const http = createHttpClient({ retries: 0, timeoutMs: 1_000 });
      await ingestLive({ store: t.store, http, config: { sourceUrls: { ECBF: url() }, sourceKeys: {} }, now: () => NOW }, ecbf);
      const health = (await t.store.sourceHealth()).find((h) => h.source === 'ECBF')!;
      assert.ok(health.lastError, 'no error recorded');
      const cause = failureCause(health.lastError);
      assert.equal(cause.kind, kind, health.lastError);
      assert.match(cause.words, words);
    });
  }

  test('DNS and refusals are named from the network\'s code', () => {
    assert.equal(failureCause('fetch failed fetching https://www.bank.example/ (ENOTFOUND)').kind, 'dns');
    assert.equal(failureCause('fetch failed fetching http://127.0.0.1:9/ (ECONNREFUSED)').kind, 'refused');
    assert.equal(failureCause('JPY moved 55% from 2026-04-14 (187.1) to 2026-04-15 (290); held back until an operator accepts it (kurs ingest --accept-jumps)').kind, 'held');
  });
});

test('the backoff starts after two failures, doubles, is capped, and is gone after a success', () => {
  const at = '2026-04-15T10:00:00.000Z';
  const wait = (failures: number) => retryNotBefore(failures, at)!.getTime() - Date.parse(at);
  assert.equal(retryNotBefore(0, null), undefined);
  assert.equal(retryNotBefore(1, at), undefined);
  assert.equal(wait(2), BACKOFF_BASE_MS);
  assert.equal(wait(3), 2 * BACKOFF_BASE_MS);
  assert.equal(wait(4), 4 * BACKOFF_BASE_MS);
  assert.equal(wait(40), BACKOFF_CAP_MS);
});

describe('the scheduler with failing and hanging feeds', () => {
  let t: TestApp;
  let feed: FeedServer;
  let answer: 'fail' | 'ok' = 'fail';
  before(async () => {
    t = await testApp({ now: NOW, seeded: false });
    feed = await startFeedServer(() => (answer === 'ok' ? { body: daily('2026-04-15'), contentType: 'text/xml' } : { status: 403, body: 'denied' }));
  });
  after(async () => {
    await t.close();
    await feed.close();
  });

  test('a scheduled run backs off after failures; a start\'s catch-up does not; a success resets it', async () => {
    const scheduler = new Scheduler({ store: t.store, sources: [ecbf], http: createHttpClient({ retries: 0 }), config: { sourceUrls: { ECBF: feed.url }, sourceKeys: {} }, now: () => NOW, onData: async () => undefined, log: quiet });
    // NOW is an hour after the last failure recorded at NOW… so, to be inside the wait, the
    // failures are recorded at NOW itself (the clock the scheduler reads).
    assert.equal((await scheduler.run(ecbf)).status, 'fetch_failed');
    assert.equal((await scheduler.run(ecbf)).status, 'fetch_failed');
    const asked = feed.requests.length;
    // A fresh scheduler: no health look cached from before the failures.
    const next = new Scheduler({ store: t.store, sources: [ecbf], http: createHttpClient({ retries: 0 }), config: { sourceUrls: { ECBF: feed.url }, sourceKeys: {} }, now: () => NOW, onData: async () => undefined, log: quiet });
    const skipped = await next.run(ecbf, { scheduled: true });
    assert.equal(skipped.status, 'skipped');
    assert.match('reason' in skipped ? skipped.reason : '', /backing off until 2026-04-15T18:30Z after 2 failures in a row \(HTTP 403/);
    assert.equal(feed.requests.length, asked, 'the feed was asked while backing off');
    answer = 'ok';
    assert.equal((await next.run(ecbf)).status, 'done', 'an unscheduled run (a start\'s catch-up) fetches');
    assert.equal(feed.requests.length, asked + 1);
    const after = new Scheduler({ store: t.store, sources: [ecbf], http: createHttpClient({ retries: 0 }), config: { sourceUrls: { ECBF: feed.url }, sourceKeys: {} }, now: () => NOW, onData: async () => undefined, log: quiet });
    assert.equal((await after.run(ecbf, { scheduled: true })).status, 'done', 'still backing off after a success');
    await Promise.all([scheduler.stop(), next.stop(), after.stop()]);
  });

  // The timeout only keeps a broken limiter from hanging the suite; nothing here waits on a clock.
  test(`at most ${MAX_PARALLEL_SOURCES} feeds are waited on at once, and a stop aborts the rest`, { timeout: 120_000 }, async (ctx) => {
    const held: ServerResponse[] = [];
    let most = 0;
    const hanging = createServer((_req, res) => {
      held.push(res);
      most = Math.max(most, held.filter((r) => !r.writableEnded).length);
      // Releases the oldest once the limit is reached: if the limiter let more in, `most` would pass it.
      if (held.filter((r) => !r.writableEnded).length >= MAX_PARALLEL_SOURCES) held.find((r) => !r.writableEnded)!.writeHead(403).end();
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    // Closed however the test ends: a held connection left open would keep the test process alive.
    ctx.after(async () => {
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    });
    const sources: Source[] = ['AAAA', 'BBBB', 'CCCC', 'DDDD', 'EEEE', 'FFFF'].map((code) => ({ ...ecbf, code }));
    const logged: object[] = [];
    const scheduler = new Scheduler({ store: t.store, sources, http: createHttpClient({ retries: 0 }), config: { sourceUrls: Object.fromEntries(sources.map((s) => [s.code, `${url}/${s.code}`])), sourceKeys: {} }, now: () => NOW, onData: async () => undefined, log: { info: (o) => logged.push(o), warn: () => undefined } });
    let settled = 0;
    const runs = sources.map((s) => scheduler.run(s).finally(() => settled++));
    // Each release lets the next run in; the last MAX_PARALLEL_SOURCES - 1 stay hanging until the stop.
    // The stop waits for the released runs to have finished with their 403: the last one is released
    // as the last request arrives, and a stop before its answer is read would abort it too.
    const released = sources.length - (MAX_PARALLEL_SOURCES - 1);
    while (held.length < sources.length || settled < released) await new Promise((r) => setTimeout(r, 20));
    await scheduler.stop();
    const results = await Promise.all(runs);
    assert.equal(most, MAX_PARALLEL_SOURCES);
    assert.equal(results.filter((r) => r.status === 'fetch_failed' && /stopped/.test(r.reason)).length, MAX_PARALLEL_SOURCES - 1);
    assert.deepEqual(logged.at(-1), { aborted: MAX_PARALLEL_SOURCES - 1, sources: 'DDDD,EEEE,FFFF'.split(',').slice(-(MAX_PARALLEL_SOURCES - 1)).join(',') });
  });
});

test('a start\'s catch-up hands new data on once at its end, not once per source that stored', async () => {
  const t = await testApp({ now: NOW, seeded: false });
  const feed = await startFeedServer(() => ({ body: daily('2026-04-15'), contentType: 'text/xml' }));
  try {
    const sources: Source[] = ['AAAA', 'BBBB', 'CCCC', 'DDDD'].map((code) => ({ ...ecbf, code }));
    const urls = Object.fromEntries(['EEEE', ...sources.map((s) => s.code)].map((code) => [code, `${feed.url}/${code}`]));
    let handedOn = 0;
    let storedWhenHandedOn = 0;
    const scheduler = new Scheduler({
      store: t.store, sources, http: createHttpClient({ retries: 0 }), config: { sourceUrls: urls, sourceKeys: {} }, now: () => NOW, log: quiet,
      // Far longer than the test: only the end of the catch-up hands data on.
      catchUpDataMs: 3_600_000,
      onData: async () => {
        handedOn++;
        storedWhenHandedOn = (await t.store.sourceHealth()).filter((h) => h.newestDate !== null).length;
      },
    });
    await scheduler.catchUp();
    assert.equal(handedOn, 1);
    assert.equal(storedWhenHandedOn, sources.length);
    // Outside a catch-up, a run that stores hands on at once.
    assert.equal((await scheduler.run({ ...ecbf, code: 'EEEE' })).status, 'done');
    assert.equal(handedOn, 2);
    await scheduler.stop();
  } finally {
    await t.close();
    await feed.close();
  }
});
