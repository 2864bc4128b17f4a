import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fixtureDir } from '../../../test/support/fixtures.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { source } from './bisb.js';

const DIR = fixtureDir('BISB');
// The recorded payloads (SOURCE.md describes them and is not one).
const FILES = [
  'WS_XRU-M-E-1900-01-1900-01.csv',
  'WS_XRU-M-E-2001-05-2001-05.csv',
  'WS_XRU-M-E-2025-01-2025-02.csv',
];
const WINDOW = { from: '2025-04-28', to: '2025-05-05' };
const FLOW = '/api/v2/data/dataflow/BIS/WS_XRU/1.0/M...E';

const parseFile = (name: string): Observation[] => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote)?.rate;
const HEADER = 'DATAFLOW,FREQ,REF_AREA,CURRENCY,COLLECTION,TIME_PERIOD,OBS_VALUE,UNIT_MULT,DECIMALS,AVAILABILITY,TITLE,OBS_STATUS,OBS_PRE_BREAK,OBS_CONF';
const line = (area: string, currency: string, period: string, value: string, mult = '0') => `BIS:WS_XRU(1.0),M,${area},${currency},E,${period},${value},${mult},6,A, Exchange rates against USD x,A,,F`;
const parse = (...lines: string[]) => source.parse({ name: 'WS_XRU-M-E-2025-01-2025-01.csv', body: Buffer.from(`${[HEADER, ...lines].join('\n')}\n`) });

describe('BISB recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    assert.deepEqual(readdirSync(DIR).sort().filter((f) => source.accepts(f)), FILES);
  });

  test('every figure is a month\'s period rate, units per US dollar, one per currency and month', () => {
    for (const name of FILES) {
      const obs = parseFile(name);
      assert.ok(obs.length > 0, name);
      for (const o of obs) {
        assert.match(`${o.date} ${o.validTo} ${o.quote} ${o.rate}`, /^\d{4}-\d{2}-01 \d{4}-\d{2}-(28|29|30|31) [A-Z]{3} \d+(\.\d+)?$/, name);
        assert.equal(o.date.slice(0, 7), o.validTo!.slice(0, 7));
        assert.equal(o.direction, 'indirect');
      }
      assert.equal(new Set(obs.map((o) => `${o.date} ${o.quote}`)).size, obs.length, name);
    }
  });

  test('2025-01 and 2025-02: 180 rows a month, 135 currencies besides USD; exact values at full precision', () => {
    const obs = parseFile('WS_XRU-M-E-2025-01-2025-02.csv');
    assert.equal(obs.length, 270);
    assert.deepEqual([...new Set(obs.map((o) => `${o.date}..${o.validTo}`))].sort(), ['2025-01-01..2025-01-31', '2025-02-01..2025-02-28']);
    assert.equal(rate(obs, '2025-01-01', 'GBP'), '0.804465');
    assert.equal(rate(obs, '2025-02-01', 'GBP'), '0.793468');
    assert.equal(rate(obs, '2025-01-01', 'JPY'), '154.902338');
    assert.equal(rate(obs, '2025-02-01', 'CHF'), '0.902315');
    assert.equal(rate(obs, '2025-02-01', 'KRW'), '1459.917395');
    assert.equal(rate(obs, '2025-01-01', 'XDR'), '0.766971');
    assert.equal(rate(obs, '2025-01-01', 'TWD'), '32.85');
    // ISK printed with 2 decimals, TRY with 12: as published.
    assert.equal(rate(obs, '2025-01-01', 'ISK'), '141.15');
    assert.equal(rate(obs, '2025-01-01', 'TRY'), '35.856345617242');
    assert.equal(rate(obs, '2025-01-01', 'USD'), undefined);
  });

  test('a currency of several economies is read from the union\'s row: EUR from XM (24 rows), XOF from WA, AUD from AU', () => {
    const text = readFileSync(new URL('WS_XRU-M-E-2025-01-2025-02.csv', DIR), 'utf8');
    assert.equal(text.split('\n').filter((l) => l.includes(',EUR,E,2025-01,')).length, 24);
    const obs = parseFile('WS_XRU-M-E-2025-01-2025-02.csv');
    assert.equal(rate(obs, '2025-01-01', 'EUR'), '0.962186');
    assert.equal(rate(obs, '2025-02-01', 'EUR'), '0.960523');
    // Kiribati's AUD is 1.606426: Australia's row stands.
    assert.equal(rate(obs, '2025-01-01', 'AUD'), '1.607043');
    assert.equal(rate(obs, '2025-02-01', 'AUD'), '1.608011');
    assert.equal(rate(obs, '2025-02-01', 'XOF'), '630.061473');
    assert.equal(rate(obs, '2025-02-01', 'XAF'), '630.061473');
    assert.equal(rate(obs, '2025-02-01', 'XCD'), '2.7');
  });

  test('2001-05: before the euro the national "EUR" rows are other histories; the euro area\'s row stands', () => {
    const obs = parseFile('WS_XRU-M-E-2001-05-2001-05.csv');
    assert.equal(obs.length, 145);
    assert.equal(rate(obs, '2001-05-01', 'EUR'), '1.179245');
    assert.equal(rate(obs, '2001-05-01', 'GBP'), '0.704363');
    assert.equal(rate(obs, '2001-05-01', 'CHF'), '1.79316');
    assert.equal(rate(obs, '2001-05-01', 'AUD'), '1.972524');
    assert.equal(rate(obs, '2001-05-01', 'XOF'), '773.534198');
    // Restated in successor units under the successor's code, as the BIS publishes them.
    assert.equal(rate(obs, '2001-05-01', 'TRY'), '1.1733490566038');
    assert.equal(rate(obs, '2001-05-01', 'RON'), '2.876415');
  });

  test('codes the BIS keeps for a successor\'s unit are stored under the successor\'s code', () => {
    const recent = parseFile('WS_XRU-M-E-2025-01-2025-02.csv');
    assert.equal(rate(recent, '2025-01-01', 'SLE'), '22.6082');
    assert.equal(rate(recent, '2025-01-01', 'VES'), '57.821684');
    assert.equal(rate(recent, '2025-01-01', 'SLL'), undefined);
    // The old dobra stays STD (23,550.9 per USD is its unit).
    assert.equal(rate(recent, '2025-01-01', 'STD'), '23550.9');
    const old = parseFile('WS_XRU-M-E-2001-05-2001-05.csv');
    assert.equal(rate(old, '2001-05-01', 'SLE'), '1.906745');
    // In 2001 the bolívar series is in bolívares fuertes (VEB / 1,000).
    assert.equal(rate(old, '2001-05-01', 'VEF'), '0.716');
  });

  test('1900-01: the one series reaching back that far', () => {
    assert.deepEqual(parseFile('WS_XRU-M-E-1900-01-1900-01.csv'), [{ date: '1900-01-01', validTo: '1900-01-31', quote: 'ZAR', rate: '0.4107', unit: 1, direction: 'indirect' }]);
  });
});

describe('BISB edge cases', () => {
  test('UNIT_MULT shifts the figure exactly; a month without an observation is left out; a header alone is no publication', () => {
    assert.deepEqual(parse(line('JP', 'JPY', '2025-01', '0.154902338', '3')).map((o) => o.rate), ['154.902338']);
    assert.deepEqual(parse(line('JP', 'JPY', '2025-01', ''), line('GB', 'GBP', '2025-01', '0.804465')).map((o) => o.quote), ['GBP']);
    assert.throws(() => parse(), NoPublication);
  });

  test('a shared currency without a union row: the economy named like it, else the first by code', () => {
    assert.deepEqual(parse(line('XY', 'NZD', '2025-01', '1.78'), line('NZ', 'NZD', '2025-01', '1.77'), line('CK', 'NZD', '2025-01', '1.79')).map((o) => o.rate), ['1.77']);
    assert.deepEqual(parse(line('TV', 'AAD', '2025-01', '2'), line('CK', 'AAD', '2025-01', '3')).map((o) => o.rate), ['3']);
  });

  test('an HTML page, another CSV and bad rows are ParseErrors', () => {
    assert.throws(() => source.parse({ name: 'x', body: Buffer.from('<!DOCTYPE html><html><body>Service unavailable</body></html>') }), ParseError);
    assert.throws(() => source.parse({ name: 'x', body: Buffer.from('TIME_PERIOD,OBS_VALUE\n2025-01,1\n') }), /no REF_AREA column/);
    assert.throws(() => parse(line('JP', 'JPY', '2025-13', '154.9')), /bad TIME_PERIOD/);
    assert.throws(() => parse(line('JP', 'JP', '2025-01', '154.9')), /bad CURRENCY/);
    assert.throws(() => parse(line('JP', 'JPY', '2025-01', 'abc')), /JPY of JP in 2025-01: not a number/);
    assert.throws(() => parse(line('JP', 'JPY', '2025-01', '154.9', 'x')), /bad UNIT_MULT/);
  });
});

describe('BISB requests', () => {
  test('the window\'s months and the three before it (late and revised figures), as SDMX-CSV', () => {
    const requests = source.requests(WINDOW, { base: 'http://127.0.0.1:1' });
    assert.deepEqual(requests, [{ url: `http://127.0.0.1:1${FLOW}?c%5BTIME_PERIOD%5D=ge:2025-01%2Ble:2025-05`, headers: { accept: 'application/vnd.sdmx.data+csv;version=1.0.0' } }]);
    assert.ok(source.accepts(requests[0]!.url));
    // A backfill from 1900 asks ten years at a time.
    const long = source.requests({ from: '1900-01-01', to: '2026-09-10' }, { base: 'http://x' });
    assert.equal(long.length, 13);
    assert.match(long[0]!.url, /ge:1899-10%2Ble:1909-09$/);
    assert.match(long.at(-1)!.url, /ge:2019-10%2Ble:2026-09$/);
  });

  test('round trip through the local feed server', async () => {
    const body = readFileSync(new URL('WS_XRU-M-E-2025-01-2025-02.csv', DIR));
    const server = await startFeedServer({ [FLOW]: { body, contentType: 'text/csv;charset=UTF-8' } });
    try {
      const payloads = await fetchSource(source, WINDOW, { base: server.url }, createHttpClient({ retries: 0 }));
      assert.deepEqual(server.requests.map((r) => [r.url, r.headers.accept]), [[`${FLOW}?c%5BTIME_PERIOD%5D=ge:2025-01%2Ble:2025-05`, 'application/vnd.sdmx.data+csv;version=1.0.0']]);
      assert.equal(payloads.length, 1);
      assert.deepEqual(source.parse(payloads[0]!), parseFile('WS_XRU-M-E-2025-01-2025-02.csv'));
    } finally {
      await server.close();
    }
  });
});
