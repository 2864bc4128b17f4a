import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { source } from './hkma.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('HKMA');
const FILE = 'er-eeri-daily-end_of_day-from-2026-02-25.json';
const PATH = '/market-data-and-statistics/monthly-statistical-bulletin/er-ir/er-eeri-daily';

const parse = (body: string) => source.parse({ name: `public${PATH}?choose=end_of_day`, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote)?.rate;

const CCY = 'AUD CAD CHF CNY EUR GBP IDR INR JPY KRW MYR PHP SGD THB TWD USD ZAR'.split(' ');

describe('HKMA recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('25-28 Feb 2026, newest first: 17 currencies a day, the SDR on three, indices skipped', () => {
    const obs = parseFile(FILE);
    assert.deepEqual([...new Set(obs.map((o) => o.date))], ['2026-02-28', '2026-02-27', '2026-02-26', '2026-02-25']);
    assert.equal(obs.length, 4 * 17 + 3);
    assert.deepEqual(obs.filter((o) => o.date === '2026-02-28').map((o) => o.quote).sort(), CCY);
    assert.deepEqual(obs.filter((o) => o.date === '2026-02-27').map((o) => o.quote).sort(), [...CCY, 'XDR'].sort());
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'direct'));
    // Sent as 7.8245000000000005.
    assert.equal(rate(obs, '2026-02-28', 'USD'), '7.8245');
    assert.equal(rate(obs, '2026-02-28', 'JPY'), '0.05012');
    assert.equal(rate(obs, '2026-02-28', 'CNY'), '1.14015');
    assert.equal(rate(obs, '2026-02-27', 'XDR'), '10.75757525');
    assert.equal(rate(obs, '2026-02-26', 'GBP'), '10.6045');
    assert.equal(rate(obs, '2026-02-26', 'IDR'), '0.000467');
    assert.equal(rate(obs, '2026-02-25', 'IDR'), '0.0004659');
    assert.equal(rate(obs, '2026-02-25', 'KRW'), '0.005473');
    for (const legacy of ['DEM', 'NLG', 'BEF', 'FRF', 'ITL']) assert.equal(rate(obs, '2026-02-25', legacy), undefined);
    assert.ok(!obs.some((o) => o.rate === '101.2'), 'an index value leaked into the rates');
  });
});

describe('HKMA edge cases', () => {
  const doc = (records: string) => `{"header":{"success":true,"err_code":"0000","err_msg":"No error found"},"result":{"datasize":1,"records":[${records}]}}`;

  test('reads legacy currencies when they carry a figure', () => {
    const obs = parse(doc('{"end_of_day":"1998-12-31","usd":7.746,"dem":4.6495000000000006,"eur":null,"special_drawing_rights":null,"neeri_1983_trade_wgt":132.4}'));
    assert.deepEqual(obs, [
      { date: '1998-12-31', quote: 'USD', rate: '7.746', unit: 1, direction: 'direct' },
      { date: '1998-12-31', quote: 'DEM', rate: '4.6495', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page and an API error', () => {
    assert.throws(() => parse('<html><body><h1>502 Bad Gateway</h1></body></html>'), ParseError);
    assert.throws(() => parse('{"header":{"success":false,"err_code":"1003","err_msg":"Invalid date range"},"result":{}}'), /1003 Invalid date range/);
  });

  test('rejects a truncated payload', () => {
    const full = doc('{"end_of_day":"2026-02-27","usd":7.825,"gbp":10.536}');
    assert.throws(() => parse(full.slice(0, -25)), /not JSON/);
  });

  test('rejects an empty table and unknown fields', () => {
    assert.throws(() => parse(doc('')), /holds no rates/);
    assert.throws(() => parse(doc('{"end_of_day":"2026-02-27","usd":null}')), /holds no rates/);
    assert.throws(() => parse(doc('{"end_of_day":"2026-02-27","usd":7.825,"twi_2030":99.1}')), /unexpected field twi_2030/);
    assert.throws(() => parse(doc('{"end_of_day":"2026-02","usd":7.825}')), /bad end_of_day/);
  });

  test('a month not yet released and all-null days are no publication; an API error is a fault', () => {
    assert.throws(() => parse(doc('')), NoPublication);
    assert.throws(() => parse(doc('{"end_of_day":"2026-02-27","usd":null}')), NoPublication);
    const error = '{"header":{"success":false,"err_code":"1003","err_msg":"Invalid date range"},"result":{}}';
    assert.throws(() => parse(error), (err) => err instanceof ParseError && !(err instanceof NoPublication));
  });

  test('accepts the daily table only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://api.hkma.gov.hk/public/market-data-and-statistics/monthly-statistical-bulletin/er-ir/er-eeri-endperiod'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('HKMA requests', () => {
  test('one page of up to 100 days per request', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: `http://127.0.0.1:1${PATH}?choose=end_of_day&from=2026-03-02&to=2026-03-06&offset=0&pagesize=100` }]);
    assert.ok(requests.every((r) => source.accepts(r.name ?? r.url)));
    const long = source.requests({ from: '2025-01-01', to: '2025-06-30' }, { base: 'http://h' }).map((r) => /from=([\d-]+)&to=([\d-]+)/.exec(r.url)!.slice(1).join('..'));
    assert.deepEqual(long, ['2025-01-01..2025-04-10', '2025-04-11..2025-06-30']);
  });

  test('round trip through the local feed server', async () => {
    const body = readFileSync(new URL(FILE, DIR));
    const server = await startFeedServer({ [PATH]: { body, contentType: 'application/json' } });
    try {
      const window = { from: '2026-03-02', to: '2026-03-06' };
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 1);
      assert.equal(server.requests[0]!.url, `${PATH}?choose=end_of_day&from=2026-03-02&to=2026-03-06&offset=0&pagesize=100`);
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILE));
    } finally {
      await server.close();
    }
  });
});
