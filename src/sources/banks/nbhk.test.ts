import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './nbhk.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('NBHK');
const FILE = 'EXR-B..NOK.SP-2026-03-16_2026-03-24.csv';

const parse = (body: string) => source.parse({ name: 'https://data.norges-bank.no/api/data/EXR/B..NOK.SP?format=csvdata&startPeriod=2026-03-02&endPeriod=2026-03-06', body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const find = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote);
/** "rate per unit" as a compact string, so one assertion covers both. */
const quoted = (obs: Observation[], date: string, quote: string) => {
  const o = find(obs, date, quote);
  return o && `${o.rate}/${o.unit}`;
};
const dates = (obs: Observation[]) => [...new Set(obs.map((o) => o.date))];

const PER_100 = 'BDT CHF CNY CZK DKK HUF IDR INR ISK JPY KRW MMK MXN PHP PKR RON SEK THB TRY TWD VND'.split(' ');
const PER_1 = 'AUD BRL BYN CAD EUR GBP HKD ILS MYR NZD PLN SGD USD XDR ZAR'.split(' ');

describe('NBHK recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('csvdata of 16–24 Mar 2026: 36 currencies, NOK per 1 or per 100, indices left out', () => {
    const obs = parseFile(FILE);
    assert.deepEqual(dates(obs), ['2026-03-16', '2026-03-17', '2026-03-18', '2026-03-19', '2026-03-20', '2026-03-23', '2026-03-24']);
    assert.equal(obs.length, 7 * 36);
    for (const date of dates(obs)) assert.deepEqual(obs.filter((o) => o.date === date).map((o) => o.quote).sort(), [...PER_100, ...PER_1].sort());
    assert.ok(obs.every((o) => o.direction === 'direct'));
    assert.ok(obs.every((o) => o.unit === (PER_100.includes(o.quote) ? 100 : 1)), 'UNIT_MULT 2 → 100, 0 → 1');
    assert.ok(!obs.some((o) => o.quote === 'TWI' || o.quote === 'I44'));
    assert.equal(quoted(obs, '2026-03-16', 'USD'), '9.7134/1');
    // Published as 11.149 with DECIMALS=4: the API itself drops the trailing zero.
    assert.equal(quoted(obs, '2026-03-16', 'EUR'), '11.149/1');
    assert.equal(quoted(obs, '2026-03-16', 'HUF'), '2.857/100');
    assert.equal(quoted(obs, '2026-03-16', 'JPY'), '6.1037/100');
    assert.equal(quoted(obs, '2026-03-16', 'CHF'), '1233.16/100');
    assert.equal(quoted(obs, '2026-03-16', 'IDR'), '0.057256/100');
    assert.equal(quoted(obs, '2026-03-16', 'XDR'), '13.19587/1');
    assert.equal(quoted(obs, '2026-03-24', 'SEK'), '103.76/100');
    assert.equal(quoted(obs, '2026-03-24', 'ISK'), '7.8/100');
    assert.equal(quoted(obs, '2026-03-24', 'MMK'), '0.4621/100');
    assert.equal(quoted(obs, '2026-03-24', 'GBP'), '12.9771/1');
    assert.equal(quoted(obs, '2026-03-24', 'KRW'), '0.6475/100');
  });

  test('the request built on the base URL fetches a payload that parses like the file', async () => {
    const body = readFileSync(new URL(FILE, DIR));
    const server = await startFeedServer({ '/api/data/EXR/B..NOK.SP?format=csvdata&startPeriod=2026-03-16&endPeriod=2026-03-24&locale=en': { body, contentType: 'text/csv;charset=UTF-8' } });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-16', to: '2026-03-24' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 1);
      assert.ok(source.accepts(payloads[0]!.name));
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILE));
    } finally {
      await server.close();
    }
  });
});

describe('NBHK edge cases', () => {
  const HEADER = 'FREQ,BASE_CUR,QUOTE_CUR,TENOR,DECIMALS,CALCULATED,UNIT_MULT,COLLECTION,TIME_PERIOD,OBS_VALUE';
  const CSV = [
    HEADER,
    'B,JPY,NOK,SP,4,false,2,C,2026-03-02,6.2010',
    'B,TWI,NOK,SP,2,true,0,C,2026-03-02,127.35',
    'B,I44,NOK,SP,2,true,0,C,2026-03-02,118.2',
    'B,USD,NOK,SP,4,false,0,C,2026-03-02,9.8012',
    '',
  ].join('\n');

  test('reads UNIT_MULT as a power of ten and skips the krone indices', () => {
    assert.deepEqual(parse(CSV), [
      { date: '2026-03-02', quote: 'JPY', rate: '6.2010', unit: 100, direction: 'direct' },
      { date: '2026-03-02', quote: 'USD', rate: '9.8012', unit: 1, direction: 'direct' },
    ]);
  });

  test('reads the Norwegian-locale layout (semicolons, decimal commas)', () => {
    const no = CSV.replaceAll(',', ';').replace('6.2010', '6,2010').replace('9.8012', '9,8012');
    assert.deepEqual(parse(no).map((o) => o.rate), ['6.2010', '9.8012']);
  });

  test('rejects an HTML error page and an SDMX text error', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>500 Internal Server Error</title></head><body></body></html>'), ParseError);
    assert.throws(() => parse('NoRecordsFound: No Results Found'), /not SDMX csvdata/);
  });

  test('rejects a truncated payload', () => {
    assert.throws(() => parse(CSV.slice(0, CSV.indexOf(',2026-03-02,9.8012'))), /line 5 has 8 cells, header has 10/);
  });

  test('rejects an empty table, foreign rows and bad multipliers', () => {
    assert.throws(() => parse(`${HEADER}\n`), /holds no rates/);
    assert.throws(() => parse(`${HEADER}\nB,TWI,NOK,SP,2,true,0,C,2026-03-02,127.35\n`), /holds no rates/);
    assert.throws(() => parse(CSV.replace('B,USD,NOK', 'M,USD,NOK')), /expected B\.\*\.NOK/);
    assert.throws(() => parse(CSV.replace('B,USD,NOK', 'B,USD,SEK')), /expected B\.\*\.NOK/);
    assert.throws(() => parse(CSV.replace('false,2,C', 'false,x,C')), /bad UNIT_MULT/);
    assert.throws(() => parse(CSV.replace('9.8012', 'NaN')), /bad USD rate/);
  });

  test('builds one csvdata request for the window on the base URL, which it accepts', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/api/data/EXR/B..NOK.SP?format=csvdata&startPeriod=2026-03-02&endPeriod=2026-03-06&locale=en' }]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url));
  });

  test('accepts csvdata only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://data.norges-bank.no/api/data/EXR/B..NOK.SP?format=sdmx-json&lastNObservations=1'));
    assert.ok(!source.accepts('https://data.norges-bank.no/api/data/EXR/B..NOK.SP?format=csv&lastNObservations=1'));
    assert.ok(!source.accepts('https://data.norges-bank.no/api/data/IR/B.KPRA.SD.?format=csvdata'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
