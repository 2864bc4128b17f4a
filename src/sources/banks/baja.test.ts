// BAJA, Bank of Jamaica: grade B (the data response was trimmed upstream to 255 of 104,868 rows;
// the page may have been, SOURCES-2.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './baja.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BAJA');
const DATA = 'boja-wdtable-134-counter-rates-TRIMMED.json';
const PAGE = 'boja-counter-rates-page-2026-03-23.html';
const recorded = (file: string) => source.parse({ name: file, body: readFileSync(new URL(file, DIR)) }) as Observation[];
const LIVE = 'https://boj.org.jm/wp-admin/admin-ajax.php?action=get_wdtable&table_id=134';
const rows = (...data: string[][]) => source.parse({ name: LIVE, body: Buffer.from(JSON.stringify({ draw: 1, recordsTotal: 104868, recordsFiltered: 104868, data })) }) as Observation[];
const rateOf = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote)?.rate;
const USD = ['20 Mar 2026', 'U.S. DOLLAR', '156.6010', '148.7700', '128.7700', '158.6594'];

describe('BAJA recorded payloads', () => {
  test('every recorded file but SOURCE.md is accepted', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [PAGE, DATA]);
  });

  test('table 134, 2–20 March 2026: 15 days of 16 currencies, JMD per unit at the transfer midpoint', () => {
    const obs = recorded(DATA);
    const days = [...new Set(obs.map((o) => o.date))];
    assert.equal(days.length, 15);
    assert.equal(days[0], '2026-03-02');
    assert.equal(days.at(-1), '2026-03-20');
    assert.equal(obs.length, 15 * 16);
    assert.deepEqual(
      [...new Set(obs.map((o) => o.quote))].sort(),
      ['AUD', 'BBD', 'BSD', 'BZD', 'CAD', 'CHF', 'DOP', 'EUR', 'GBP', 'GIP', 'GYD', 'HKD', 'JPY', 'KYD', 'USD', 'XCD'],
    );
    assert.ok(obs.every((o) => o.direction === 'direct' && o.unit === 1));
    // (buying DMD & TT + selling) / 2, from the figures in the payload.
    assert.equal(rateOf(obs, '2026-03-02', 'USD'), '156.3066');
    assert.equal(rateOf(obs, '2026-03-20', 'USD'), '157.6302');
    assert.equal(rateOf(obs, '2026-03-20', 'EUR'), '183.16225');
    assert.equal(rateOf(obs, '2026-03-20', 'GBP'), '211.74605');
    assert.equal(rateOf(obs, '2026-03-20', 'JPY'), '0.98925');
    assert.equal(rateOf(obs, '2026-03-20', 'DOP'), '2.60435');
  });

  test('the counter-rates page carries the nonce, not rates: no publication', () => {
    assert.throws(() => recorded(PAGE), NoPublication);
  });

  test("reads the page's nonce, posts for the whole table with it and reads what a feed server sends back", async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const base = 'http://127.0.0.1:1';
    const pageUrl = `${base}/market/foreign-exchange/counter-rates/`;
    assert.deepEqual(source.requests(window, { base, key: 'k' }), [{ url: pageUrl, follow: true }]);
    const page = { name: pageUrl, url: pageUrl, body: readFileSync(new URL(PAGE, DIR)), cookie: 'wp=1' };
    // The page carries the nonces of two tables (118 and 134): table 134's, as the recorded post sent it.
    const requests = source.follow!(page, window, { base });
    assert.deepEqual(requests, [
      {
        url: `${base}/wp-admin/admin-ajax.php?action=get_wdtable&table_id=134`,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', referer: pageUrl, cookie: 'wp=1' },
        body: 'draw=1&start=0&length=-1&wdtNonce=5a1cc1896f',
      },
    ]);
    assert.ok(source.accepts(requests[0]!.url));
    assert.throws(() => source.follow!({ ...page, body: Buffer.from('<html><body>Page not found</body></html>') }, window, { base }), /carries no wdtNonceFrontendServerSide_134/);

    const server = await startFeedServer((path, req) =>
      path === '/market/foreign-exchange/counter-rates/'
        ? { body: readFileSync(new URL(PAGE, DIR)), contentType: 'text/html; charset=UTF-8' }
        : // WordPress answers a missing or wrong nonce with "0".
          new URLSearchParams(req.body).get('wdtNonce') === '5a1cc1896f'
          ? { body: readFileSync(new URL(DATA, DIR)), contentType: 'text/html; charset=UTF-8' }
          : { body: '0' },
    );
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p) as Observation[]), recorded(DATA));
      assert.deepEqual(server.requests.map((r) => [r.method, r.url]), [['GET', '/market/foreign-exchange/counter-rates/'], ['POST', '/wp-admin/admin-ajax.php?action=get_wdtable&table_id=134']]);
    } finally {
      await server.close();
    }
  });
});

describe('BAJA edge cases', () => {
  test('maps names, trims the padded ones and skips Northern Ireland notes', () => {
    const obs = rows(USD, ['20 Mar 2026', 'DOMINICAN REP. PESO ', '2.5677', '2.3100', '0.0000', '2.6410'], ['20 Mar 2026', 'NORTHERN IRELAND POUND', '225.5010', '202.9500', '0.0000', '231.9442']);
    assert.deepEqual(obs, [
      { date: '2026-03-20', quote: 'USD', rate: '157.6302', unit: 1, direction: 'direct' },
      { date: '2026-03-20', quote: 'DOP', rate: '2.60435', unit: 1, direction: 'direct' },
    ]);
  });

  test('a side quoted as 0.0000 gives no rate', () => {
    assert.deepEqual(rows(USD, ['20 Mar 2026', 'BERMUDA DOLLAR', '0.0000', '148.0000', '0.0000', '158.6594']).map((o) => o.quote), ['USD']);
  });

  test('rejects an HTML error page, and tells it from the nonce page', () => {
    const html = '<!DOCTYPE html><html><head><title>Page not found - Bank of Jamaica</title></head><body></body></html>';
    assert.throws(() => source.parse({ name: LIVE, body: Buffer.from(html) }), (err) => err instanceof ParseError && !(err instanceof NoPublication));
  });

  test('rejects a truncated payload', () => {
    const text = `{"draw":1,"recordsTotal":104868,"recordsFiltered":104868,"data":[${JSON.stringify(USD)},["20 Mar 2026","EURO","182.47`;
    assert.throws(() => source.parse({ name: LIVE, body: Buffer.from(text) }), /not JSON/);
  });

  test('rejects an empty table, an expired nonce and unknown names', () => {
    assert.throws(() => rows(), /holds no rates/);
    assert.throws(() => source.parse({ name: LIVE, body: Buffer.from('0') }), /no data array/);
    assert.throws(() => rows(['20 Mar 2026', 'US DOLLAR', '1', '1', '0', '1']), /unknown currency "US DOLLAR"/);
    assert.throws(() => rows(['2026-03-20', 'EURO', '1', '1', '0', '1']), /bad date/);
    assert.throws(() => rows(['20 Mar 2026', 'EURO', '1', '1']), /is not \[date, currency/);
  });

  test('accepts table 134 and the counter-rates page only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://boj.org.jm/market/foreign-exchange/counter-rates/'));
    assert.ok(!source.accepts('https://boj.org.jm/wp-admin/admin-ajax.php?action=get_wdtable&table_id=118'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
