// BOMU recorded payloads are grade B (a real response trimmed upstream to four days, SOURCES-2.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './bomu.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BOMU');
const FILE = 'mongolbank-currency-rate-movement-data-2026-05-19_2026-05-22-TRIMMED.json';

const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const parse = (body: string) => source.parse({ name: 'https://www.mongolbank.mn/en/currency-rate-movement/data', body: Buffer.from(body) });
const rate = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote)?.rate;
const answer = (rows: string) => `{"success":true,"data":[${rows}],"langData":{"root":{"title":"The Central Bank of Mongolia"}}}`;

const COLUMNS = 'AED AUD BGN CAD CHF CNY CZK DKK EGP EUR GBP HKD HUF IDR INR JPY KPW KRW KWD KZT MYR NOK NPR NZD PLN RUB SEK SGD THB TRY TWD UAH USD VND XAG XAU XDR ZAR'.split(' ');

describe('BOMU recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('four days of 38 columns, MNT per 1 unit, SDR as XDR, metals per troy ounce', () => {
    const obs = parseFile(FILE);
    assert.deepEqual([...new Set(obs.map((o) => o.date))], ['2026-05-22', '2026-05-21', '2026-05-20', '2026-05-19']);
    assert.equal(obs.length, 4 * 38);
    for (const date of ['2026-05-19', '2026-05-22']) assert.deepEqual(obs.filter((o) => o.date === date).map((o) => o.quote).sort(), COLUMNS);
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'direct'));
    assert.equal(rate(obs, '2026-05-22', 'USD'), '3576.42');
    assert.equal(rate(obs, '2026-05-19', 'USD'), '3575.99');
    assert.equal(rate(obs, '2026-05-21', 'EUR'), '4151.42');
    // Published "4,549.00": the trailing zeros stay.
    assert.equal(rate(obs, '2026-05-22', 'CHF'), '4549.00');
    assert.equal(rate(obs, '2026-05-22', 'KWD'), '11657.17');
    // Per 1 rupiah, dong and won: two decimals, no scaling.
    assert.equal(rate(obs, '2026-05-22', 'IDR'), '0.20');
    assert.equal(rate(obs, '2026-05-22', 'VND'), '0.14');
    assert.equal(rate(obs, '2026-05-22', 'KRW'), '2.36');
    assert.equal(rate(obs, '2026-05-22', 'XAU'), '16172267.24');
    assert.equal(rate(obs, '2026-05-20', 'XAU'), '16016753.51');
    assert.equal(rate(obs, '2026-05-22', 'XAG'), '271833.67');
    // 4,522 USD at the bank's own dollar (3576.42): the price of an ounce (D19).
    assert.equal((16172267.24 / 3576.42).toFixed(0), '4522');
    assert.equal(rate(obs, '2026-05-19', 'XDR'), '4888.17');
    // Still quoted in 2026, after the lev's end: reported as published.
    assert.equal(rate(obs, '2026-05-22', 'BGN'), '2148.00');
  });

  test('POSTs the range as JSON and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{
      url: 'http://127.0.0.1:1/currency-rate-movement/data',
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{"startDate":"2026-03-02","endDate":"2026-03-06"}',
    }]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const server = await startFeedServer({ '/currency-rate-movement/data': { body: readFileSync(new URL(FILE, DIR)), contentType: 'application/json; charset=utf-8' } });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p) as Observation[]), parseFile(FILE));
      assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url} ${r.body}`), ['POST /currency-rate-movement/data {"startDate":"2026-03-02","endDate":"2026-03-06"}']);
      assert.equal(server.requests[0]!.headers['content-type'], 'application/json');
    } finally {
      await server.close();
    }
  });
});

describe('BOMU edge cases', () => {
  test('reads comma thousands and skips columns without a figure that day', () => {
    assert.deepEqual(parse(answer('{"RATE_DATE":"2026-03-04","USD":"3,576.42","KPW":null,"NPR":"","SDR":"4,887.93"}')), [
      { date: '2026-03-04', quote: 'USD', rate: '3576.42', unit: 1, direction: 'direct' },
      { date: '2026-03-04', quote: 'XDR', rate: '4887.93', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>403 Forbidden</title></head><body>Access denied</body></html>'), ParseError);
  });

  test('rejects a truncated answer, a failed one and an empty one', () => {
    const full = answer('{"RATE_DATE":"2026-03-04","USD":"3,576.42","EUR":"4,151.69"}');
    assert.throws(() => parse(full.slice(0, full.indexOf('"EUR"'))), /not JSON/);
    assert.throws(() => parse('{"success":false,"message":"Invalid date"}'), /not a successful/);
    assert.throws(() => parse(answer('')), /holds no rates/);
    assert.throws(() => parse(answer('{"RATE_DATE":"2026-03-04"}')), /holds no rates/);
  });

  test('rejects bad dates, column names and figures', () => {
    assert.throws(() => parse(answer('{"RATE_DATE":"2026/03/04","USD":"3,576.42"}')), /bad RATE_DATE/);
    assert.throws(() => parse(answer('{"RATE_DATE":"2026-03-04","US dollar":"3,576.42"}')), /bad currency code/);
    assert.throws(() => parse(answer('{"RATE_DATE":"2026-03-04","USD":"3.576,42"}')), /bad figure/);
    assert.throws(() => parse(answer('{"RATE_DATE":"2026-03-04","USD":3576.42}')), /bad figure/);
  });

  test('accepts the data endpoint only', () => {
    assert.ok(!source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://www.mongolbank.mn/en/currency-rate-movement/data'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
