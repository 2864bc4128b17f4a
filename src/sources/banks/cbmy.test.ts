// CBMY payloads are grade C (SOURCES-2.md): a real body in a cassette hand-assembled upstream,
// corroborated against ECB crosses.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './cbmy.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('CBMY');
const FILE = 'cbm-api-latest-2026-04-09.json';

const parse = (body: string) => source.parse({ name: 'api/latest', body: Buffer.from(body) }) as Observation[];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const quoted = (obs: Observation[], quote: string) => {
  const o = obs.find((x) => x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};

describe('CBMY recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('latest of 2026-04-09: 38 currencies, MMK per unit, six of them per 100', () => {
    const obs = parseFile(FILE);
    assert.equal(obs.length, 38);
    assert.deepEqual([...new Set(obs.map((o) => o.date))], ['2026-04-09']);
    assert.ok(obs.every((o) => o.direction === 'direct'));
    assert.deepEqual(obs.filter((o) => o.unit === 100).map((o) => o.quote).sort(), ['IDR', 'JPY', 'KHR', 'KRW', 'LAK', 'VND']);
    assert.equal(quoted(obs, 'USD'), '2100.00/1');
    assert.equal(quoted(obs, 'EUR'), '2449.65/1');
    assert.equal(quoted(obs, 'JPY'), '1321.88/100');
    assert.equal(quoted(obs, 'KRW'), '141.81/100');
    assert.equal(quoted(obs, 'VND'), '7.98/100');
    assert.equal(quoted(obs, 'KWD'), '6851.55/1');
    assert.equal(quoted(obs, 'LKR'), '6.66/1');
  });

  test('requests one history day per weekday and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(
      [...requests],
      ['02', '03', '04', '05', '06'].map((d) => ({ url: `http://127.0.0.1:1/history/${d}-03-2026`, optional: true })),
    );
    assert.deepEqual(source.requests({ from: '2026-03-06', to: '2026-03-09' }, { base: source.baseUrl }).map((r) => r.url), [
      'https://forex.cbm.gov.mm/api/history/06-03-2026',
      'https://forex.cbm.gov.mm/api/history/09-03-2026',
    ]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    // Only one day is served: the other four answer 404 and are skipped as days without figures.
    const body = readFileSync(new URL(FILE, DIR));
    const server = await startFeedServer({ '/history/04-03-2026': { body, contentType: 'application/json' } });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.map((p) => p.name), [`${server.url}/history/04-03-2026`]);
      assert.deepEqual(payloads.flatMap((p) => source.parse(p) as Observation[]), parseFile(FILE));
      assert.equal(server.requests.length, 5);
    } finally {
      await server.close();
    }
  });
});

describe('CBMY edge cases', () => {
  const doc = (rates: string, timestamp = '1772668800') =>
    `{"info":"Central Bank of Myanmar","description":"Official Website of Central Bank of Myanmar","timestamp":"${timestamp}","rates":{${rates}}}`;

  test('dates the figures by the Yangon day of the timestamp', () => {
    // 2026-03-04 18:00 UTC is already 2026-03-05 00:30 in Yangon.
    assert.deepEqual(parse(doc('"USD":"2100.00","JPY":"1330.50"', '1772647200')), [
      { date: '2026-03-05', quote: 'USD', rate: '2100.00', unit: 1, direction: 'direct' },
      { date: '2026-03-05', quote: 'JPY', rate: '1330.50', unit: 100, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head><body></body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    const full = doc('"USD":"2100.00","EUR":"2449.65"');
    assert.throws(() => parse(full.slice(0, full.length - 12)), /not JSON/);
  });

  test('rejects an empty rates object and bad values', () => {
    assert.throws(() => parse(doc('')), /holds no rates/);
    assert.throws(() => parse('{"info":"Central Bank of Myanmar","timestamp":"1772668800"}'), /no rates object/);
    assert.throws(() => parse(doc('"USD":"2100.00"', 'yesterday')), /bad timestamp/);
    assert.throws(() => parse(doc('"USD":"n/a"')), /USD on 2026-03-05: not a number/);
    assert.throws(() => parse(doc('"US$":"2100"')), /bad currency code/);
  });

  test('accepts the latest and history calls only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://forex.cbm.gov.mm/api/history/09-04-2026'));
    assert.ok(!source.accepts('https://forex.cbm.gov.mm/api/currencies'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
