import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './both.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BOTH');
const FILE = 'DAILY_AVG_EXG_RATE-2026-04-01_2026-04-03.json';

const parse = (body: string) => source.parse({ name: 'Stat-ExchangeRate/v2/DAILY_AVG_EXG_RATE/', body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const find = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote);
const quoted = (obs: Observation[], date: string, quote: string) => {
  const o = find(obs, date, quote);
  return o && `${o.rate}/${o.unit}`;
};

const CCY = 'AUD BND CAD CHF CNY DKK EUR GBP HKD IDR INR JPY MYR NOK NZD PHP SEK SGD USD'.split(' ');

describe('BOTH recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('three days of 19 mid rates, JPY per 100 and IDR per 1,000 read from the names', () => {
    const obs = parseFile(FILE);
    assert.deepEqual([...new Set(obs.map((o) => o.date))], ['2026-04-03', '2026-04-02', '2026-04-01']);
    assert.equal(obs.length, 3 * 19);
    for (const date of ['2026-04-01', '2026-04-02', '2026-04-03']) {
      assert.deepEqual(obs.filter((o) => o.date === date).map((o) => o.quote).sort(), CCY);
    }
    assert.ok(obs.every((o) => o.direction === 'direct'));
    assert.deepEqual(obs.filter((o) => o.unit !== 1).map((o) => `${o.date} ${o.quote} ${o.unit}`), [
      '2026-04-03 JPY 100', '2026-04-03 IDR 1000',
      '2026-04-02 JPY 100', '2026-04-02 IDR 1000',
      '2026-04-01 JPY 100', '2026-04-01 IDR 1000',
    ]);
    // The published text keeps its seven decimals.
    assert.equal(quoted(obs, '2026-04-03', 'USD'), '32.6448000/1');
    assert.equal(quoted(obs, '2026-04-03', 'JPY'), '20.4832000/100');
    assert.equal(quoted(obs, '2026-04-03', 'IDR'), '1.9296000/1000');
    assert.equal(quoted(obs, '2026-04-02', 'EUR'), '37.7903000/1');
    assert.equal(quoted(obs, '2026-04-02', 'PHP'), '0.5389000/1');
    assert.equal(quoted(obs, '2026-04-01', 'GBP'), '43.1684000/1');
    assert.equal(quoted(obs, '2026-04-01', 'IDR'), '1.9282000/1000');
    assert.equal(quoted(obs, '2026-04-01', 'CNY'), '4.7373000/1');
  });
});

describe('BOTH edge cases', () => {
  const row = (quote: string, name: string, mid: string) =>
    `{"period":"2026-04-03","currency_id":"${quote}","currency_name_th":"x","currency_name_eng":"${name}","buying_sight":"1.0000000","buying_transfer":"1.0000000","selling":"1.0000000","mid_rate":"${mid}"}`;
  const doc = (rows: string) =>
    `{"result":{"timestamp":"2026-04-05 18:18:57","api":"Daily Weighted-average Interbank Exchange Rate - THB / USD","data":{"data_header":{"report_uoq_name_eng":"(Unit: Baht / 1 Unit of Foreign Currency)","last_updated":"2026-04-03"},"data_detail":[${rows}]}}}`;

  test('reads the multiplier from the English name and skips a row without a mid', () => {
    const obs = parse(doc([
      row('KRW', 'KOREA : WON (100 WON) (KRW) ', '2.2050000'),
      row('VND', 'VIETNAM : DONG (1,000 DONG) (VND)', '1.2500000'),
      row('PKR', 'PAKISTAN : RUPEE (PKR)', ''),
    ].join(',')));
    assert.deepEqual(obs, [
      { date: '2026-04-03', quote: 'KRW', rate: '2.2050000', unit: 100, direction: 'direct' },
      { date: '2026-04-03', quote: 'VND', rate: '1.2500000', unit: 1000, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page and a gateway error', () => {
    assert.throws(() => parse('<html><head><title>503 Service Unavailable</title></head><body></body></html>'), ParseError);
    assert.throws(() => parse('{"httpCode":"401","httpMessage":"Unauthorized","moreInformation":"Client id not registered."}'), /no result\.data\.data_detail/);
  });

  test('rejects a truncated payload', () => {
    const full = doc(row('USD', 'USA : DOLLAR (USD) ', '32.6448000'));
    assert.throws(() => parse(full.slice(0, -40)), /not JSON/);
  });

  test('rejects an empty table and bad rows', () => {
    assert.throws(() => parse(doc('')), /holds no rates/);
    assert.throws(() => parse(doc(row('usd', 'USA : DOLLAR (USD)', '32.6'))), /bad currency_id/);
    assert.throws(() => parse(doc(row('USD', 'USA : DOLLAR (USD)', '32,6x'))), /bad USD mid_rate/);
  });

  test('a period without business days is no publication; the same answer to the bare call is a fault', () => {
    const name = 'https://gateway.api.bot.or.th/Stat-ExchangeRate/v2/DAILY_AVG_EXG_RATE/?start_period=2026-04-04&end_period=2026-04-05';
    assert.throws(() => source.parse({ name, body: Buffer.from(doc('')) }), NoPublication);
    assert.throws(() => parse(doc('')), (err) => err instanceof ParseError && !(err instanceof NoPublication));
  });

  test('accepts the daily feed only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://gateway.api.bot.or.th/Stat-ExchangeRate/v2/MONTHLY_AVG_EXG_RATE/?start_period=2026-01'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('BOTH requests', () => {
  test('one ranged GET with the key in the Authorization header; long windows are cut in 90 days', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.ok(requests.every((r) => source.accepts(r.name ?? r.url)));
    assert.deepEqual(requests, [{
      url: 'http://127.0.0.1:1/Stat-ExchangeRate/v2/DAILY_AVG_EXG_RATE/?start_period=2026-03-02&end_period=2026-03-06',
      headers: { accept: 'application/json', authorization: 'k' },
    }]);
    const year = source.requests({ from: '2025-01-01', to: '2025-12-31' }, { base: 'http://h', key: 'k' }).map((r) => r.url.split('?')[1]);
    assert.deepEqual(year, [
      'start_period=2025-01-01&end_period=2025-03-31',
      'start_period=2025-04-01&end_period=2025-06-29',
      'start_period=2025-06-30&end_period=2025-09-27',
      'start_period=2025-09-28&end_period=2025-12-26',
      'start_period=2025-12-27&end_period=2025-12-31',
    ]);
  });

  test('round trip through the local feed server', async () => {
    const body = readFileSync(new URL(FILE, DIR));
    const server = await startFeedServer({ '/Stat-ExchangeRate/v2/DAILY_AVG_EXG_RATE/': { body, contentType: 'application/json' } });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 1);
      assert.equal(server.requests[0]!.url, '/Stat-ExchangeRate/v2/DAILY_AVG_EXG_RATE/?start_period=2026-03-02&end_period=2026-03-06');
      assert.equal(server.requests[0]!.headers.authorization, 'k');
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILE));
    } finally {
      await server.close();
    }
  });
});
