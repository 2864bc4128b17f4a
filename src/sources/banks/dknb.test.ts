import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './dknb.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('DKNB');
const FILE = 'statbank-DNVALD-KBH-2025-03-03_2026-03-31.csv';

const parse = (body: string) => source.parse({ name: 'statbank-DNVALD-KBH-2026-03-02_2026-03-06.csv', body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote)?.rate;
const quotesOn = (obs: Observation[], date: string) => obs.filter((o) => o.date === date).map((o) => o.quote).sort();
const dates = (obs: Observation[]) => [...new Set(obs.map((o) => o.date))].sort();

const CCY = 'AUD BGN BRL CAD CHF CNY CZK EUR GBP HKD HUF IDR ILS INR ISK JPY KRW MXN MYR NOK NZD PHP PLN RON SEK SGD THB TRY USD ZAR'.split(' ');

describe('DKNB recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('DNVALD 2025-03-03 to 2026-03-31: 269 days of 30 currencies, DKK per 100, BGN gone in 2026', () => {
    const obs = parseFile(FILE);
    const days = dates(obs);
    assert.equal(days.length, 269);
    assert.equal(days[0], '2025-03-03');
    assert.equal(days.at(-1), '2026-03-31');
    // 8,070 rows, less the 63 ".." of BGN from 2 January 2026.
    assert.equal(obs.length, 8070 - 63);
    assert.ok(obs.every((o) => o.unit === 100 && o.direction === 'direct'));
    assert.deepEqual(quotesOn(obs, '2025-07-08'), CCY);
    assert.deepEqual(quotesOn(obs, '2026-01-02'), CCY.filter((c) => c !== 'BGN'));
    assert.equal(rate(obs, '2025-07-08', 'EUR'), '746.0900');
    assert.equal(rate(obs, '2025-07-08', 'USD'), '636.7000');
    assert.equal(rate(obs, '2025-07-08', 'JPY'), '4.3453');
    assert.equal(rate(obs, '2025-07-08', 'IDR'), '0.0391');
    assert.equal(rate(obs, '2025-07-08', 'ISK'), '5.2320');
    assert.equal(rate(obs, '2025-07-08', 'AUD'), '416.2300');
    assert.equal(rate(obs, '2025-09-18', 'BGN'), '381.6700');
    assert.equal(rate(obs, '2025-11-26', 'TRY'), '15.2000');
    assert.equal(rate(obs, '2025-03-03', 'BRL'), '121.1000');
    assert.equal(rate(obs, '2026-03-31', 'EUR'), '747.3000');
    assert.equal(rate(obs, '2026-03-31', 'BGN'), undefined);
  });

  test('the POST built on the base URL fetches a payload that parses like the file', async () => {
    const body = readFileSync(new URL(FILE, DIR));
    const server = await startFeedServer({ '/v1/data': { body, contentType: 'text/csv; charset=utf-8' } });
    try {
      const payloads = await fetchSource(source, { from: '2025-03-03', to: '2026-03-31' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 1);
      assert.equal(payloads[0]!.name, FILE);
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILE));
      const sent = server.requests[0]!;
      assert.equal(sent.method, 'POST');
      assert.equal(sent.headers['content-type'], 'application/json');
      assert.deepEqual(JSON.parse(sent.body).variables.at(-1), { code: 'Tid', values: ['>=2025M03D03<=2026M03D31'] });
    } finally {
      await server.close();
    }
  });
});

describe('DKNB edge cases', () => {
  const CSV = 'VALUTA;KURTYP;TID;INDHOLD\r\nEUR;KBH;2026M03D02;746.9500\r\nBGN;KBH;2026M03D02;..\r\nJPY;KBH;2026M03D02;4.1120\r\n';

  test('reads every row as DKK per 100 and skips ".."', () => {
    assert.deepEqual(parse(CSV), [
      { date: '2026-03-02', quote: 'EUR', rate: '746.9500', unit: 100, direction: 'direct' },
      { date: '2026-03-02', quote: 'JPY', rate: '4.1120', unit: 100, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page and a StatBank JSON error', () => {
    assert.throws(() => parse('<html><head><title>Runtime Error</title></head><body><h2>Server Error in \'/\' Application.</h2></body></html>'), ParseError);
    assert.throws(() => parse('{"errorTypeCode":"ExtractNotAllowed","message":"Der skal vælges værdier for variabel: Tid"}'), /not DNVALD BULK CSV/);
  });

  test('rejects a truncated payload', () => {
    assert.throws(() => parse(CSV.slice(0, CSV.indexOf(';4.1120'))), /line 4 has 3 cells/);
  });

  test('rejects an empty table, other rate types and bad figures', () => {
    assert.throws(() => parse('VALUTA;KURTYP;TID;INDHOLD\r\n'), /holds no rates/);
    assert.throws(() => parse('VALUTA;KURTYP;TID;INDHOLD\r\nBGN;KBH;2026M03D02;..\r\n'), /holds no rates/);
    assert.throws(() => parse(CSV.replace('EUR;KBH', 'EUR;EFF')), /rate type "EFF"/);
    assert.throws(() => parse(CSV.replace('2026M03D02;746', '2026M03;746')), /bad TID/);
    assert.throws(() => parse(CSV.replace('746.9500', '746,95,00')), /bad EUR rate/);
  });

  test('builds one POST for the window on the base URL, named so that it is accepted', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.equal(requests.length, 1);
    const r = requests[0]!;
    assert.equal(r.url, 'http://127.0.0.1:1/v1/data');
    assert.equal(r.method, 'POST');
    assert.equal(r.name, 'statbank-DNVALD-KBH-2026-03-02_2026-03-06.csv');
    assert.deepEqual(r.headers, { 'content-type': 'application/json', accept: 'text/csv,*/*' });
    assert.deepEqual(JSON.parse(r.body!), {
      table: 'DNVALD',
      format: 'BULK',
      lang: 'en',
      valuePresentation: 'Code',
      variables: [
        { code: 'VALUTA', values: ['*'] },
        { code: 'KURTYP', values: ['KBH'] },
        { code: 'Tid', values: ['>=2026M03D02<=2026M03D06'] },
      ],
    });
    for (const req of requests) assert.ok(source.accepts(req.name ?? req.url));
    assert.ok(!source.accepts('statbank-DNVALK-2026.csv'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
