// Grade A (SOURCES-2.md): complete VCR recordings of two of the last litas business days.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './liab.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('LIAB');
const FILES = ['lb-getFxRates-LT-2014-12-29.xml', 'lb-getFxRates-LT-2014-12-31.xml'];

const parse = (body: string) => source.parse({ name: 'getFxRates?tp=LT&dt=2014-12-31', body: Buffer.from(body) }) as Observation[];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const perUnit = (obs: Observation[], quote: string) => {
  const o = obs.find((x) => x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};

describe('LIAB recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), FILES);
  });

  test('29.12.2014: 88 currencies as litas amounts per foreign amount', () => {
    const obs = parseFile(FILES[0]!);
    assert.equal(obs.length, 88);
    assert.ok(obs.every((o) => o.date === '2014-12-29' && o.direction === 'direct'));
    assert.equal(perUnit(obs, 'EUR'), '3.4528/1');
    assert.equal(perUnit(obs, 'USD'), '2.8238/1');
    // The pegged balboa shares the dollar's figure.
    assert.equal(perUnit(obs, 'PAB'), '2.8238/1');
    assert.equal(perUnit(obs, 'JPY'), '2.3499/100');
    assert.equal(perUnit(obs, 'GBP'), '4.3999/1');
    assert.equal(perUnit(obs, 'RUB'), '5.1039/100');
    assert.equal(perUnit(obs, 'BYR'), '2.5835/10000');
  });

  test('31.12.2014, the last litas day: same 88 currencies, units up to 10,000', () => {
    const obs = parseFile(FILES[1]!);
    assert.equal(obs.length, 88);
    assert.ok(obs.every((o) => o.date === '2014-12-31' && o.direction === 'direct'));
    assert.deepEqual(obs.map((o) => o.quote), parseFile(FILES[0]!).map((o) => o.quote));
    for (const q of ['AED', 'HRK', 'VEF', 'XDR', 'YER', 'ZAR']) assert.ok(perUnit(obs, q), q);
    assert.equal(perUnit(obs, 'AED'), '7.6881/10');
    assert.equal(perUnit(obs, 'USD'), '2.8387/1');
    assert.equal(perUnit(obs, 'AFN'), '4.8611/100');
    assert.equal(perUnit(obs, 'AMD'), '6.1387/1000');
    assert.equal(perUnit(obs, 'VND'), '1.3205/10000');
    assert.equal(perUnit(obs, 'IRR'), '1.0442/10000');
    assert.equal(perUnit(obs, 'XDR'), '4.1124/1');
    assert.equal(perUnit(obs, 'ZAR'), '2.4419/10');
  });

  test('is historical, and still requests each business day of a window and reads what a feed server sends back', async () => {
    assert.equal(source.discontinued, '2014-12-31');
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(
      requests,
      ['02', '03', '04', '05', '06'].map((d) => ({ url: `http://127.0.0.1:1/getFxRates?tp=LT&dt=2026-03-${d}` })),
    );
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);
    assert.deepEqual(
      source.requests({ from: '2014-12-27', to: '2014-12-31' }, { base: source.baseUrl }).map((r) => r.url.slice(-10)),
      ['2014-12-29', '2014-12-30', '2014-12-31'],
    );

    const body = readFileSync(new URL(FILES[1]!, DIR));
    const server = await startFeedServer({ '/getFxRates': { body } });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 5);
      for (const p of payloads) assert.deepEqual(source.parse(p), parseFile(FILES[1]!));
      assert.deepEqual(server.requests.map((r) => r.url)[0], '/getFxRates?tp=LT&dt=2026-03-02');
    } finally {
      await server.close();
    }
  });
});

describe('LIAB edge cases', () => {
  const RATE = (tp: string, first: string, second: string) =>
    `  <FxRate>\r\n    <Tp>${tp}</Tp>\r\n    <Dt>2014-12-31</Dt>\r\n    <CcyAmt>\r\n      ${first}\r\n    </CcyAmt>\r\n    <CcyAmt>\r\n      ${second}\r\n    </CcyAmt>\r\n  </FxRate>\r\n`;
  const DOC = (rows: string) => `<?xml version="1.0" encoding="utf-8"?>\r\n<FxRates xmlns="http://www.lb.lt/WebServices/FxRates">\r\n${rows}</FxRates>`;
  const JPY = RATE('LT', '<Ccy>LTL</Ccy>\r\n      <Amt>2.3698</Amt>', '<Ccy>JPY</Ccy>\r\n      <Amt>100</Amt>');

  test('reads a pair whichever amount comes first', () => {
    const swapped = RATE('LT', '<Ccy>JPY</Ccy><Amt>100</Amt>', '<Ccy>LTL</Ccy><Amt>2.3698</Amt>');
    assert.deepEqual(parse(DOC(swapped)), parse(DOC(JPY)));
    assert.deepEqual(parse(DOC(JPY)), [{ date: '2014-12-31', quote: 'JPY', rate: '2.3698', unit: 100, direction: 'direct' }]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<html><head><title>Runtime Error</title></head><body><h2>Server Error in \'/\' Application.</h2></body></html>'), ParseError);
  });

  test('rejects a truncated answer', () => {
    const full = DOC(JPY);
    assert.throws(() => parse(full.slice(0, full.lastIndexOf('<CcyAmt>'))), /not well-formed XML/);
  });

  test('rejects an empty answer, euro rates and a pair without litas', () => {
    assert.throws(() => parse(DOC('')), /holds no rates/);
    const error = DOC('  <OprlErr>\r\n    <Err>\r\n      <Desc>Date out of range</Desc>\r\n    </Err>\r\n  </OprlErr>\r\n');
    assert.throws(() => parse(error), /holds no rates: .*Date out of range/);
    assert.throws(() => parse(DOC(RATE('EU', '<Ccy>EUR</Ccy><Amt>1</Amt>', '<Ccy>USD</Ccy><Amt>1.2141</Amt>'))), /type "EU", not LT/);
    assert.throws(() => parse(DOC(RATE('LT', '<Ccy>EUR</Ccy><Amt>1</Amt>', '<Ccy>USD</Ccy><Amt>1.2141</Amt>'))), /not a pair of LTL/);
  });

  test('accepts litas answers only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://www.lb.lt/webservices/FxRates/FxRates.asmx/getFxRates?dt=2014-12-29&tp=LT'));
    assert.ok(!source.accepts('https://www.lb.lt/webservices/FxRates/FxRates.asmx/getFxRates?tp=EU&dt=2015-01-05'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
