// FBIL for the Reserve Bank of India. Recorded payload grade C (SOURCES-2.md): a real body in a
// hand-assembled cassette, its figures corroborated against ECB crosses.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './rbis.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('RBIS');
const FILE = 'fbil-refrates-fetchfiltered-2026-03-17_2026-03-21.json';

const parse = (body: string) => source.parse({ name: source.feedUrl, body: Buffer.from(body) }) as Observation[];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const at = (obs: Observation[], date: string, quote: string) => {
  const o = obs.find((x) => x.date === date && x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};

describe('RBIS recorded payload', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('17-21 March 2026: three business days of six rates, units from the labels', () => {
    const obs = parseFile(FILE);
    // 19 March was an Indian holiday, 21 March a Saturday; the newest day comes first.
    assert.deepEqual([...new Set(obs.map((o) => o.date))], ['2026-03-20', '2026-03-18', '2026-03-17']);
    assert.equal(obs.length, 18);
    assert.deepEqual(obs.filter((o) => o.date === '2026-03-17').map((o) => o.quote), ['USD', 'GBP', 'EUR', 'JPY', 'AED', 'IDR']);
    assert.ok(obs.every((o) => o.direction === 'direct'));
    assert.deepEqual(obs.slice(0, 6).map((o) => o.unit), [1, 1, 1, 100, 1, 10000]);
    // Six printed decimals are kept: "rate":93.348300
    assert.equal(at(obs, '2026-03-20', 'USD'), '93.348300/1');
    assert.equal(at(obs, '2026-03-20', 'JPY'), '58.940000/100');
    assert.equal(at(obs, '2026-03-20', 'IDR'), '55.107900/10000');
    assert.equal(at(obs, '2026-03-18', 'GBP'), '123.637100/1');
    assert.equal(at(obs, '2026-03-17', 'EUR'), '106.095000/1');
    assert.equal(at(obs, '2026-03-17', 'AED'), '25.171300/1');
  });
});

describe('RBIS edge cases', () => {
  const ROW = '{"processRunDate":"2026-03-20 00:00:00","subProdName":"INR / 100 JPY","displayTime":"2026-03-20 13:00:00","rate":58.940000,"comments":""}';

  test('reads a row, with the multiplier taken from the label', () => {
    assert.deepEqual(parse(`[${ROW}]`), [{ date: '2026-03-20', quote: 'JPY', rate: '58.940000', unit: 100, direction: 'direct' }]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>'), /not JSON/);
  });

  test('rejects a truncated payload', () => {
    assert.throws(() => parse(`[${ROW},${ROW.slice(0, 60)}`), /not JSON/);
  });

  test('an empty array is a window without business days; other shapes are faults', () => {
    assert.throws(() => parse('[]'), NoPublication);
    assert.throws(() => parse('{"status":500,"error":"Internal Server Error"}'), /not an array/);
    assert.throws(() => parse('[]'), (err: unknown) => err instanceof ParseError);
  });

  test('rejects rows with a label, date or rate it cannot read', () => {
    assert.throws(() => parse(`[${ROW.replace('INR / 100 JPY', 'JPY/INR')}]`), /is not "INR \/ N CCY"/);
    assert.throws(() => parse(`[${ROW.replace('INR / 100 JPY', 'INR / 0 JPY')}]`), /bad unit/);
    assert.throws(() => parse(`[${ROW.replace('2026-03-20 00:00:00', '20-03-2026')}]`), /bad processRunDate/);
    assert.throws(() => parse(`[${ROW.replace('58.940000', 'null')}]`), /JPY on 2026-03-20: no rate/);
  });

  test('accepts the fetchfiltered API only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.fbil.org.in/#/refrates'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('RBIS requests', () => {
  test('one query for the whole window', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/wasdm/refrates/fetchfiltered?authenticated=false&fromDate=2026-03-02&toDate=2026-03-06' }]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url));
  });

  test('round trip through a local feed server', async () => {
    const server = await startFeedServer({ '/wasdm/refrates/fetchfiltered': { body: readFileSync(new URL(FILE, DIR)), contentType: 'application/json' } });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-17', to: '2026-03-21' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 1);
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILE));
      assert.deepEqual(server.requests.map((r) => r.url), ['/wasdm/refrates/fetchfiltered?authenticated=false&fromDate=2026-03-17&toDate=2026-03-21']);
    } finally {
      await server.close();
    }
  });
});
