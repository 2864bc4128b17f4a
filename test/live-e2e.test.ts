// End to end: a local HTTP server plays every central bank, serving the recorded payloads at the
// feeds' own paths; live ingestion runs against it through the URL overrides; the API then answers
// /v1/bank/<code> with the published figures.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Decimal } from '../src/money/decimal.js';
import { ingestLive } from '../src/ingest/live.js';
import { createHttpClient } from '../src/sources/http.js';
import { SOURCES } from '../src/sources/index.js';
import type { Observation } from '../src/sources/types.js';
import { bankUpdate } from '../src/blend/rebase.js';
import { testApp, type TestApp } from './helpers.js';
import type { FeedServer } from './support/feed-server.js';
import { dayAfterRecordings, parseOrNothing, payloadFiles, replayable, SESSION, STEP_PAGES, startReplayFeed } from './support/replay-feed.js';

const NOW = new Date('2026-11-22T12:00:00Z');

describe('live ingestion against a local server playing every bank', () => {
  let server: FeedServer;
  let t: TestApp;
  let key: string;
  /** Per source, what the server answered: the request (as the payload name) and the file it sent. */
  const served = new Map<string, { url: string; file: string }[]>();
  /** Sources for which the server sent at least one payload with rates in it. */
  const hasRates = new Set<string>();
  const sources = SOURCES.filter((s) => payloadFiles(s).length > 0);

  /** Each source is fetched as if just after its newest recorded day, so that its requests ask for
   *  the period its recordings cover (a year, a month, a date in the query). */
  const nowFor = new Map<string, Date>();
  before(async () => {
    for (const s of sources) nowFor.set(s.code, await dayAfterRecordings(s));
    server = await startReplayFeed((code, pathAndQuery, file) => {
      served.set(code, [...(served.get(code) ?? []), { url: `${server.url}${pathAndQuery}`, file }]);
    });
    // Every source on, those whose terms keep them off by default too (D22): each is played here.
    t = await testApp({ now: NOW, seeded: false, enable: SOURCES.map((s) => s.code) });
    ({ key } = await t.key({ plan: 'business', points: 1000 }));
  });
  after(async () => {
    await t?.close();
    await server?.close();
  });

  test('every source with recorded payloads is fetched and ingested through its URL override', async () => {
    const config = {
      sourceUrls: Object.fromEntries(sources.map((s) => [s.code, `${server.url}/${s.code}`])),
      sourceKeys: Object.fromEntries(sources.map((s) => [s.code, 'test-key'])),
    };
    // A long timeout: the whole bank plays in this one process, and reading a large workbook blocks
    // the server as well as the client for seconds on a loaded machine.
    const http = createHttpClient({ retries: 0, timeoutMs: 180_000 });
    const results = await Promise.all(
      sources.map((s) => {
        return ingestLive({ store: t.store, http, config, now: () => nowFor.get(s.code)! }, replayable(s), { acceptJumps: true });
      }),
    );
    // Which sources were sent rates, read after the fetches so as not to stall the server meanwhile.
    for (const [code, answers] of served) {
      const source = SOURCES.find((x) => x.code === code)!;
      for (const { url, file } of answers) if ((await parseOrNothing(source, url, file).catch(() => [])).length > 0) hasRates.add(code);
    }
    for (const r of results) {
      assert.equal(r.status, 'done', `${r.source}: ${'reason' in r ? r.reason : ''}`);
      if (r.status !== 'done') continue;
      const failed = r.outcomes.filter((o) => o.status === 'failed');
      assert.deepEqual(failed, [], r.source);
      assert.ok(r.outcomes.some((o) => o.status === 'stored') || !hasRates.has(r.source), `${r.source} stored nothing`);
    }
    // The feeds that need a page visit first fetched it, then sent its token and cookie back.
    for (const code of Object.keys(STEP_PAGES)) {
      const own = server.requests.filter((r) => r.url.startsWith(`/${code}/`));
      assert.equal(own[0]?.method, 'GET', code);
      assert.equal(own[0]?.url, `/${code}${STEP_PAGES[code]!.path}`, code);
      assert.ok(own.length > 1 && own.slice(1).every((r) => r.headers.cookie === SESSION(code)), `${code} did not carry its session`);
      assert.ok(hasRates.has(code), `${code} got no rates`);
    }
    // Every source with a follow step was fetched in two steps at least: its page, then what it led to.
    for (const s of sources.filter((x) => x.follow)) {
      const own = server.requests.filter((r) => r.url.startsWith(`/${s.code}/`));
      const first = s.requests({ from: '2026-01-01', to: '2026-01-02' }, { base: `${server.url}/${s.code}` })[0]!;
      assert.equal(first.follow, true, s.code);
      assert.equal(`${server.url}${own[0]?.url}`, first.url, s.code);
      assert.ok(own.length > 1, `${s.code} did not follow its page`);
    }
    for (const s of sources.filter((x) => x.needsKey)) {
      const own = server.requests.filter((r) => r.url.startsWith(`/${s.code}/`));
      assert.ok(own.some((r) => `${r.url} ${JSON.stringify(r.headers)} ${r.body}`.includes('test-key')), `${s.code} did not send its key`);
    }
    await t.market.rebuild(NOW);
  });

  test('the API answers /v1/bank/<code> with the figures each bank published', async () => {
    for (const source of sources.filter((s) => hasRates.has(s.code))) {
      const published = new Map<string, Observation>();
      // What the bank published is what the server sent, read as the answer to the request it was.
      for (const { url, file } of served.get(source.code) ?? []) {
        for (const o of await parseOrNothing(source, url, file)) {
          const seen = published.get(o.quote);
          if (!seen || o.date >= seen.date) published.set(o.quote, o);
        }
      }
      // A period source (D21) answers the figures in force on a day: the first day of its newest period.
      const newestPeriod = [...published.values()].reduce((m, o) => (o.date > m ? o.date : m), '');
      const url = source.periodRates ? `/v1/bank/${source.code}?format=full&date=${newestPeriod}` : `/v1/bank/${source.code}?format=full`;
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: key } });
      assert.equal(res.statusCode, 200, `${source.code}: ${res.body}`);
      const rows = res.json().rates as { currency: string; rate: number; bank_update: string }[];
      assert.ok(rows.length > 0, `${source.code} has no rows`);
      let checked = 0;
      for (const row of rows) {
        const o = published.get(row.currency);
        if (!o) continue;
        // The default direction is the bank's base per 1 unit: exact where the bank published it so.
        const perUnit = new Decimal(o.rate).div(o.unit);
        const expected = o.direction === 'direct' ? perUnit : new Decimal(1).div(perUnit).toSignificantDigits(8);
        assert.equal(new Decimal(String(row.rate)).toString(), expected.toString(), `${source.code} ${row.currency}`);
        assert.equal(row.bank_update, source.periodRates ? `${o.date} 00:00:00` : bankUpdate(source, o.date), `${source.code} ${row.currency}`);
        checked++;
      }
      assert.ok(checked > 0, `${source.code}: no row matched a published figure`);
    }
  });
});
