import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { crc32, deflateRawSync } from 'node:zlib';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './ecbf.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('ECBF');

const parse = (name: string, body: string | Buffer) => source.parse({ name, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], date: string, quote: string) =>
  obs.find((o) => o.date === date && o.quote === quote)?.rate;
const quotes = (obs: Observation[], date: string) => obs.filter((o) => o.date === date).map((o) => o.quote).sort();
const dates = (obs: Observation[]) => [...new Set(obs.map((o) => o.date))];

const CCY_2026 = 'AUD BRL CAD CHF CNY CZK DKK GBP HKD HUF IDR ILS INR ISK JPY KRW MXN MYR NOK NZD PHP PLN RON SEK SGD THB TRY USD ZAR'.split(' ');

/** A one-member ZIP as the ECB writes it: deflated, sizes in the local header, then a central directory. */
function zipOf(name: string, content: string): Buffer {
  const data = Buffer.from(content);
  const packed = deflateRawSync(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc32(data), 14);
  local.writeUInt32LE(packed.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(Buffer.byteLength(name), 26);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  return Buffer.concat([local, Buffer.from(name), packed, end]);
}

describe('ECBF recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [
      'eurofxref-2026-04-02.csv',
      'eurofxref-2026-04-13.csv',
      'eurofxref-daily-2017-03-08.xml',
      'eurofxref-daily-2025-05-09.xml',
      'eurofxref-hist-2026-04-13.csv',
      'eurofxref-hist-2026-04-13.zip',
      'eurofxref-hist-90d-2025-04-04.xml',
    ]);
  });

  test('daily CSV: "02 April 2026" date, ", " separators, trailing separator', () => {
    const obs = parseFile('eurofxref-2026-04-02.csv');
    assert.deepEqual(dates(obs), ['2026-04-02']);
    assert.deepEqual(quotes(obs, '2026-04-02'), CCY_2026);
    assert.equal(rate(obs, '2026-04-02', 'USD'), '1.1525');
    assert.equal(rate(obs, '2026-04-02', 'IDR'), '19604.77');
    assert.equal(rate(obs, '2026-04-02', 'GBP'), '0.87253');
    // Published as 24.540 and 107.3000: decimal text keeps the bank's digits, trailing zeros included.
    assert.equal(rate(obs, '2026-04-02', 'CZK'), '24.540');
    assert.equal(rate(obs, '2026-04-02', 'INR'), '107.3000');
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'indirect'));
  });

  test('daily CSV of 13 April 2026', () => {
    const obs = parseFile('eurofxref-2026-04-13.csv');
    assert.deepEqual(dates(obs), ['2026-04-13']);
    assert.deepEqual(quotes(obs, '2026-04-13'), CCY_2026);
    assert.equal(rate(obs, '2026-04-13', 'JPY'), '186.75');
    assert.equal(rate(obs, '2026-04-13', 'TRY'), '52.2478');
    assert.equal(rate(obs, '2026-04-13', 'KRW'), '1740.86');
  });

  test('daily XML of 2017 (tabs, single quotes) still has HRK and RUB, no ISK', () => {
    const obs = parseFile('eurofxref-daily-2017-03-08.xml');
    assert.deepEqual(dates(obs), ['2017-03-08']);
    assert.equal(obs.length, 31);
    assert.equal(rate(obs, '2017-03-08', 'USD'), '1.0556');
    assert.equal(rate(obs, '2017-03-08', 'HRK'), '7.4213');
    assert.equal(rate(obs, '2017-03-08', 'RUB'), '61.7573');
    assert.equal(rate(obs, '2017-03-08', 'IDR'), '14144.80');
    assert.equal(rate(obs, '2017-03-08', 'ISK'), undefined);
  });

  test('daily XML of 2025 has BGN and 30 currencies', () => {
    const obs = parseFile('eurofxref-daily-2025-05-09.xml');
    assert.deepEqual(dates(obs), ['2025-05-09']);
    assert.deepEqual(quotes(obs, '2025-05-09'), [...CCY_2026, 'BGN'].sort());
    assert.equal(rate(obs, '2025-05-09', 'BGN'), '1.9558');
    // Published as 0.84770, 404.90, 10.9200 and 146.90: the trailing zeros are kept as written.
    assert.equal(rate(obs, '2025-05-09', 'GBP'), '0.84770');
    assert.equal(rate(obs, '2025-05-09', 'HUF'), '404.90');
    assert.equal(rate(obs, '2025-05-09', 'SEK'), '10.9200');
    assert.equal(rate(obs, '2025-05-09', 'ISK'), '146.90');
    assert.equal(rate(obs, '2025-05-09', 'TRY'), '43.5999');
  });

  test('90-day XML: one Cube per day, 65 days × 30 currencies', () => {
    const obs = parseFile('eurofxref-hist-90d-2025-04-04.xml');
    const days = dates(obs);
    assert.equal(days.length, 65);
    assert.equal(days[0], '2025-04-04');
    assert.equal(days.at(-1), '2025-01-06');
    assert.equal(obs.length, 65 * 30);
    assert.equal(rate(obs, '2025-04-04', 'USD'), '1.1057');
    assert.equal(rate(obs, '2025-04-04', 'HUF'), '405.7');
    assert.equal(rate(obs, '2025-04-03', 'PLN'), '4.196');
    assert.equal(rate(obs, '2025-02-14', 'GBP'), '0.83215');
    assert.equal(rate(obs, '2025-01-06', 'ZAR'), '19.2724');
  });

  test('history CSV: 6,983 dates newest first, N/A cells skipped', () => {
    const obs = parseFile('eurofxref-hist-2026-04-13.csv');
    const days = dates(obs);
    assert.equal(days.length, 6983);
    assert.equal(days[0], '2026-04-13');
    assert.equal(days.at(-1), '1999-01-04');
    assert.equal(obs.length, 217_555);
    assert.ok(obs.every((o) => o.rate !== 'N/A'));
    assert.deepEqual(quotes(obs, '2026-04-13'), CCY_2026);
    assert.equal(rate(obs, '2026-04-13', 'IDR'), '20082.05');
    assert.equal(rate(obs, '1999-01-04', 'USD'), '1.1789');
    assert.equal(rate(obs, '1999-01-04', 'TRL'), '372274');
    assert.equal(rate(obs, '1999-01-04', 'CYP'), '0.58231');
    assert.equal(rate(obs, '2008-10-30', 'ISK'), '305');
    // ISK was not fixed from December 2008 to January 2018; RUB stopped after 1 March 2022.
    assert.equal(rate(obs, '2010-06-01', 'ISK'), undefined);
    assert.equal(quotes(obs, '2010-06-01').length, 33);
    assert.equal(rate(obs, '2022-03-01', 'RUB'), '117.201');
    assert.equal(rate(obs, '2022-03-02', 'RUB'), undefined);
    assert.equal(rate(obs, '2025-12-31', 'BGN'), '1.9558');
  });

  test('history ZIP gives exactly the observations of the history CSV', () => {
    const fromZip = parseFile('eurofxref-hist-2026-04-13.zip');
    assert.equal(fromZip.length, 217_555);
    assert.deepEqual(fromZip, parseFile('eurofxref-hist-2026-04-13.csv'));
  });

  test('requests the daily, 90-day or history file by the window span and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const ctx = { base: 'http://127.0.0.1:1', key: 'k' };
    const requests = source.requests(window, ctx);
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/eurofxref-hist-90d.xml' }]);
    assert.deepEqual(source.requests({ from: '2026-03-06', to: '2026-03-06' }, ctx), [{ url: 'http://127.0.0.1:1/eurofxref-daily.xml' }]);
    assert.deepEqual(source.requests({ from: '2026-03-03', to: '2026-03-06' }, ctx), [{ url: 'http://127.0.0.1:1/eurofxref-daily.xml' }]);
    assert.deepEqual(source.requests({ from: '2025-12-06', to: '2026-03-06' }, ctx), [{ url: 'http://127.0.0.1:1/eurofxref-hist-90d.xml' }]);
    assert.deepEqual(source.requests({ from: '2025-12-05', to: '2026-03-06' }, ctx), [{ url: 'http://127.0.0.1:1/eurofxref-hist.zip' }]);
    for (const r of [...requests, ...source.requests({ from: '1999-01-04', to: '2026-03-06' }, { base: source.baseUrl })]) {
      assert.ok(source.accepts(r.name ?? r.url), r.url);
    }

    const file = 'eurofxref-hist-90d-2025-04-04.xml';
    const server = await startFeedServer({ '/eurofxref-hist-90d.xml': { body: readFileSync(new URL(file, DIR)), contentType: 'text/xml' } });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p)), parseFile(file));
      assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url}`), ['GET /eurofxref-hist-90d.xml']);
    } finally {
      await server.close();
    }
  });
});

describe('ECBF edge cases', () => {
  const DAILY_XML = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<Cube>
\t\t<Cube time='2026-04-14'>
\t\t\t<Cube currency='USD' rate='1.1700'/>
\t\t\t<Cube currency='JPY' rate='187.10'/>
\t\t</Cube>
\t</Cube>
</gesmes:Envelope>`;
  const HIST_CSV = 'Date,USD,BGN,ISK,\n2026-04-14,1.17,N/A,143.5,\n2025-12-31,1.1750,1.9558,N/A,\n';

  test('reads a daily XML and a history CSV written inline', () => {
    assert.deepEqual(parse('eurofxref-daily.xml', DAILY_XML), [
      { date: '2026-04-14', quote: 'USD', rate: '1.1700', unit: 1, direction: 'indirect' },
      { date: '2026-04-14', quote: 'JPY', rate: '187.10', unit: 1, direction: 'indirect' },
    ]);
    assert.deepEqual(
      parse('eurofxref-hist.csv', HIST_CSV).map((o) => `${o.date} ${o.quote} ${o.rate}`),
      ['2026-04-14 USD 1.17', '2026-04-14 ISK 143.5', '2025-12-31 USD 1.1750', '2025-12-31 BGN 1.9558'],
    );
  });

  test('reads a zipped CSV and rejects a cut-off or corrupted ZIP', () => {
    const zip = zipOf('eurofxref-hist.csv', HIST_CSV);
    assert.equal(parse('eurofxref-hist.zip', zip).length, 4);
    assert.throws(() => parse('eurofxref-hist.zip', zip.subarray(0, zip.length - 40)), ParseError);
    const corrupted = Buffer.from(zip);
    corrupted.writeUInt32LE(12345, 14);
    assert.throws(() => parse('eurofxref-hist.zip', corrupted), /CRC-32/);
  });

  test('rejects an HTML error page', () => {
    const html = '<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>The page does not exist.<br></p></body></html>';
    assert.throws(() => parse('eurofxref-daily.xml', html), ParseError);
    assert.throws(() => parse('eurofxref-daily.xml', '<html><body><p>Service unavailable</p></body></html>'), ParseError);
  });

  test('rejects truncated payloads', () => {
    assert.throws(() => parse('eurofxref-daily.xml', DAILY_XML.slice(0, DAILY_XML.indexOf('JPY'))), ParseError);
    assert.throws(() => parse('eurofxref-hist.csv', HIST_CSV.slice(0, HIST_CSV.indexOf('1.9558'))), ParseError);
  });

  test('rejects empty tables', () => {
    const empty = DAILY_XML.replace(/\t\t<Cube time[\s\S]*?\t\t<\/Cube>\n/, '');
    assert.throws(() => parse('eurofxref-daily.xml', empty), /no dated Cube/);
    const noRates = DAILY_XML.replace(/\t\t\t<Cube currency.*\n/g, '');
    assert.throws(() => parse('eurofxref-daily.xml', noRates), /no rates for 2026-04-14/);
    assert.throws(() => parse('eurofxref-hist.csv', 'Date,USD,JPY,\n'), /no rows/);
    assert.throws(() => parse('eurofxref-hist.csv', 'Date,USD,\n2026-04-14,N/A,\n'), /holds no rates/);
    assert.throws(() => parse('eurofxref.csv', ''), ParseError);
  });

  test('rejects a bad number or date rather than guessing', () => {
    assert.throws(() => parse('eurofxref-hist.csv', 'Date,USD,\n2026-04-14,1.17x,\n'), /bad USD rate/);
    assert.throws(() => parse('eurofxref.csv', 'Date, USD, \n14 Aprile 2026, 1.17, \n'), /bad CSV date/);
  });

  test('accepts the feed URLs, not unrelated names', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip'));
    assert.ok(source.accepts('https://www.ecb.europa.eu/stats/eurofxref/eurofxref.zip?abc'));
    assert.ok(source.accepts('/stats/eurofxref/eurofxref-hist-90d.xml'));
    assert.ok(!source.accepts('SOURCE.md'));
    assert.ok(!source.accepts('valet-FX_RATES_DAILY.json'));
  });
});
