import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './bnma.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BNMA');
const MONTH = 'exchange-rate-USD-2026-03-session-0900.json';
const LATEST = 'exchange-rate-session-0900-2026-03-19.json';

const parse = (body: string) => source.parse({ name: 'public/exchange-rate?session=0900', body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const quoted = (obs: Observation[], date: string, quote: string) => {
  const o = obs.find((x) => x.date === date && x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};

const CCY = 'AED AUD BND CAD CHF CNY EGP EUR GBP HKD IDR INR JPY KHR KRW MMK NPR NZD PHP PKR SAR SGD THB TWD USD VND XDR'.split(' ');
const PER_100 = 'AED HKD IDR INR JPY KHR KRW MMK NPR PHP PKR SAR THB TWD VND'.split(' ');

describe('BNMA recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [MONTH, LATEST]);
  });

  test('USD for March 2026: 14 business days of MYR per 1 USD, float noise removed', () => {
    const obs = parseFile(MONTH);
    assert.equal(obs.length, 14);
    assert.equal(obs[0]!.date, '2026-03-02');
    assert.equal(obs.at(-1)!.date, '2026-03-19');
    assert.ok(obs.every((o) => o.quote === 'USD' && o.unit === 1 && o.direction === 'direct'));
    // Sent as 3.9129999999999998, 3.9464999999999999, 3.9685000000000001, 3.9300000000000002.
    assert.equal(quoted(obs, '2026-03-02', 'USD'), '3.913/1');
    assert.equal(quoted(obs, '2026-03-06', 'USD'), '3.9465/1');
    assert.equal(quoted(obs, '2026-03-09', 'USD'), '3.9685/1');
    assert.equal(quoted(obs, '2026-03-19', 'USD'), '3.93/1');
    assert.equal(quoted(obs, '2026-03-07', 'USD'), undefined);
  });

  test('latest 09:00 session of 2026-03-19: 27 currencies, 15 of them per 100, SDR as XDR', () => {
    const obs = parseFile(LATEST);
    assert.ok(obs.every((o) => o.date === '2026-03-19' && o.direction === 'direct'));
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY);
    assert.deepEqual(obs.filter((o) => o.unit === 100).map((o) => o.quote).sort(), PER_100);
    assert.ok(obs.every((o) => o.unit === (PER_100.includes(o.quote) ? 100 : 1)));
    assert.equal(quoted(obs, '2026-03-19', 'INR'), '4.2244/100');
    // Only a middle rate for the SDR, no buying or selling.
    assert.equal(quoted(obs, '2026-03-19', 'XDR'), '5.3538/1');
    assert.equal(quoted(obs, '2026-03-19', 'KHR'), '0.0976/100');
    assert.equal(quoted(obs, '2026-03-19', 'IDR'), '0.0231/100');
    assert.equal(quoted(obs, '2026-03-19', 'HKD'), '50.1442/100');
    assert.equal(quoted(obs, '2026-03-19', 'JPY'), '2.4596/100');
    assert.equal(quoted(obs, '2026-03-19', 'VND'), '0.0149/100');
    assert.equal(quoted(obs, '2026-03-19', 'USD'), '3.93/1');
  });
});

describe('BNMA edge cases', () => {
  const META = '"meta":{"quote":"rm","session":"0900","last_updated":"2026-03-19 23:01:22","total_result":1}';

  test('skips a currency without a middle rate', () => {
    const obs = parse(`{"data":[{"currency_code":"EUR","unit":1,"rate":{"date":"2026-03-19","buying_rate":4.5053999999999998,"selling_rate":4.5130999999999997,"middle_rate":4.5092999999999996}},{"currency_code":"MMK","unit":100,"rate":{"date":"2026-03-19","buying_rate":null,"selling_rate":null,"middle_rate":null}}],${META}}`);
    assert.deepEqual(obs, [{ date: '2026-03-19', quote: 'EUR', rate: '4.5093', unit: 1, direction: 'direct' }]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    assert.throws(() => parse('{"data":{"currency_code":"USD","unit":1,"rate":[{"date":"2026-03-02","buying_rate":3.91000'), /not JSON/);
  });

  test('rejects an empty table, an error reply and the fx quote', () => {
    assert.throws(() => parse(`{"data":[],${META}}`), /holds no rates/);
    assert.throws(() => parse(`{"data":{"currency_code":"USD","unit":1,"rate":[]},${META}}`), /holds no rates/);
    assert.throws(() => parse('{"message":"No records found."}'), /has no data/);
    assert.throws(() => parse(`{"data":[{"currency_code":"USD","unit":1,"rate":{"date":"2026-03-19","middle_rate":0.2545}}],"meta":{"quote":"fx"}}`), /is not rm/);
    assert.throws(() => parse(`{"data":[{"currency_code":"USD","unit":"1","rate":{"date":"2026-03-19","middle_rate":3.93}}],${META}}`), /bad USD unit/);
  });

  test('an empty month of one currency is no publication; an empty latest reply is a fault', () => {
    assert.throws(() => parse(`{"data":{"currency_code":"USD","unit":1,"rate":[]},${META}}`), NoPublication);
    assert.throws(() => parse(`{"data":[],${META}}`), (err) => err instanceof ParseError && !(err instanceof NoPublication));
  });

  test('accepts the exchange-rate feeds only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://api.bnm.gov.my/public/exchange-rate/JPY/year/2026/month/3?session=0900&quote=rm'));
    assert.ok(!source.accepts('https://api.bnm.gov.my/public/kijang-emas'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('BNMA requests', () => {
  test('one request per currency and month, with the versioned media type', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.equal(requests.length, 27);
    assert.deepEqual(requests.find((r) => r.url.includes('/USD/')), {
      url: 'http://127.0.0.1:1/exchange-rate/USD/year/2026/month/3?session=0900&quote=rm',
      headers: { accept: 'application/vnd.BNM.API.v1+json' },
    });
    assert.ok(requests.every((r) => source.accepts(r.name ?? r.url) && r.method === undefined));
    const months = source.requests({ from: '2025-11-20', to: '2026-01-05' }, { base: 'http://h' }).filter((r) => r.url.includes('/EUR/'));
    assert.deepEqual(months.map((r) => r.url), [
      'http://h/exchange-rate/EUR/year/2025/month/11?session=0900&quote=rm',
      'http://h/exchange-rate/EUR/year/2025/month/12?session=0900&quote=rm',
      'http://h/exchange-rate/EUR/year/2026/month/1?session=0900&quote=rm',
    ]);
  });

  test('round trip through the local feed server', async () => {
    const usd = readFileSync(new URL(MONTH, DIR));
    // The recorded USD month for USD; for the other currencies the same reply under their code.
    const server = await startFeedServer((path) => {
      const ccy = /^\/exchange-rate\/([A-Z]{3})\/year\/2026\/month\/3\?/.exec(path)?.[1];
      if (ccy === undefined) return undefined;
      return { body: ccy === 'USD' ? usd : usd.toString('utf8').replace('"currency_code":"USD"', `"currency_code":"${ccy}"`), contentType: 'application/json' };
    });
    try {
      const window = { from: '2026-03-02', to: '2026-03-06' };
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 27);
      assert.ok(server.requests.every((r) => r.headers.accept === 'application/vnd.BNM.API.v1+json'));
      const usdPayload = payloads.find((p) => p.name.includes('/USD/'))!;
      assert.deepEqual(source.parse(usdPayload), parseFile(MONTH));
      assert.deepEqual(payloads.map((p) => source.parse(p)[0]!.quote).sort(), CCY);
    } finally {
      await server.close();
    }
  });
});
