import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './cnba.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('CNBA');

const parse = (body: string, name = 'daily.txt') => source.parse({ name, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const find = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote);
/** "rate per unit" as a compact string, so one assertion covers both. */
const quoted = (obs: Observation[], date: string, quote: string) => {
  const o = find(obs, date, quote);
  return o && `${o.rate}/${o.unit}`;
};
const dates = (obs: Observation[]) => [...new Set(obs.map((o) => o.date))];

const CCY_2026 = 'AUD BRL CAD CHF CNY DKK EUR GBP HKD HUF IDR ILS INR ISK JPY KRW MXN MYR NOK NZD PHP PLN RON SEK SGD THB TRY USD XDR ZAR'.split(' ');

describe('CNBA recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [
      'cnbapi-exrates-daily-year-2026-EN.json',
      'denni_kurz-cs-2022-03-28.txt',
      'denni_kurz-cs-2025-05-30.txt',
    ]);
  });

  test('JSON API, year 2026: 65 fixings of 30 currencies with their amounts', () => {
    const obs = parseFile('cnbapi-exrates-daily-year-2026-EN.json');
    const days = dates(obs);
    assert.equal(days.length, 65);
    assert.equal(days[0], '2026-01-02');
    assert.equal(days.at(-1), '2026-04-02');
    assert.equal(obs.length, 65 * 30);
    assert.deepEqual(obs.filter((o) => o.date === '2026-04-02').map((o) => o.quote).sort(), CCY_2026);
    assert.ok(obs.every((o) => o.direction === 'direct'));
    assert.equal(quoted(obs, '2026-01-02', 'USD'), '20.611/1');
    // Published as 24.170: the JSON number's trailing zero is kept.
    assert.equal(quoted(obs, '2026-01-02', 'EUR'), '24.170/1');
    assert.equal(quoted(obs, '2026-01-02', 'JPY'), '13.141/100');
    assert.equal(quoted(obs, '2026-01-02', 'IDR'), '1.233/1000');
    assert.equal(quoted(obs, '2026-01-02', 'HUF'), '6.304/100');
    assert.equal(quoted(obs, '2026-04-02', 'TRY'), '47.850/100');
    assert.equal(quoted(obs, '2026-04-02', 'XDR'), '29.042/1');
    assert.equal(quoted(obs, '2026-04-02', 'PHP'), '35.126/100');
  });

  test('Czech text of 28.03.2022: decimal commas, HRK listed, RUB already gone', () => {
    const obs = parseFile('denni_kurz-cs-2022-03-28.txt');
    assert.deepEqual(dates(obs), ['2022-03-28']);
    assert.equal(obs.length, 32);
    assert.equal(quoted(obs, '2022-03-28', 'AUD'), '16.897/1');
    assert.equal(quoted(obs, '2022-03-28', 'EUR'), '24.650/1');
    assert.equal(quoted(obs, '2022-03-28', 'HRK'), '3.255/1');
    assert.equal(quoted(obs, '2022-03-28', 'JPY'), '18.138/100');
    assert.equal(quoted(obs, '2022-03-28', 'IDR'), '1.566/1000');
    assert.equal(quoted(obs, '2022-03-28', 'TRY'), '1.515/1');
    assert.equal(quoted(obs, '2022-03-28', 'USD'), '22.485/1');
    assert.equal(find(obs, '2022-03-28', 'RUB'), undefined);
  });

  test('Czech text of 30.05.2025: TRY now per 100, BGN still quoted', () => {
    const obs = parseFile('denni_kurz-cs-2025-05-30.txt');
    assert.deepEqual(dates(obs), ['2025-05-30']);
    assert.deepEqual(obs.map((o) => o.quote).sort(), [...CCY_2026, 'BGN'].sort());
    assert.equal(quoted(obs, '2025-05-30', 'TRY'), '55.979/100');
    assert.equal(quoted(obs, '2025-05-30', 'BGN'), '12.747/1');
    assert.equal(quoted(obs, '2025-05-30', 'ISK'), '17.288/100');
    assert.equal(quoted(obs, '2025-05-30', 'KRW'), '1.592/100');
    assert.equal(quoted(obs, '2025-05-30', 'IDR'), '1.348/1000');
    assert.equal(quoted(obs, '2025-05-30', 'GBP'), '29.623/1');
    assert.equal(quoted(obs, '2025-05-30', 'EUR'), '24.930/1');
  });

  test('requests the daily-year JSON per year of the window and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/exrates/daily-year?year=2026&lang=EN' }]);
    assert.deepEqual(
      source.requests({ from: '2024-12-30', to: '2026-01-02' }, { base: source.baseUrl }).map((r) => r.url),
      [2024, 2025, 2026].map((y) => `https://api.cnb.cz/cnbapi/exrates/daily-year?year=${y}&lang=EN`),
    );
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const file = 'cnbapi-exrates-daily-year-2026-EN.json';
    const server = await startFeedServer({ '/exrates/daily-year?year=2026&lang=EN': { body: readFileSync(new URL(file, DIR)) } });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p)), parseFile(file));
      assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url}`), ['GET /exrates/daily-year?year=2026&lang=EN']);
    } finally {
      await server.close();
    }
  });
});

describe('CNBA edge cases', () => {
  const ENGLISH = '09 Apr 2025 #70\nCountry|Currency|Amount|Code|Rate\nEMU|euro|1|EUR|25.120\nJapan|yen|100|JPY|15.733\nIndonesia|rupiah|1000|IDR|1.360\n';

  test('reads the English daily.txt layout', () => {
    assert.deepEqual(parse(ENGLISH), [
      { date: '2025-04-09', quote: 'EUR', rate: '25.120', unit: 1, direction: 'direct' },
      { date: '2025-04-09', quote: 'JPY', rate: '15.733', unit: 100, direction: 'direct' },
      { date: '2025-04-09', quote: 'IDR', rate: '1.360', unit: 1000, direction: 'direct' },
    ]);
    assert.equal(parse(ENGLISH.replace('09 Apr 2025', '09.04.2025').replaceAll('\n', '\r\n'))[1]!.rate, '15.733');
  });

  test('rejects an HTML error page', () => {
    const html = '<!DOCTYPE html>\n<html lang="cs"><head><title>Nenalezeno / Not found</title></head><body><h1>404</h1></body></html>';
    assert.throws(() => parse(html), ParseError);
    assert.throws(() => parse(html, 'cnbapi/exrates/daily'), ParseError);
  });

  test('rejects truncated payloads', () => {
    assert.throws(() => parse(ENGLISH.slice(0, ENGLISH.indexOf('|JPY|'))), /line 4 has 3 fields/);
    const json = '{"rates":[{"currencyCode":"USD","amount":1,"validFor":"2026-04-02","rate":21.291},{"curr';
    assert.throws(() => parse(json, 'cnbapi/exrates/daily'), /not JSON/);
  });

  test('rejects empty tables and API errors', () => {
    assert.throws(() => parse('09 Apr 2025 #70\nCountry|Currency|Amount|Code|Rate\n'), /holds no rates/);
    assert.throws(() => parse('{"rates":[]}', 'cnbapi/exrates/daily'), /holds no rates/);
    const error = '{"description":"Invalid date","endPoint":"/cnbapi/exrates/daily","errorCode":"VALIDATION_ERROR","happenedAt":"2026-04-02T20:00:00.000+02:00"}';
    assert.throws(() => parse(error, 'cnbapi/exrates/daily'), /no rates array/);
  });

  test('rejects year.txt and rows with a bad amount or rate', () => {
    assert.throws(() => parse('Datum|1 AUD|1 BRL\n02.01.2026|13,797|3,789\n'), /is not "DD.MM.YYYY #n"/);
    assert.throws(() => parse('09 Apr 2025 #70\nDatum|1 AUD\nx|y|1|AUD|1\n'), /unexpected column line/);
    assert.throws(() => parse(ENGLISH.replace('|100|', '|sto|')), /bad JPY amount/);
    assert.throws(() => parse(ENGLISH.replace('15.733', '15.7.33')), /bad JPY rate/);
  });

  test('accepts the CNB feeds, not year.txt or other files', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://api.cnb.cz/cnbapi/exrates/daily-year?year=2026&lang=EN'));
    assert.ok(source.accepts('http://mirror.internal/exrates/daily-year?year=2026&lang=EN'));
    assert.ok(source.accepts('https://www.cnb.cz/en/financial-markets/foreign-exchange-market/central-bank-exchange-rate-fixing/central-bank-exchange-rate-fixing/daily.txt?date=09.04.2025'));
    assert.ok(source.accepts('https://www.cnb.cz/cs/financni-trhy/devizovy-trh/kurzy-devizoveho-trhu/kurzy-devizoveho-trhu/denni_kurz.txt'));
    assert.ok(!source.accepts('https://www.cnb.cz/en/financial-markets/foreign-exchange-market/central-bank-exchange-rate-fixing/central-bank-exchange-rate-fixing/year.txt?year=2025'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
