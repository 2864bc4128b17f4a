import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Scheduler } from '../src/ingest/scheduler.js';
import { createHttpClient } from '../src/sources/http.js';
import { sourceByCode } from '../src/sources/index.js';
import type { Source } from '../src/sources/types.js';
import { turn } from '../src/time/turns.js';
import { testApp, type TestApp } from './helpers.js';
import { startFeedServer, type FeedServer } from './support/feed-server.js';

const NOW = new Date('2026-04-15T18:00:00Z');
const daily = (date: string, usd: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><gesmes:subject>Reference rates</gesmes:subject><Cube><Cube time='${date}'><Cube currency='USD' rate='${usd}'/></Cube></Cube></gesmes:Envelope>`;

describe('the scheduler', () => {
  let t: TestApp;
  let server: FeedServer;
  let rebuilds = 0;
  const ecbf = sourceByCode('ECBF')!;
  // Two feeds of the same format under different codes: one answers at once, the other only when the
  // test releases it (after the fast run ended), so "did not wait" is an order, not a stopwatch.
  const fast: Source = { ...ecbf, code: 'FAST' };
  const slow: Source = { ...ecbf, code: 'SLOW' };
  let scheduler: Scheduler;
  let slowServer: import('node:http').Server;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });

  before(async () => {
    server = await startFeedServer((path) => (path.startsWith('/fast') ? { body: daily('2026-04-15', '1.1700') } : undefined));
    const original = server.url;
    // The slow feed: a second server that answers once released.
    slowServer = await import('node:http').then(({ createServer }) => {
      const s = createServer((_req, res) => void released.then(() => res.end(daily('2026-04-15', '1.1650'))));
      return new Promise<import('node:http').Server>((resolve) => s.listen(0, '127.0.0.1', () => resolve(s)));
    });
    const slowUrl = `http://127.0.0.1:${(slowServer.address() as import('node:net').AddressInfo).port}`;
    t = await testApp({ now: NOW, seeded: false });
    scheduler = new Scheduler({
      store: t.store,
      sources: [fast, slow],
      http: createHttpClient({ retries: 0 }),
      config: { sourceUrls: { FAST: `${original}/fast`, SLOW: slowUrl }, sourceKeys: {} },
      now: () => NOW,
      onData: async () => {
        rebuilds++;
      },
      log: { info: () => undefined, warn: () => undefined },
    });
  });
  after(async () => {
    await scheduler.stop();
    await t.close();
    await server.close();
    await new Promise<void>((resolve) => slowServer.close(() => resolve()));
  });

  test('a slow source does not delay another, and one source never overlaps itself', async () => {
    let slowEnded = false;
    const slowRun = scheduler.run(slow);
    void slowRun.then(() => {
      slowEnded = true;
    });
    assert.equal(scheduler.run(slow), slowRun, 'a second run of the same source started');
    // The slow feed cannot answer before release(): the fast run ending first is the proof.
    const fastResult = await scheduler.run(fast);
    assert.equal(fastResult.status, 'done');
    assert.equal(slowEnded, false);
    release();
    assert.equal((await slowRun).status, 'done');
    assert.equal(rebuilds, 2);
  });

  test('catch-up fetches only the sources whose data is older than their cadence', async () => {
    const before = server.requests.length;
    await scheduler.catchUp();
    assert.equal(server.requests.length, before, 'fresh sources were fetched again');
    const later = new Scheduler({
      store: t.store,
      sources: [fast],
      http: createHttpClient({ retries: 0 }),
      config: { sourceUrls: { FAST: `${server.url}/fast` }, sourceKeys: {} },
      now: () => new Date('2026-04-25T18:00:00Z'),
      onData: async () => undefined,
      log: { info: () => undefined, warn: () => undefined },
    });
    await later.catchUp();
    assert.equal(server.requests.length, before + 1);
  });

  test('a feed that needs a key is skipped with a warning when none is configured, and asks nothing', async () => {
    const warnings: { obj: object; msg: string }[] = [];
    const keyed: Source = { ...sourceByCode('FRNY')!, code: 'KEYD', baseUrl: `${server.url}/keyed` };
    const before = server.requests.length;
    const s = new Scheduler({
      store: t.store,
      sources: [keyed],
      http: createHttpClient({ retries: 0 }),
      config: { sourceUrls: {}, sourceKeys: {} },
      now: () => NOW,
      onData: async () => undefined,
      log: { info: () => undefined, warn: (obj, msg) => warnings.push({ obj, msg }) },
    });
    const result = await s.run(keyed);
    assert.deepEqual(result, { source: 'KEYD', status: 'skipped', reason: 'needs an API key: set KURS_SOURCE_KEYD_KEY' });
    assert.deepEqual(warnings, [{ obj: { source: 'KEYD', reason: 'needs an API key: set KURS_SOURCE_KEYD_KEY' }, msg: 'source skipped' }]);
    assert.equal(server.requests.length, before);
  });
});

describe('the scheduler at start', () => {
  test('makes the crons one per turn of the event loop, not all at once, and a stop halfway makes no more', async () => {
    const t = await testApp({ now: NOW, seeded: false });
    const ecbf = sourceByCode('ECBF')!;
    const sources: Source[] = ['CRNA', 'CRNB', 'CRNC'].map((code) => ({ ...ecbf, code }));
    // Nothing listens on port 9 of this machine: the start's catch-up fails at once, which is not what this looks at.
    const make = () =>
      new Scheduler({
        store: t.store,
        sources,
        http: createHttpClient({ retries: 0 }),
        config: { sourceUrls: Object.fromEntries(sources.map((s) => [s.code, 'http://127.0.0.1:9/'])), sourceKeys: {} },
        now: () => NOW,
        onData: async () => undefined,
        log: { info: () => undefined, warn: () => undefined },
      });
    try {
      const scheduler = make();
      scheduler.start();
      assert.equal(scheduler.scheduled, 1, 'one cron made before start returns');
      while (scheduler.scheduled < sources.length) await turn();
      assert.equal(scheduler.scheduled, sources.length);
      await scheduler.stop();
      assert.equal(scheduler.scheduled, 0, 'a stop ends every cron');

      const stoppedEarly = make();
      stoppedEarly.start();
      await stoppedEarly.stop();
      for (let i = 0; i < 2 * sources.length; i++) await turn();
      assert.equal(stoppedEarly.scheduled, 0, 'no cron made after the stop');
    } finally {
      await t.close();
    }
  });
});
