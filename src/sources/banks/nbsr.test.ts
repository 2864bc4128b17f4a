// Grade F (SOURCES-2.md): downloaded lists kept as test fixtures by a public library (2016).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './nbsr.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('NBSR');
const LISTS = ['foreign-cash', 'foreign-exchange', 'middle'].map((list) => `nbs-kursna-lista-252-2015-12-31-${list}.xml`);
const [CASH, EXCHANGE, MIDDLE] = LISTS as [string, string, string];
const FORM = new URL('./testdata/NBSR-form.html', import.meta.url);

const parse = (body: string) => source.parse({ name: 'kursnaListaModul/naZeljeniDan.faces?date=2015-12-31', body: Buffer.from(body) }) as Observation[];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const perUnit = (obs: Observation[], quote: string) => {
  const o = obs.find((x) => x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};

describe('NBSR recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), LISTS);
  });

  test('middle list No 252 of 31.12.2015: 30 currencies, legacy euro-area ones included', () => {
    const obs = parseFile(MIDDLE);
    assert.deepEqual(obs.map((o) => o.quote), 'EUR AUD CAD CNY HRK CZK DKK HUF JPY KWD NOK RUB SEK CHF GBP USD BAM PLN ATS BEF FIM FRF DEM GRD IEP ITL LUF PTE ESP XDR'.split(' '));
    assert.ok(obs.every((o) => o.date === '2015-12-31' && o.direction === 'direct'));
    assert.equal(perUnit(obs, 'EUR'), '121.6261/1');
    assert.equal(perUnit(obs, 'AUD'), '81.2900/1');
    assert.equal(perUnit(obs, 'USD'), '111.2468/1');
    assert.equal(perUnit(obs, 'HUF'), '38.7406/100');
    assert.equal(perUnit(obs, 'JPY'), '92.4000/100');
    assert.equal(perUnit(obs, 'KWD'), '366.4541/1');
    assert.equal(perUnit(obs, 'DEM'), '62.1864/1');
    assert.equal(perUnit(obs, 'GRD'), '35.6936/100');
    assert.equal(perUnit(obs, 'ITL'), '6.2815/100');
    assert.equal(perUnit(obs, 'XDR'), '154.2837/1');
  });

  test('foreign-exchange and foreign-cash lists: buying/selling midpoints equal the middle rates', () => {
    const middle = parseFile(MIDDLE);
    const exchange = parseFile(EXCHANGE);
    assert.deepEqual(exchange.map((o) => o.quote), 'EUR AUD CAD CNY DKK JPY NOK RUB SEK CHF GBP USD'.split(' '));
    // NOK: buying 12.6140, selling 12.6900; JPY: 92.1228 and 92.6772 per 100.
    assert.equal(perUnit(exchange, 'NOK'), '12.6520/1');
    assert.equal(perUnit(exchange, 'JPY'), '92.4000/100');
    const cash = parseFile(CASH);
    assert.deepEqual(cash.map((o) => o.quote), ['EUR', 'CHF', 'USD']);
    // EUR cash: buying 120.7747, selling 122.4775.
    assert.equal(perUnit(cash, 'EUR'), '121.6261/1');
    for (const o of [...exchange, ...cash]) assert.deepEqual(o, middle.find((m) => m.quote === o.quote), o.quote);
  });

  test('reads the form page, then posts it for the middle list per business day with its ViewState and cookie', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const base = 'http://127.0.0.1:1';
    const url = `${base}/kursnaListaModul/naZeljeniDan.faces`;
    assert.deepEqual(source.requests(window, { base, key: 'k' }), [{ url, follow: true }]);
    const page = { name: url, url, body: readFileSync(FORM), cookie: 'JSESSIONID=j1' };
    const requests = source.follow!(page, window, { base });
    assert.equal(requests.length, 5);
    assert.deepEqual(requests[0], {
      url,
      name: `${url}?date=2026-03-02`,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', referer: url, cookie: 'JSESSIONID=j1' },
      body: 'index=index&javax.faces.ViewState=H4sIAAAAAAAAAK1Wz2-test-viewstate-NBSR&index%3AbrKursneListe%3A=&index%3Ayear=2026&index%3AinputCalendar1=02%2F03%2F2026&index%3Avrsta=3&index%3Aprikaz=3&index%3AbuttonShow=Show',
    });
    assert.deepEqual(requests.map((r) => new URLSearchParams(r.body).get('index:inputCalendar1')), ['02/03/2026', '03/03/2026', '04/03/2026', '05/03/2026', '06/03/2026']);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);
    assert.throws(() => source.follow!({ ...page, body: Buffer.from('<html><body>ViewExpiredException</body></html>') }, window, { base }), /no exchange-rate form with its ViewState/);

    const server = await startFeedServer((_path, req) =>
      req.method === 'GET'
        ? { body: readFileSync(FORM), contentType: 'text/html;charset=UTF-8', headers: { 'set-cookie': 'JSESSIONID=j2; Path=/kursnaListaModul' } }
        : new URLSearchParams(req.body).get('javax.faces.ViewState') && req.headers.cookie === 'JSESSIONID=j2'
          ? { body: readFileSync(new URL(MIDDLE, DIR)), contentType: 'text/xml' }
          : { status: 500, body: 'javax.faces.application.ViewExpiredException' },
    );
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.map((p) => p.name.slice(-10)), ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06']);
      for (const p of payloads) assert.deepEqual(source.parse(p), parseFile(MIDDLE));
      assert.deepEqual(server.requests.map((r) => r.method), ['GET', 'POST', 'POST', 'POST', 'POST', 'POST']);
      assert.match(server.requests[5]!.body, /inputCalendar1=06%2F03%2F2026/);
    } finally {
      await server.close();
    }
  });
});

describe('NBSR edge cases', () => {
  const LIST = (items: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\r\n<Exchange_Rates_List>\r\n    <header>\r\n        <Copyright>All rights retained by the National Bank of Serbia.</Copyright>\r\n        <No>1</No>\r\n        <Date>04.01.2016</Date>\r\n        <Type>FOREIGN EXCHANGE</Type>\r\n    </header>\r\n${items}</Exchange_Rates_List>\r\n\r\n\n`;
  const ITEM = (buying: string, selling: string) =>
    `    <Item>\r\n        <Code>840</Code>\r\n        <Country>United States</Country>\r\n        <Currency>USD</Currency>\r\n        <Unit>1</Unit>\r\n        <Buying_Rate>${buying}</Buying_Rate>\r\n        <Selling_Rate>${selling}</Selling_Rate>\r\n    </Item>\r\n`;

  test('a midpoint that needs a further digit keeps it', () => {
    assert.deepEqual(parse(LIST(ITEM('110.9131', '111.5806'))), [{ date: '2016-01-04', quote: 'USD', rate: '111.24685', unit: 1, direction: 'direct' }]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html>\n<html><head><title>Greška</title></head><body><p>Došlo je do greške.</p></body></html>'), ParseError);
  });

  test('rejects a truncated list', () => {
    const full = LIST(ITEM('110.9131', '111.5806'));
    assert.throws(() => parse(full.slice(0, full.indexOf('<Selling_Rate>'))), /not well-formed XML/);
  });

  test('rejects an empty list, a bad date and an item without rates', () => {
    assert.throws(() => parse(LIST('')), /holds no rates/);
    assert.throws(() => parse(LIST(ITEM('1', '2')).replace('04.01.2016', '2016-01-04')), /bad header Date/);
    assert.throws(() => parse(LIST(ITEM('110.9131', '111.5806')).replace(/<Selling_Rate>.*<\/Selling_Rate>/, '')), /USD on 2016-01-04 \(selling\): no rate/);
  });

  test('accepts the form and the recorded lists only', () => {
    assert.ok(source.accepts('https://www.nbs.rs/kursnaListaModul/naZeljeniDan.faces'));
    assert.ok(!source.accepts(source.feedUrl));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
