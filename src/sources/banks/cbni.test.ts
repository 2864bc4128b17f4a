// CBNI payloads are grade B (SOURCES-2.md): a real response trimmed upstream to 78 records.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './cbni.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('CBNI');
const FILE = 'cbn-GetAllExchangeRates-TRIMMED.json';

const parse = (body: string) => source.parse({ name: 'api/GetAllExchangeRates', body: Buffer.from(body) }) as Observation[];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const rate = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote)?.rate;

describe('CBNI recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('six business days of 12 named currencies, WAUA left out', () => {
    const obs = parseFile(FILE);
    assert.deepEqual([...new Set(obs.map((o) => o.date))].sort(), ['2026-05-14', '2026-05-15', '2026-05-18', '2026-05-19', '2026-05-20', '2026-05-21']);
    assert.equal(obs.length, 6 * 12);
    assert.deepEqual(
      obs.filter((o) => o.date === '2026-05-21').map((o) => o.quote).sort(),
      ['AED', 'CHF', 'CNY', 'DKK', 'EUR', 'GBP', 'JPY', 'SAR', 'USD', 'XDR', 'XOF', 'ZAR'],
    );
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'direct'));
    assert.equal(rate(obs, '2026-05-21', 'USD'), '1371.8079');
    assert.equal(rate(obs, '2026-05-21', 'EUR'), '1590.1997');
    assert.equal(rate(obs, '2026-05-21', 'XOF'), '2.4200');
    assert.equal(rate(obs, '2026-05-21', 'XDR'), '1884.0410');
    assert.equal(rate(obs, '2026-05-20', 'JPY'), '8.6331');
    assert.equal(rate(obs, '2026-05-20', 'ZAR'), '82.7049');
    assert.equal(rate(obs, '2026-05-14', 'AED'), '373.0769');
    assert.equal(rate(obs, '2026-05-14', 'CNY'), '201.9670');
  });

  test('requests the whole history and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/GetAllExchangeRates' }]);
    assert.deepEqual(source.requests(window, { base: source.baseUrl }), [{ url: source.feedUrl }]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const server = await startFeedServer({ '/GetAllExchangeRates': { body: readFileSync(new URL(FILE, DIR)), contentType: 'application/json' } });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p) as Observation[]), parseFile(FILE));
    } finally {
      await server.close();
    }
  });
});

describe('CBNI edge cases', () => {
  const row = (currency: string, central = '1371.8079', date = '2026-03-05') =>
    `{"id":1,"currency":"${currency}","ratedate":"${date}","buyingrate":"1","centralrate":"${central}","sellingrate":"2"}`;

  test('maps spelling variants and stray blanks to one code', () => {
    const obs = parse(`[${row(' JAPANESE  YEN ', '8.6400')},${row('Pound Sterling', '1839.5944')},${row('DANISH KRONER', '212.7461')}]`);
    assert.deepEqual(obs.map((o) => `${o.quote} ${o.rate}`), ['JPY 8.6400', 'GBP 1839.5944', 'DKK 212.7461']);
  });

  test('rejects an unknown currency name rather than guessing', () => {
    assert.throws(() => parse(`[${row('US DOLLAR')},${row('KOREAN WON', '0.95')}]`), /unknown currency name "KOREAN WON"/);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>Runtime Error</title></head><body><h1>Server Error in \'/\' Application.</h1></body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    const full = `[${row('US DOLLAR')},${row('EURO', '1590.1997')}]`;
    assert.throws(() => parse(full.slice(0, -30)), /not JSON/);
  });

  test('rejects an empty list, a list of WAUA only, and bad records', () => {
    assert.throws(() => parse('[]'), /holds no rates/);
    assert.throws(() => parse(`[${row('WAUA', '1876.6602')}]`), /holds no rates/);
    assert.throws(() => parse('{"message":"An error has occurred."}'), /not an array/);
    assert.throws(() => parse(`[${row('US DOLLAR', '', '2026-03-05')}]`), /USD on 2026-03-05: not a number/);
    assert.throws(() => parse(`[${row('US DOLLAR', '1371.8', '05/03/2026')}]`), /bad ratedate/);
  });

  test('accepts the GetAllExchangeRates feed only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.cbn.gov.ng/rates/exchratebycurrency.asp'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
