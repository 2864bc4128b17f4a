import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './riks.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('RIKS');
const FILE = 'swea-ByGroup-130-2026-03-24_2026-03-28.json';

const parse = (body: string) => source.parse({ name: 'https://api.riksbank.se/swea/v1/Observations/ByGroup/130/2026-03-02/2026-03-06', body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote)?.rate;
const dates = (obs: Observation[]) => [...new Set(obs.map((o) => o.date))];

const CCY = 'AUD BRL CAD CHF CNY CZK DKK EUR GBP HKD HUF IDR ILS INR ISK JPY KRW MXN MYR NOK NZD PHP PLN RON SGD THB TRY USD ZAR'.split(' ');

describe('RIKS recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('group 130 of 24–27 Mar 2026: 29 currencies, SEK per 1 unit, SEKETT left out', () => {
    const obs = parseFile(FILE);
    assert.deepEqual(dates(obs), ['2026-03-24', '2026-03-25', '2026-03-26', '2026-03-27']);
    assert.equal(obs.length, 4 * 29);
    for (const date of dates(obs)) assert.deepEqual(obs.filter((o) => o.date === date).map((o) => o.quote).sort(), CCY);
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'direct'));
    assert.ok(!obs.some((o) => o.quote === 'SEK' || o.quote === 'ETT'));
    // Published as the JSON number 6.5 (6.50000 at five decimals).
    assert.equal(rate(obs, '2026-03-24', 'AUD'), '6.5');
    assert.equal(rate(obs, '2026-03-25', 'AUD'), '6.47054');
    assert.equal(rate(obs, '2026-03-24', 'EUR'), '10.8238');
    assert.equal(rate(obs, '2026-03-27', 'USD'), '9.44517');
    assert.equal(rate(obs, '2026-03-24', 'GBP'), '12.50714');
    // Per 1 unit, not per 100: small figures with few digits.
    assert.equal(rate(obs, '2026-03-24', 'JPY'), '0.05885');
    assert.equal(rate(obs, '2026-03-26', 'IDR'), '0.00056');
    assert.equal(rate(obs, '2026-03-24', 'HUF'), '0.02776');
    assert.equal(rate(obs, '2026-03-26', 'ISK'), '0.0756');
  });

  test('the request built on the base URL fetches a payload that parses like the file', async () => {
    const body = readFileSync(new URL(FILE, DIR));
    const server = await startFeedServer({ '/swea/v1/Observations/ByGroup/130/2026-03-24/2026-03-28': { body, contentType: 'application/json; charset=utf-8' } });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-24', to: '2026-03-28' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 1);
      assert.ok(source.accepts(payloads[0]!.name));
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILE));
      assert.equal(server.requests[0]!.headers['ocp-apim-subscription-key'], 'k');
    } finally {
      await server.close();
    }
  });
});

describe('RIKS edge cases', () => {
  const JSON_BODY = '[{"seriesId":"SEKETT","date":"2026-03-02","value":1},{"seriesId":"SEKEURPMI","date":"2026-03-02","value":10.9015},{"seriesId":"SEKJPYPMI","date":"2026-03-02","value":0.06012}]';

  test('reads SEK{CCY}PMI series and skips SEKETT', () => {
    assert.deepEqual(parse(JSON_BODY), [
      { date: '2026-03-02', quote: 'EUR', rate: '10.9015', unit: 1, direction: 'direct' },
      { date: '2026-03-02', quote: 'JPY', rate: '0.06012', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page and an API error object', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head><body></body></html>'), /not JSON/);
    assert.throws(() => parse('{"statusCode":429,"message":"Rate limit is exceeded. Try again in 12 seconds."}'), /not an array/);
  });

  test('rejects a truncated payload', () => {
    assert.throws(() => parse(JSON_BODY.slice(0, 80)), ParseError);
  });

  test('rejects an empty table, foreign series and bad values', () => {
    assert.throws(() => parse('[]'), /holds no rates/);
    assert.throws(() => parse('[{"seriesId":"SEKETT","date":"2026-03-02","value":1}]'), /holds no rates/);
    assert.throws(() => parse('[{"seriesId":"SECBREPOEFF","date":"2026-03-02","value":1.75}]'), /unexpected series "SECBREPOEFF"/);
    assert.throws(() => parse('[{"seriesId":"SEKUSDPMI","date":"2026-03-02","value":null}]'), /no value on 2026-03-02/);
    assert.throws(() => parse('[{"seriesId":"SEKUSDPMI","date":"02.03.2026","value":9.1}]'), /bad date/);
  });

  test('builds one ByGroup request for the window on the base URL, key in the subscription header', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url));
    assert.deepEqual(requests, [
      { url: 'http://127.0.0.1:1/swea/v1/Observations/ByGroup/130/2026-03-02/2026-03-06', headers: { accept: 'application/json', 'ocp-apim-subscription-key': 'k' } },
    ]);
    // The key is optional: without one no header is sent.
    assert.deepEqual(source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1' })[0]!.headers, { accept: 'application/json' });
  });

  test('accepts group 130 only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://api.riksbank.se/swea/v1/Observations/ByGroup/131/2026-03-02/2026-03-06'));
    assert.ok(!source.accepts('https://api.riksbank.se/swea/v1/Observations/SECBREPOEFF/2026-03-02'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
