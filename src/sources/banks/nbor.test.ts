import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './nbor.js';
import { ParseError, type Observation } from '../types.js';
import { Decimal } from '../../money/decimal.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('NBOR');
const YEAR_2026 = 'nbrfxrates2026-as-of-2026-08-19.xml';

const parse = (body: string, name = 'https://curs.bnr.ro/nbrfxrates.xml') => source.parse({ name, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const quoted = (obs: Observation[], date: string, quote: string) => {
  const o = obs.find((x) => x.date === date && x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};
const dates = (obs: Observation[]) => [...new Set(obs.map((o) => o.date))];

const CCY = 'AED AUD BRL CAD CHF CNY CZK DKK EGP EUR GBP HKD HUF IDR ILS INR ISK JPY KRW MDL MXN MYR NOK NZD PHP PLN RSD RUB SEK SGD THB TRY UAH USD XDR ZAR'.split(' ');

describe('NBOR recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [YEAR_2026]);
  });

  test('yearly file 2026: 157 fixings of 36 currencies and gold', () => {
    const obs = parseFile(YEAR_2026);
    const days = dates(obs);
    assert.equal(days.length, 157);
    assert.equal(days[0], '2026-01-05');
    assert.equal(days.at(-1), '2026-08-19');
    assert.equal(obs.length, 157 * 37);
    for (const date of [days[0]!, days.at(-1)!]) assert.deepEqual(obs.filter((o) => o.date === date).map((o) => o.quote).sort(), [...CCY, 'XAU'].sort());
    assert.ok(obs.every((o) => o.direction === 'direct'));
    // multiplier="100" on exactly these five.
    assert.deepEqual([...new Set(obs.filter((o) => o.unit === 100).map((o) => o.quote))].sort(), ['HUF', 'IDR', 'ISK', 'JPY', 'KRW']);
    assert.ok(obs.every((o) => o.unit === 1 || o.unit === 100));
    assert.equal(quoted(obs, '2026-01-05', 'EUR'), '5.0905/1');
    assert.equal(quoted(obs, '2026-01-05', 'USD'), '4.3557/1');
    assert.equal(quoted(obs, '2026-01-05', 'HUF'), '1.3247/100');
    // Published digits kept, trailing zeros included.
    assert.equal(quoted(obs, '2026-01-05', 'IDR'), '0.0260/100');
    assert.equal(quoted(obs, '2026-01-05', 'EGP'), '0.0920/1');
    assert.equal(quoted(obs, '2026-01-05', 'XDR'), '5.9535/1');
    assert.equal(quoted(obs, '2026-08-19', 'EUR'), '5.2452/1');
    assert.equal(quoted(obs, '2026-08-19', 'USD'), '4.5190/1');
    assert.equal(quoted(obs, '2026-08-19', 'JPY'), '2.8404/100');
    assert.equal(quoted(obs, '2026-08-19', 'KRW'), '0.3252/100');
    assert.equal(quoted(obs, '2026-08-19', 'GBP'), '6.1269/1');
  });

  test('gold: RON per gram in the file, RON per troy ounce here, exactly (D19)', () => {
    const obs = parseFile(YEAR_2026);
    // <Rate currency="XAU">621.3365</Rate> on 2026-01-05 and 633.3435 on 2026-08-19: RON per gram.
    assert.equal(quoted(obs, '2026-01-05', 'XAU'), '19325.7254127432/1');
    assert.equal(quoted(obs, '2026-08-19', 'XAU'), '19699.1848586808/1');
    // 4,359 USD per ounce at BNR's own dollar (4.5190) that day: the price of an ounce, not of a gram.
    assert.equal(new Decimal('19699.1848586808').div('4.5190').toFixed(0), '4359');
  });
});

describe('NBOR edge cases', () => {
  const daily = (ns: string, cubes: string) =>
    `<?xml version="1.0" encoding="utf-8"?>\n<DataSet xmlns="${ns}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${ns} nbrfxrates.xsd"><Header><Publisher>National Bank of Romania</Publisher><PublishingDate>2026-04-10</PublishingDate><MessageType>DR</MessageType></Header><Body><Subject>Reference rates</Subject><OrigCurrency>RON</OrigCurrency>${cubes}</Body></DataSet>`;
  const CUBE = '<Cube date="2026-04-10"><Rate currency="EUR">5.0910</Rate><Rate currency="HUF" multiplier="100">1.3310</Rate><Rate currency="XAU">640.1234</Rate></Cube>';
  const EXPECTED = [
    { date: '2026-04-10', quote: 'EUR', rate: '5.0910', unit: 1, direction: 'direct' },
    { date: '2026-04-10', quote: 'HUF', rate: '1.3310', unit: 100, direction: 'direct' },
    // 640.1234 RON per gram × 31.1034768 g.
    { date: '2026-04-10', quote: 'XAU', rate: '19910.06332103712', unit: 1, direction: 'direct' },
  ];

  test('reads both namespaces, and a prefixed one, the same way', () => {
    assert.deepEqual(parse(daily('http://www.bnr.ro/xsd', CUBE)), EXPECTED);
    assert.deepEqual(parse(daily('https://www.bnr.ro/xsd', CUBE)), EXPECTED);
    const prefixed = daily('https://www.bnr.ro/xsd', CUBE).replace(/<(\/?)(?=[A-Z])/g, '<$1b:').replace('xmlns=', 'xmlns:b=');
    assert.deepEqual(parse(prefixed), EXPECTED);
  });

  test('rejects an HTML error page', () => {
    const html = '<!DOCTYPE html><html><head><title>404 - File or directory not found.</title></head><body><h2>404</h2></body></html>';
    assert.throws(() => parse(html), ParseError);
    assert.throws(() => parse('Service Unavailable'), /is not XML/);
  });

  test('rejects a truncated payload', () => {
    const full = daily('https://www.bnr.ro/xsd', CUBE);
    assert.throws(() => parse(full.slice(0, full.indexOf('<Rate currency="HUF"') + 12)), /malformed XML/);
  });

  test('rejects empty tables', () => {
    assert.throws(() => parse(daily('https://www.bnr.ro/xsd', '')), /no dated Cube/);
    assert.throws(() => parse(daily('https://www.bnr.ro/xsd', '<Cube date="2026-04-10"></Cube>')), /no rates for 2026-04-10/);
    assert.throws(() => parse(daily('https://www.bnr.ro/xsd', '<Cube date="2026-04-10"><Rate currency="XAU" multiplier="10">640.1</Rate></Cube>')), /XAU on 2026-04-10 has multiplier 10/);
  });

  test('rejects bad rows and a foreign base', () => {
    assert.throws(() => parse(daily('https://www.bnr.ro/xsd', CUBE.replace('multiplier="100"', 'multiplier="x"'))), /bad HUF multiplier/);
    assert.throws(() => parse(daily('https://www.bnr.ro/xsd', CUBE.replace('5.0910', '5,09,10'))), /bad EUR rate/);
    assert.throws(() => parse(daily('https://www.bnr.ro/xsd', CUBE.replace('2026-04-10', '10.04.2026'))), /bad Cube date/);
    assert.throws(() => parse(daily('https://www.bnr.ro/xsd', CUBE).replace('<OrigCurrency>RON', '<OrigCurrency>EUR')), /not RON/);
  });

  test('accepts the BNR feeds, not other files', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://www.bnr.ro/nbrfxrates.xml'));
    assert.ok(source.accepts('https://curs.bnr.ro/nbrfxrates10days.xml'));
    assert.ok(source.accepts('https://curs.bnr.ro/files/xml/years/nbrfxrates2005.xml'));
    assert.ok(!source.accepts('https://curs.bnr.ro/xsd/nbrfxrates.xsd'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('NBOR requests', () => {
  const servers: { close(): Promise<void> }[] = [];
  after(() => Promise.all(servers.map((s) => s.close())));

  test('asks for the yearly file of every year the window touches', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/files/xml/years/nbrfxrates2026.xml' }]);
    assert.ok(requests.every((r) => source.accepts(r.name ?? r.url)));
    const span = source.requests({ from: '2024-12-30', to: '2026-01-02' }, { base: 'https://curs.bnr.ro' });
    assert.deepEqual(span.map((r) => r.url.split('/').pop()), ['nbrfxrates2024.xml', 'nbrfxrates2025.xml', 'nbrfxrates2026.xml']);
  });

  test('round trip through a local feed server', async () => {
    const body = readFileSync(new URL(YEAR_2026, DIR));
    const server = await startFeedServer({ '/files/xml/years/nbrfxrates2026.xml': { body, contentType: 'text/xml' } });
    servers.push(server);
    const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
    assert.equal(payloads.length, 1);
    assert.deepEqual(source.parse(payloads[0]!), parseFile(YEAR_2026));
    assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url}`), ['GET /files/xml/years/nbrfxrates2026.xml']);
  });
});
