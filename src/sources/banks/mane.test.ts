import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './mane.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('MANE');
const WEEK = 'arfolyamok-asmx-GetExchangeRates-2025-03-24_2025-03-28.xml';

const parse = (body: string) => source.parse({ name: 'http://www.mnb.hu/arfolyamok.asmx', body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const quoted = (obs: Observation[], date: string, quote: string) => {
  const o = obs.find((x) => x.date === date && x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};

const CCY = 'AUD BRL CAD CHF CNY CZK DKK EUR GBP HKD IDR ILS INR ISK JPY KRW MXN MYR NOK NZD PHP PLN RON RSD RUB SEK SGD THB TRY UAH USD ZAR'.split(' ');

describe('MANE recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [WEEK]);
  });

  test('GetExchangeRates 24-28 March 2025: five days of 32 currencies, decimal commas', () => {
    const obs = parseFile(WEEK);
    // The service lists days newest first.
    assert.deepEqual([...new Set(obs.map((o) => o.date))], ['2025-03-28', '2025-03-27', '2025-03-26', '2025-03-25', '2025-03-24']);
    assert.equal(obs.length, 5 * 32);
    for (const date of ['2025-03-24', '2025-03-28']) assert.deepEqual(obs.filter((o) => o.date === date).map((o) => o.quote).sort(), CCY);
    assert.ok(obs.every((o) => o.direction === 'direct'));
    assert.deepEqual([...new Set(obs.filter((o) => o.unit === 100).map((o) => o.quote))].sort(), ['IDR', 'JPY', 'KRW']);
    assert.ok(obs.every((o) => o.unit === 1 || o.unit === 100));
    assert.equal(quoted(obs, '2025-03-28', 'AUD'), '235.26/1');
    assert.equal(quoted(obs, '2025-03-28', 'EUR'), '402.61/1');
    assert.equal(quoted(obs, '2025-03-28', 'USD'), '373.72/1');
    // 484,00 and 11,00: the trailing zeros are the bank's digits and stay.
    assert.equal(quoted(obs, '2025-03-28', 'GBP'), '484.00/1');
    assert.equal(quoted(obs, '2025-03-28', 'THB'), '11.00/1');
    assert.equal(quoted(obs, '2025-03-28', 'IDR'), '2.26/100');
    assert.equal(quoted(obs, '2025-03-28', 'JPY'), '248.17/100');
    assert.equal(quoted(obs, '2025-03-28', 'KRW'), '25.45/100');
    assert.equal(quoted(obs, '2025-03-26', 'JPY'), '247.00/100');
    assert.equal(quoted(obs, '2025-03-26', 'ILS'), '101.00/1');
    assert.equal(quoted(obs, '2025-03-24', 'EUR'), '398.44/1');
    assert.equal(quoted(obs, '2025-03-24', 'USD'), '367.60/1');
    assert.equal(quoted(obs, '2025-03-24', 'KRW'), '25.06/100');
  });
});

describe('MANE edge cases', () => {
  const escapeXml = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  const envelope = (inner: string, op = 'GetExchangeRates') =>
    `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><${op}Response xmlns="http://www.mnb.hu/webservices/" xmlns:i="http://www.w3.org/2001/XMLSchema-instance"><${op}Result>${escapeXml(inner)}</${op}Result></${op}Response></s:Body></s:Envelope>`;
  const DAY = '<MNBExchangeRates><Day date="2026-03-06"><Rate unit="1" curr="EUR">399,10</Rate><Rate unit="100" curr="JPY">229,87</Rate></Day></MNBExchangeRates>';

  test('reads GetCurrentExchangeRates the same way', () => {
    const expected = [
      { date: '2026-03-06', quote: 'EUR', rate: '399.10', unit: 1, direction: 'direct' },
      { date: '2026-03-06', quote: 'JPY', rate: '229.87', unit: 100, direction: 'direct' },
    ];
    assert.deepEqual(parse(envelope(DAY)), expected);
    assert.deepEqual(parse(envelope(DAY, 'GetCurrentExchangeRates')), expected);
  });

  test('rejects an HTML error page and a SOAP fault', () => {
    const html = '<!DOCTYPE html><html><head><title>Runtime Error</title></head><body><h1>Server Error in \'/\' Application.</h1></body></html>';
    assert.throws(() => parse(html), ParseError);
    const fault = '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring xml:lang="en-US">The message could not be processed.</faultstring></s:Fault></s:Body></s:Envelope>';
    assert.throws(() => parse(fault), /SOAP fault: The message could not be processed/);
  });

  test('rejects a truncated envelope and a truncated inner document', () => {
    const full = envelope(DAY);
    assert.throws(() => parse(full.slice(0, full.length - 40)), /malformed SOAP envelope/);
    assert.throws(() => parse(envelope(DAY.slice(0, DAY.indexOf('<Rate unit="100"')))), /malformed inner MNBExchangeRates/);
  });

  test('rejects empty tables', () => {
    assert.throws(() => parse(envelope('<MNBExchangeRates />')), /holds no rates/);
    assert.throws(() => parse(envelope('<MNBExchangeRates><Day date="2026-03-06" /></MNBExchangeRates>')), /no rates for 2026-03-06/);
    assert.throws(() => parse(envelope('')), /returned no document/);
  });

  test('an empty window (weekends, holidays) is no publication; empty current rates are a fault', () => {
    assert.throws(() => parse(envelope('<MNBExchangeRates />')), NoPublication);
    const fault = (err: unknown) => err instanceof ParseError && !(err instanceof NoPublication);
    assert.throws(() => parse(envelope('<MNBExchangeRates />', 'GetCurrentExchangeRates')), fault);
    assert.throws(() => parse(envelope('<MNBExchangeRates><Day date="2026-03-06" /></MNBExchangeRates>')), fault);
  });

  test('rejects bad rows', () => {
    assert.throws(() => parse(envelope(DAY.replace('unit="100"', 'unit=""'))), /bad JPY unit/);
    assert.throws(() => parse(envelope(DAY.replace('399,10', '399;10'))), /bad EUR rate/);
    assert.throws(() => parse(envelope(DAY.replace('curr="EUR"', 'curr="euro"'))), /bad currency/);
    assert.throws(() => parse(envelope('<MNBCurrencies><Currencies><Curr>EUR</Curr></Currencies></MNBCurrencies>')), /not MNBExchangeRates/);
  });

  test('accepts the MNB service only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://www.mnb.hu/arfolyamok.asmx?WSDL'));
    assert.ok(!source.accepts('https://www.mnb.hu/arfolyam-tablazat'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('MANE requests', () => {
  const servers: { close(): Promise<void> }[] = [];
  after(() => Promise.all(servers.map((s) => s.close())));

  test('one SOAP POST of GetExchangeRates for the window', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.equal(requests.length, 1);
    const [request] = requests;
    assert.equal(request!.url, 'http://127.0.0.1:1/arfolyamok.asmx');
    assert.equal(request!.method, 'POST');
    assert.deepEqual(request!.headers, { 'content-type': 'text/xml; charset=utf-8', soapaction: 'http://www.mnb.hu/webservices/MNBArfolyamServiceSoap/GetExchangeRates' });
    assert.match(request!.body!, /<web:startDate>2026-03-02<\/web:startDate><web:endDate>2026-03-06<\/web:endDate>/);
    assert.match(request!.body!, /<web:currencyNames>AUD,BRL,[A-Z,]+,USD,ZAR<\/web:currencyNames>/);
    assert.ok(source.accepts(request!.name ?? request!.url));
  });

  test('round trip through a local feed server', async () => {
    const body = readFileSync(new URL(WEEK, DIR));
    const server = await startFeedServer({ '/arfolyamok.asmx': { body, contentType: 'text/xml; charset=utf-8' } });
    servers.push(server);
    const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
    assert.equal(payloads.length, 1);
    assert.deepEqual(source.parse(payloads[0]!), parseFile(WEEK));
    assert.equal(server.requests[0]!.method, 'POST');
    assert.equal(server.requests[0]!.headers.soapaction, 'http://www.mnb.hu/webservices/MNBArfolyamServiceSoap/GetExchangeRates');
    assert.match(server.requests[0]!.body, /<web:GetExchangeRates>/);
  });
});
