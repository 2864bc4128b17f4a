import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './rsbk.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('RSBK');
const FILE = 'f11.1-data.csv';

const parse = (body: string) => source.parse({ name: 'https://www.rba.gov.au/statistics/tables/csv/f11.1-data.csv', body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote)?.rate;
const quotesOn = (obs: Observation[], date: string) => obs.filter((o) => o.date === date).map((o) => o.quote).sort();
const dates = (obs: Observation[]) => [...new Set(obs.map((o) => o.date))];

const CCY = 'CAD CHF CNY EUR GBP HKD IDR INR JPY KRW MYR NZD PGK PHP SGD THB TWD USD VND XDR'.split(' ');

describe('RSBK recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('F11.1 of 2023 to 20 Mar 2026: 808 days, foreign units per 1 AUD, the TWI left out', () => {
    const obs = parseFile(FILE);
    const days = dates(obs);
    assert.equal(days.length, 808);
    assert.equal(days[0], '2023-01-03');
    assert.equal(days.at(-1), '2026-03-20');
    // 15,704 figures in the file, less the 808 of the trade-weighted index.
    assert.equal(obs.length, 14896);
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'indirect'));
    assert.deepEqual([...new Set(obs.map((o) => o.quote))].sort(), CCY);
    assert.deepEqual(quotesOn(obs, '2026-03-20'), CCY);
    // No AED or ZAR figure at all; the index never becomes a "currency".
    assert.ok(!obs.some((o) => ['AED', 'ZAR', 'TWI', 'SDR'].includes(o.quote)));

    assert.deepEqual(quotesOn(obs, '2023-01-03'), CCY.filter((c) => c !== 'CAD' && c !== 'PGK'));
    assert.equal(rate(obs, '2023-01-03', 'USD'), '0.6828');
    // Published 0.6400: the text keeps its trailing zeros.
    assert.equal(rate(obs, '2023-01-03', 'EUR'), '0.6400');
    assert.equal(rate(obs, '2023-01-03', 'JPY'), '88.48');
    assert.equal(rate(obs, '2023-01-03', 'IDR'), '10635');
    assert.equal(rate(obs, '2023-01-03', 'CHF'), '0.6310');
    // The RBA's "SDR" column is the ISO code XDR.
    assert.equal(rate(obs, '2023-01-03', 'XDR'), '0.5131');
    assert.equal(rate(obs, '2023-12-21', 'CAD'), '0.9013');
    assert.equal(rate(obs, '2023-12-21', 'CHF'), undefined);
    assert.equal(rate(obs, '2025-01-10', 'CHF'), '0.5653');
    assert.equal(rate(obs, '2026-01-07', 'PGK'), '2.8807');
    assert.equal(rate(obs, '2026-03-20', 'USD'), '0.7088');
    assert.equal(rate(obs, '2026-03-20', 'KRW'), '1061.60');
    assert.equal(rate(obs, '2026-03-20', 'VND'), '18650');
    assert.equal(rate(obs, '2026-03-20', 'XDR'), '0.5217');
  });

  test('the request built on the base URL fetches a payload that parses like the file', async () => {
    const body = readFileSync(new URL(FILE, DIR));
    const server = await startFeedServer({ '/statistics/tables/csv/f11.1-data.csv': { body } });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 1);
      assert.ok(source.accepts(payloads[0]!.name));
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILE));
    } finally {
      await server.close();
    }
  });
});

describe('RSBK edge cases', () => {
  const HEAD = [
    '\uFEFFF11.1  EXCHANGE RATES',
    'Title,A$1=USD,Trade-weighted Index May 1970 = 100,A$1=JPY,A$1=SDR',
    'Description,AUD/USD Exchange Rate; see notes for further detail.,Australian Dollar Trade-weighted Index,AUD/JPY Exchange Rate,AUD/SDR Exchange Rate',
    'Frequency,Daily,Daily,Daily,Daily',
    'Type,Indicative,Indicative,Indicative,Indicative',
    'Units,USD,Index,JPY,SDR',
    '',
    '',
    'Source,WM/Reuters,RBA,RBA,IMF',
    'Publication date,06-Mar-2026,06-Mar-2026,06-Mar-2026,06-Mar-2026',
    'Series ID,FXRUSD,FXRTWI,FXRJY,FXRSDR',
  ].join('\n');
  const CSV = `${HEAD}\n05-Mar-2026,0.7012,65.20,110.50,0.5150\n06-Mar-2026,0.7030,65.40,,0.5161\n\n\n`;

  test('reads rate columns, skips the index and blank cells', () => {
    assert.deepEqual(parse(CSV), [
      { date: '2026-03-05', quote: 'USD', rate: '0.7012', unit: 1, direction: 'indirect' },
      { date: '2026-03-05', quote: 'JPY', rate: '110.50', unit: 1, direction: 'indirect' },
      { date: '2026-03-05', quote: 'XDR', rate: '0.5150', unit: 1, direction: 'indirect' },
      { date: '2026-03-06', quote: 'USD', rate: '0.7030', unit: 1, direction: 'indirect' },
      { date: '2026-03-06', quote: 'XDR', rate: '0.5161', unit: 1, direction: 'indirect' },
    ]);
  });

  test('rejects an HTML error page', () => {
    const html = '<!DOCTYPE html><html lang="en"><head><title>Page Not Found | RBA</title></head><body><h1>Page Not Found</h1></body></html>';
    assert.throws(() => parse(html), ParseError);
  });

  test('rejects a truncated payload', () => {
    assert.throws(() => parse(CSV.slice(0, CSV.indexOf(',0.5161'))), /line 13 has 4 cells, Title row has 5/);
    assert.throws(() => parse(HEAD.slice(0, HEAD.indexOf('Series ID'))), /no Series ID row/);
  });

  test('rejects an empty table and columns it does not know', () => {
    assert.throws(() => parse(`${HEAD}\n\n\n`), /holds no rates/);
    assert.throws(() => parse(CSV.replace('A$1=JPY', 'JPY per A$')), /unexpected column/);
    assert.throws(() => parse(CSV.replace('Units,USD,Index,JPY', 'Units,USD,Index,Index')), /units "Index"/);
    assert.throws(() => parse(CSV.replace('110.50', '110,50')), /cells/);
    assert.throws(() => parse(CSV.replace('05-Mar-2026', '2026-03-05')), /bad date/);
  });

  test('builds the one F11.1 request on the base URL, whatever the window', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url));
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/statistics/tables/csv/f11.1-data.csv', headers: { accept: 'text/csv,*/*' } }]);
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.rba.gov.au/statistics/tables/csv/f11.1-data.xls'));
    assert.ok(!source.accepts('https://www.rba.gov.au/statistics/tables/csv/f1.1-data.csv'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
