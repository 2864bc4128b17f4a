import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './sisl.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('SISL');
const G7 = 'xmltimeseries-GroupID-7-2026-03-24_2026-03-28.xml';
const G9 = 'xmltimeseries-GroupID-9-2026-03-24_2026-03-28.xml';
const DAYS = ['2026-03-24', '2026-03-25', '2026-03-26', '2026-03-27'];

const parse = (body: string) => source.parse({ name: 'https://sedlabanki.is/xmltimeseries/Default.aspx?DagsFra=2026-03-02&DagsTil=2026-03-06&GroupID=9&Type=xml', body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote)?.rate;
const dates = (obs: Observation[]) => [...new Set(obs.map((o) => o.date))];
const currencies = (obs: Observation[]) => [...new Set(obs.map((o) => o.quote))].sort();

describe('SISL recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [G7, G9]);
  });

  test('group 9 of 24–27 Mar 2026: the 10 official rates, ISK per 1 unit, as the XML writes them', () => {
    const obs = parseFile(G9);
    assert.deepEqual(dates(obs), DAYS);
    assert.deepEqual(currencies(obs), ['CAD', 'CHF', 'DKK', 'EUR', 'GBP', 'JPY', 'NOK', 'SEK', 'USD', 'XDR']);
    assert.equal(obs.length, 4 * 10);
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'direct'));
    // The XML pads every figure to six decimals; those are its digits, kept as written.
    assert.equal(rate(obs, '2026-03-24', 'USD'), '124.440000');
    assert.equal(rate(obs, '2026-03-27', 'USD'), '124.710000');
    assert.equal(rate(obs, '2026-03-24', 'EUR'), '144.000000');
    assert.equal(rate(obs, '2026-03-25', 'EUR'), '143.400000');
    assert.equal(rate(obs, '2026-03-24', 'JPY'), '0.783000');
    assert.equal(rate(obs, '2026-03-25', 'JPY'), '0.778200');
    assert.equal(rate(obs, '2026-03-24', 'DKK'), '19.274000');
    assert.equal(rate(obs, '2026-03-24', 'XDR'), '169.600000');
    assert.equal(rate(obs, '2026-03-24', 'GBP'), '166.400000');
    assert.equal(rate(obs, '2026-03-24', 'SEK'), '13.304000');
  });

  test('group 7 of 24–27 Mar 2026: 22 indicative mid rates, retired series left empty', () => {
    const obs = parseFile(G7);
    assert.deepEqual(dates(obs), DAYS);
    const ccy = 'AUD BRL CNY CZK HKD HUF ILS INR JMD KRW KWD MXN NGN NZD PLN SAR SGD SRD THB TRY TWD ZAR'.split(' ');
    assert.deepEqual(currencies(obs), ccy);
    assert.equal(obs.length, 4 * 22);
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'direct'));
    for (const gone of ['RUB', 'EEK', 'HRK', 'BGN', 'MTL']) assert.ok(!obs.some((o) => o.quote === gone), gone);
    assert.equal(rate(obs, '2026-03-24', 'CNY'), '18.052000');
    assert.equal(rate(obs, '2026-03-25', 'CNY'), '17.930000');
    assert.equal(rate(obs, '2026-03-24', 'NGN'), '0.089900');
    assert.equal(rate(obs, '2026-03-27', 'NGN'), '0.090200');
    assert.equal(rate(obs, '2026-03-24', 'KRW'), '0.083000');
    assert.equal(rate(obs, '2026-03-24', 'HUF'), '0.369300');
    assert.equal(rate(obs, '2026-03-24', 'THB'), '3.810100');
    assert.equal(rate(obs, '2026-03-24', 'JMD'), '0.793200');
    assert.equal(rate(obs, '2026-03-24', 'SAR'), '33.129000');
    assert.equal(rate(obs, '2026-03-26', 'KWD'), '404.460000');
  });

  test('the two requests built on the base URL fetch payloads that parse like the files', async () => {
    const query = (g: string) => `/xmltimeseries/Default.aspx?DagsFra=2026-03-24&DagsTil=2026-03-28&GroupID=${g}&Type=xml`;
    const server = await startFeedServer({
      [query('9')]: { body: readFileSync(new URL(G9, DIR)), contentType: 'application/xml' },
      [query('7')]: { body: readFileSync(new URL(G7, DIR)), contentType: 'application/xml' },
    });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-24', to: '2026-03-28' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 2);
      assert.ok(payloads.every((p) => source.accepts(p.name)));
      assert.deepEqual(source.parse(payloads[0]!), parseFile(G9));
      assert.deepEqual(source.parse(payloads[1]!), parseFile(G7));
    } finally {
      await server.close();
    }
  });
});

describe('SISL edge cases', () => {
  const series = (id: string, name: string, kind: string, entries: string) =>
    `<TimeSeries ID="${id}"><FameName><![CDATA[]]></FameName><Name><![CDATA[${name}]]></Name><Description><![CDATA[${name}, skráð ${kind}.]]></Description>${entries ? `<TimeSeriesData>${entries}</TimeSeriesData>` : '<TimeSeriesData />'}</TimeSeries>`;
  const entry = (date: string, value: string) => `<Entry><Date>${date} 12:00:00 AM</Date><Value>${value}</Value></Entry>`;
  const doc = (body: string) => `<?xml version="1.0"  encoding="utf-8"?><Group ID="9"><Name><![CDATA[Opinbert viðmiðunargengi SÍ]]></Name>${body}</Group>`;
  const XML = doc(
    series('4054', 'Bandaríkjadalur', 'kaupgengi', entry('3/2/2026', '124.100000')) +
      series('4055', 'Bandaríkjadalur', 'miðgengi', entry('3/2/2026', '124.400000') + entry('3/3/2026', '124.550000')) +
      series('4058', 'Belgískur franki', 'miðgengi', ''),
  );

  test('reads mid series by ID, skips buy/sell and empty series', () => {
    assert.deepEqual(parse(XML), [
      { date: '2026-03-02', quote: 'USD', rate: '124.400000', unit: 1, direction: 'direct' },
      { date: '2026-03-03', quote: 'USD', rate: '124.550000', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>Villa</title></head><body><h1>Runtime Error</h1></body></html>'), ParseError);
    assert.throws(() => parse('<html><head><title>Villa</title></head><body><h1>Runtime Error</h1></body></html>'), /not time-series group/);
  });

  test('rejects a truncated payload', () => {
    assert.throws(() => parse(XML.slice(0, XML.indexOf('<Entry><Date>3/3/2026'))), /not well-formed XML/);
  });

  test('rejects an empty table, unknown series and bad entries', () => {
    assert.throws(() => parse(doc(series('4055', 'Bandaríkjadalur', 'miðgengi', ''))), /holds no rates/);
    assert.throws(() => parse(doc('')), /holds no rates/);
    assert.throws(() => parse(doc(series('3504', 'Venesúelskur bólivari', 'miðgengi', entry('3/2/2026', '0.300000')))), /series "3504".*not a known mid rate/);
    assert.throws(() => parse(XML.replace('Group ID="9"', 'Group ID="5"')), /not time-series group 9 or 7/);
    assert.throws(() => parse(XML.replace('3/3/2026 12:00:00 AM', '2026-03-03')), /bad date/);
    assert.throws(() => parse(XML.replace('124.550000', '124,550.00')), /bad USD rate/);
  });

  test('series that are all empty are no publication (a holiday span); a group without series is a fault', () => {
    assert.throws(() => parse(doc(series('4055', 'Bandaríkjadalur', 'miðgengi', '') + series('4064', 'Evra', 'miðgengi', ''))), NoPublication);
    assert.throws(() => parse(doc('')), (err) => err instanceof ParseError && !(err instanceof NoPublication));
  });

  test('builds the group 9 and group 7 requests for the window on the base URL, each accepted', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [
      { url: 'http://127.0.0.1:1/xmltimeseries/Default.aspx?DagsFra=2026-03-02&DagsTil=2026-03-06&GroupID=9&Type=xml' },
      { url: 'http://127.0.0.1:1/xmltimeseries/Default.aspx?DagsFra=2026-03-02&DagsTil=2026-03-06&GroupID=7&Type=xml' },
    ]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url));
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://sedlabanki.is/xmltimeseries/Default.aspx?DagsFra=2026-03-02&DagsTil=2026-03-06&GroupID=1&Type=xml'));
    assert.ok(!source.accepts('https://sedlabanki.is/xmltimeseries/Default.aspx?DagsFra=2026-03-02&DagsTil=2026-03-06&GroupID=9&Type=csv'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
