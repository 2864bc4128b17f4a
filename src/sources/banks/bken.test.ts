import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { BOE_SERIES, source } from './bken.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BKEN');
const FILE = 'iadb-XUDL-17Mar2026-20Mar2026.csv';
const URL_NAME = 'https://www.bankofengland.co.uk/boeapps/database/_iadb-fromshowcolumns.asp?csv.x=yes&Datefrom=02/Mar/2026&Dateto=06/Mar/2026&SeriesCodes=XUDLUSS&CSVF=TN&UsingCodes=Y';

const parse = (body: string, name = URL_NAME) => source.parse({ name, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote)?.rate;
const dates = (obs: Observation[]) => [...new Set(obs.map((o) => o.date))];

const CCY = 'AUD CAD CHF CNY CZK DKK EUR HKD HUF ILS INR JPY KRW MYR NOK NZD PLN RON SAR SEK SGD THB TRY TWD USD ZAR'.split(' ');

describe('BKEN recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('IADB CSV of 17–20 Mar 2026: 26 series, foreign units per 1 GBP', () => {
    const obs = parseFile(FILE);
    assert.deepEqual(dates(obs), ['2026-03-17', '2026-03-18', '2026-03-19', '2026-03-20']);
    assert.equal(obs.length, 4 * 26);
    for (const date of dates(obs)) assert.deepEqual(obs.filter((o) => o.date === date).map((o) => o.quote).sort(), CCY);
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'indirect' && o.table === undefined));
    assert.equal(rate(obs, '2026-03-17', 'USD'), '1.3343');
    assert.equal(rate(obs, '2026-03-17', 'EUR'), '1.1577');
    assert.equal(rate(obs, '2026-03-17', 'JPY'), '212.1937');
    // Published as 1.829: the IADB drops trailing zeros itself.
    assert.equal(rate(obs, '2026-03-17', 'CAD'), '1.829');
    assert.equal(rate(obs, '2026-03-17', 'KRW'), '1986.5526');
    assert.equal(rate(obs, '2026-03-17', 'RON'), '5.8963');
    assert.equal(rate(obs, '2026-03-18', 'CNY'), '9.1752');
    assert.equal(rate(obs, '2026-03-19', 'HUF'), '455.6221');
    assert.equal(rate(obs, '2026-03-20', 'USD'), '1.3302');
    assert.equal(rate(obs, '2026-03-20', 'TRY'), '58.9231');
    assert.equal(rate(obs, '2026-03-20', 'INR'), '124.6849');
    assert.equal(rate(obs, '2026-03-20', 'SAR'), '4.9944');
  });

  test('a request built on the base URL fetches a payload that parses like the file', async () => {
    const body = readFileSync(new URL(FILE, DIR));
    const server = await startFeedServer({ '/boeapps/database/_iadb-fromshowcolumns.asp': { body, contentType: 'application/csv' } });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-17', to: '2026-03-20' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 1);
      assert.ok(source.accepts(payloads[0]!.name));
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILE));
      assert.match(server.requests[0]!.url, /Datefrom=17\/Mar\/2026&Dateto=20\/Mar\/2026&/);
    } finally {
      await server.close();
    }
  });
});

describe('BKEN edge cases', () => {
  const CSV = 'DATE,XUDLUSS,XUDLJYS,XUDLZOS4\r\n02 Mar 2026,1.3410,210.5,5.9012\r\n03 Mar 2026,1.3388,,5.8990\r\n';

  test('reads codes through the series table, keeps digits and skips blank cells', () => {
    assert.deepEqual(parse(CSV), [
      { date: '2026-03-02', quote: 'USD', rate: '1.3410', unit: 1, direction: 'indirect' },
      { date: '2026-03-02', quote: 'JPY', rate: '210.5', unit: 1, direction: 'indirect' },
      { date: '2026-03-02', quote: 'RON', rate: '5.9012', unit: 1, direction: 'indirect' },
      { date: '2026-03-03', quote: 'USD', rate: '1.3388', unit: 1, direction: 'indirect' },
      { date: '2026-03-03', quote: 'RON', rate: '5.8990', unit: 1, direction: 'indirect' },
    ]);
  });

  test('rejects an HTML error page', () => {
    const html = '<!DOCTYPE html>\r\n<html><head><title>Bank of England Database</title></head><body><p>Sorry, an error has occurred.</p></body></html>';
    assert.throws(() => parse(html), ParseError);
  });

  test('rejects a truncated payload', () => {
    assert.throws(() => parse(CSV.slice(0, CSV.indexOf(',5.8990'))), /line 3 has 3 cells, header has 4/);
  });

  test('rejects an empty table, unknown columns and bad figures', () => {
    assert.throws(() => parse('DATE,XUDLUSS,XUDLERS\r\n'), /holds no rates/);
    assert.throws(() => parse(''), ParseError);
    assert.throws(() => parse('DATE,US dollar into sterling\r\n02 Mar 2026,1.3410\r\n'), /unknown series column/);
    assert.throws(() => parse(CSV.replace('210.5', 'n/a')), /bad JPY rate/);
    assert.throws(() => parse(CSV.replace('02 Mar 2026', '2026-03-02')), /bad date/);
  });

  test('builds one IADB request for the window on the base URL, which it accepts', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url));
    assert.deepEqual(requests, [
      {
        url: `http://127.0.0.1:1/boeapps/database/_iadb-fromshowcolumns.asp?csv.x=yes&Datefrom=02/Mar/2026&Dateto=06/Mar/2026&SeriesCodes=${[...BOE_SERIES.keys()].join(',')}&CSVF=TN&UsingCodes=Y`,
        headers: { accept: 'text/csv,*/*' },
      },
    ]);
    assert.equal(BOE_SERIES.size, 26);
  });

  test('accepts the IADB CSV feed only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.bankofengland.co.uk/boeapps/database/_iadb-fromshowcolumns.asp?Datefrom=02/Mar/2026&SeriesCodes=XUDLUSS'));
    assert.ok(!source.accepts('SOURCE.md'));
    assert.ok(!source.accepts('f11.1-data.csv'));
  });
});
