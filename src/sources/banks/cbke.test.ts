import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './cbke.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('CBKE');

const FILE = 'wdtable-193-forex.json';
const NAME = 'https://www.centralbank.go.ke/wp-admin/admin-ajax.php?action=get_wdtable&table_id=193';
const parse = (body: string) => source.parse({ name: NAME, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const find = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote);
/** "rate per unit, direction", so one assertion covers all three. */
const quoted = (obs: Observation[], date: string, quote: string) => {
  const o = find(obs, date, quote);
  return o && `${o.rate}/${o.unit} ${o.direction}`;
};

const CCY = 'AED AUD BIF CAD CHF CNY DKK EUR GBP HKD INR JPY NOK RWF SAR SEK SGD TZS UGX USD ZAR'.split(' ');

describe('CBKE recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('table 193: 549 days × 21 currencies, the repeated 28/11/2025 kept once', () => {
    const obs = parseFile(FILE);
    const dates = [...new Set(obs.map((o) => o.date))].sort();
    assert.equal(dates.length, 549);
    assert.equal(dates[0], '2024-01-05');
    assert.equal(dates.at(-1), '2026-03-19');
    assert.equal(obs.length, 549 * 21);
    for (const date of ['2024-01-05', '2025-11-28', '2026-03-19']) {
      assert.deepEqual(obs.filter((o) => o.date === date).map((o) => o.quote).sort(), CCY, date);
    }
  });

  test('KES per unit, JPY per 100, the East African cross rows indirect', () => {
    const obs = parseFile(FILE);
    assert.equal(quoted(obs, '2024-01-05', 'USD'), '157.9012/1 direct');
    assert.equal(quoted(obs, '2024-01-08', 'USD'), '158.3000/1 direct');
    assert.equal(quoted(obs, '2024-01-05', 'JPY'), '109.3764/100 direct');
    assert.equal(quoted(obs, '2024-01-05', 'UGX'), '24.0657/1 indirect');
    // Published with four decimals even where the figure has two: the zeros are kept.
    assert.equal(quoted(obs, '2026-03-19', 'USD'), '129.5200/1 direct');
    assert.equal(quoted(obs, '2026-03-19', 'GBP'), '172.4900/1 direct');
    assert.equal(quoted(obs, '2026-03-19', 'JPY'), '81.2000/100 direct');
    assert.equal(quoted(obs, '2026-03-19', 'TZS'), '20.1100/1 indirect');
    assert.equal(quoted(obs, '2026-03-19', 'RWF'), '11.2600/1 indirect');
    assert.equal(quoted(obs, '2026-03-19', 'BIF'), '22.9200/1 indirect');
    assert.equal(quoted(obs, '2026-03-19', 'HKD'), '16.5300/1 direct');
    assert.equal(quoted(obs, '2025-11-28', 'EUR'), '150.4737/1 direct');
    assert.ok(obs.filter((o) => ['UGX', 'TZS', 'RWF', 'BIF'].includes(o.quote)).every((o) => o.direction === 'indirect'));
    assert.ok(obs.filter((o) => !['UGX', 'TZS', 'RWF', 'BIF'].includes(o.quote)).every((o) => o.direction === 'direct'));
    assert.ok(obs.every((o) => o.unit === (o.quote === 'JPY' ? 100 : 1)));
  });

  test('requests the whole table by POST and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [
      {
        url: 'http://127.0.0.1:1/wp-admin/admin-ajax.php?action=get_wdtable&table_id=193',
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'draw=1&start=0&length=-1',
      },
    ]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const server = await startFeedServer({
      '/wp-admin/admin-ajax.php?action=get_wdtable&table_id=193': { body: readFileSync(new URL(FILE, DIR)), contentType: 'text/html; charset=UTF-8' },
    });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p)), parseFile(FILE));
      assert.deepEqual(
        server.requests.map((r) => [r.method, r.headers['content-type'], r.body]),
        [['POST', 'application/x-www-form-urlencoded', 'draw=1&start=0&length=-1']],
      );
    } finally {
      await server.close();
    }
  });
});

describe('CBKE edge cases', () => {
  const table = (...rows: string[]) => `{"draw":1,"recordsTotal":"${rows.length}","recordsFiltered":"${rows.length}","data":[${rows.join(',')}]}`;

  test('reads escaped slashes and day-first dates', () => {
    assert.deepEqual(parse(table('["02\\/03\\/2026","KES \\/ USHS","29.0900"]', '["02\\/03\\/2026","JPY (100)","81.2000"]')), [
      { date: '2026-03-02', quote: 'UGX', rate: '29.0900', unit: 1, direction: 'indirect' },
      { date: '2026-03-02', quote: 'JPY', rate: '81.2000', unit: 100, direction: 'direct' },
    ]);
  });

  test('rejects an unknown currency name and two different figures for one day', () => {
    assert.throws(() => parse(table('["02\\/03\\/2026","KES \\/ SSP","29.0900"]')), /unknown currency "KES \/ SSP"/);
    assert.throws(() => parse(table('["02\\/03\\/2026","US DOLLAR","129.5200"]', '["02\\/03\\/2026","US DOLLAR","129.5300"]')), /two USD means on 2026-03-02/);
  });

  test('rejects an HTML error page and the WordPress "0" answer', () => {
    assert.throws(() => parse('<!DOCTYPE html><html lang="en-US"><head><title>Page not found – Central Bank of Kenya</title></head><body></body></html>'), ParseError);
    assert.throws(() => parse('0'), /no data array/);
  });

  test('rejects a truncated payload', () => {
    const full = table('["02\\/03\\/2026","US DOLLAR","129.5200"]', '["02\\/03\\/2026","EURO","149.1600"]');
    assert.throws(() => parse(full.slice(0, full.length - 20)), /not JSON/);
  });

  test('rejects an empty table and malformed rows', () => {
    assert.throws(() => parse(table()), /holds no rates/);
    assert.throws(() => parse(table('["2026-03-02","US DOLLAR","129.5200"]')), /bad date/);
    assert.throws(() => parse(table('["02\\/03\\/2026","US DOLLAR"]')), /is not \[date, currency, mean\]/);
    assert.throws(() => parse(table('["02\\/03\\/2026","US DOLLAR","n\\/a"]')), /bad USD mean/);
  });

  test('accepts table 193 only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.centralbank.go.ke/wp-admin/admin-ajax.php?action=get_wdtable&table_id=32'));
    assert.ok(!source.accepts('https://www.centralbank.go.ke/wp-admin/admin-ajax.php?action=get_wdtable&table_id=1930'));
    assert.ok(!source.accepts('https://www.centralbank.go.ke/forex/'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
