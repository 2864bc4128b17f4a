// Grade A (SOURCES-2.md): a complete VCR recording of the full-history file.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './mmau.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('MMAU');
const FILE = 'mma-referencerates-2026-05-21.json';

const parse = (body: string) => source.parse({ name: 'JSON/referencerates.json?v=20260521', body: Buffer.from(body) }) as Observation[];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const rate = (obs: Observation[], date: string) => obs.find((o) => o.date === date)?.rate;

describe('MMAU recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('2011-04-21 to 2026-05-21: MVR per USD, the two repeated February 2021 days once each', () => {
    const obs = parseFile(FILE);
    // 3,554 entries, of which 8 and 9 February 2021 appear twice with the same rate.
    assert.equal(obs.length, 3552);
    assert.ok(obs.every((o) => o.quote === 'USD' && o.unit === 1 && o.direction === 'direct'));
    assert.equal(obs[0]!.date, '2026-05-21');
    assert.equal(obs.at(-1)!.date, '2011-04-21');
    assert.equal(rate(obs, '2026-05-21'), '15.42');
    assert.equal(rate(obs, '2026-03-01'), '15.42');
    assert.equal(rate(obs, '2026-01-08'), '15.40');
    assert.equal(rate(obs, '2025-12-17'), '15.39');
    assert.equal(rate(obs, '2021-02-10'), '15.41');
    assert.equal(rate(obs, '2021-02-08'), '15.37');
    assert.equal(rate(obs, '2011-05-10'), '15.33');
    assert.equal(rate(obs, '2011-04-24'), '14.90');
    assert.equal(rate(obs, '2011-04-21'), '14.75');
    // Sunday to Thursday: no Friday or Saturday in the file.
    assert.equal(rate(obs, '2026-03-06'), undefined);
  });

  test('requests the one history file with the cache-buster and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/JSON/referencerates.json?v=20260306' }]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const server = await startFeedServer({ '/JSON/referencerates.json': { body: readFileSync(new URL(FILE, DIR)), contentType: 'application/json' } });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p) as Observation[]), parseFile(FILE));
      assert.deepEqual(server.requests.map((r) => r.url), ['/JSON/referencerates.json?v=20260306']);
    } finally {
      await server.close();
    }
  });
});

describe('MMAU edge cases', () => {
  test('a rate stated for two days ("08/09 February 2021") counts for both', () => {
    assert.deepEqual(parse('[{"Date": "10 February 2021", "Rate": "15.41"}, {"Date": "08/09 February 2021", "Rate": "15.37"}]'), [
      { date: '2021-02-10', quote: 'USD', rate: '15.41', unit: 1, direction: 'direct' },
      { date: '2021-02-08', quote: 'USD', rate: '15.37', unit: 1, direction: 'direct' },
      { date: '2021-02-09', quote: 'USD', rate: '15.37', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>404 - File or directory not found.</title></head><body></body></html>'), /is not JSON/);
  });

  test('rejects a truncated file', () => {
    assert.throws(() => parse('[{"Date": "21 May 2026", "Rate": "15.42"}, {"Date": "20 May 20'), ParseError);
  });

  test('rejects an empty file, bad dates and a day listed twice with different rates', () => {
    assert.throws(() => parse('[]'), /not a non-empty array/);
    assert.throws(() => parse('{"Date": "21 May 2026", "Rate": "15.42"}'), /not a non-empty array/);
    assert.throws(() => parse('[{"Date": "21 Mai 2026", "Rate": "15.42"}]'), /bad Date/);
    assert.throws(() => parse('[{"Date": "21 May 2026", "Rate": ""}]'), /USD on 2026-05-21: not a number/);
    assert.throws(() => parse('[{"Date": "21 May 2026", "Rate": "15.42"}, {"Date": "21 May 2026", "Rate": "15.41"}]'), /listed twice/);
  });

  test('accepts the reference-rate file only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://www.mma.gov.mv/JSON/referencerates.json?v=20260521'));
    assert.ok(!source.accepts('https://www.mma.gov.mv/JSON/policyrates.json'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
