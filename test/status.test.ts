// /status without a browser: public, HTML, one row per source with the health `kurs sources` shows,
// no secrets, and rendered at most every few seconds. (The browser test looks at it in chromium.)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { duration, escapeHtml, renderStatus, type StatusModel, type StatusRow } from '../src/http/status-page.js';
import type { TestApp } from './helpers.js';
import { datasetApp } from './support/dataset.js';

describe('/status, on the written test dataset', () => {
  let t: TestApp;
  before(async () => {
    t = await datasetApp();
  });
  after(() => t.close());

  test('answers HTML without a key: a row per source, coverage, and no key or feed URL', async () => {
    await t.store.recordFetch({ source: 'NBPL', at: '2026-06-10T11:30:00.000Z', error: 'timed out after 20000 ms fetching https://api.nbp.pl/x?apikey=topsecret' });
    const res = await t.app.inject('/status');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(res.headers['x-points-cost'], undefined);
    assert.equal(res.body.match(/<tr class=/g)?.length, t.market.current.banks.size);
    const nbpl = res.body.match(/<tr class="([a-z-]+)" id="src-NBPL">.*<\/tr>/)!;
    assert.equal(nbpl[1], 'failing');
    assert.match(nbpl[0], /timed out after 20000 ms fetching https:\/\/api\.nbp\.pl\/x\?apikey=\*\*\*/);
    assert.ok(!res.body.includes('topsecret'));
    assert.match(res.body, /<tr class="ok" id="src-ECBF">.*<td>2026-06-09<\/td><td class="num">0<\/td>/);
    const today = '2026-06-10';
    const fresh = t.market.current.rates.codes.filter((c) => t.market.current.rates.isFresh(c, today)).length;
    assert.match(res.body, new RegExp(`id="coverage"><b>${fresh} / ${t.market.current.rates.size}</b>`));
    assert.ok(!res.body.includes('<script'), 'the page needs no JavaScript');
    for (const source of t.market.current.banks.keys()) assert.ok(res.body.includes(`id="src-${source}"`), source);
  });

  test('other methods on the operator endpoints get 405 in the envelope', async () => {
    for (const url of ['/status', '/metrics', '/openapi.json']) {
      const res = await t.app.inject({ method: 'POST', url });
      assert.equal(res.statusCode, 405, url);
      assert.equal(res.json().error, 'method_not_allowed');
      assert.equal(res.headers.allow, 'GET, HEAD');
    }
  });

  test('is rendered at most every few seconds, not per request', async () => {
    const before = (await t.app.inject('/status')).body;
    await t.store.recordFetch({ source: 'CNBA', at: '2026-06-10T11:45:00.000Z', error: 'HTTP 500 from https://www.cnb.cz/' });
    assert.equal((await t.app.inject('/status')).body, before, 'the clock has not moved: the same page');
  });

  test('says why nothing is fresh: ingest off, and data older than the clock', () => {
    const row = (source: string, newest: string | null, seeded: boolean): StatusRow => ({
      source, name: source, country: 'X', cadence: 'daily', period_rates: false, schedule: '0 16 * * 1-5', feed_url: 'https://x', terms_url: 'https://x', terms: 'unknown', newest_observation: newest, newest_valid_to: null, missed_publications: 0,
      last_success: seeded ? null : '2026-08-19T16:00:00.000Z', seeded, last_error_at: null, last_error: null, failing: false, rejections: 0, fresh: false, state: 'stale',
    });
    const model = (over: Partial<StatusModel>): StatusModel => ({
      version: '1', uptimeSeconds: 60, generatedAt: '2026-11-26 12:00:00', newestPublication: undefined, today: '2026-11-26', ingest: false,
      currencies: { fresh: 0, quoted: 155, stale: ['USD'] }, rows: [row('ECBF', '2026-04-13', true), row('NBOR', '2026-08-19', true), row('XXXX', null, false)], ...over,
    });
    const why = (m: StatusModel) => /<div id="why" class="why">(.*?)<\/div>/.exec(renderStatus(m))?.[1];
    assert.equal(why(model({})), '<b>Why nothing is fresh</b><ul><li>Ingest is off on this instance (<code>KURS_INGEST=off</code>): it fetches no source, so its figures change only when another instance sharing its database, or <code>kurs ingest</code>, brings new ones.</li>'
      + "<li>The data is older than the clock: the newest figure held is from 2026-08-19, 99 days before today (2026-11-26), and every figure is the bundled seed's: no source has been fetched yet.</li></ul>");
    // Ingest on, one source fetched: only the age, without the seed.
    const fetched = model({ ingest: true, rows: [row('ECBF', '2026-04-13', true), row('NBOR', '2026-11-20', false)] });
    assert.equal(why(fetched), '<b>Why nothing is fresh</b><ul><li>The data is older than the clock: the newest figure held is from 2026-11-20, 6 days before today (2026-11-26).</li></ul>');
    // Fresh figures and ingest on: nothing to explain.
    assert.equal(why(model({ ingest: true, currencies: { fresh: 150, quoted: 155, stale: [] } })), undefined);
    // Fresh figures from another instance: the note on this one's ingest stays.
    assert.match(why(model({ currencies: { fresh: 150, quoted: 155, stale: [] } }))!, /^<b>Note<\/b><ul><li>Ingest is off on this instance/);
  });

  test('helpers: durations read as a person would say them; markup is escaped', () => {
    assert.equal(duration(59), '0 min');
    assert.equal(duration(3_600 * 5 + 60 * 7), '5 h 7 min');
    assert.equal(duration(86_400 * 3 + 3_600 * 2 + 5), '3 d 2 h');
    assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;');
  });
});
