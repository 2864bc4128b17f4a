import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './nbrb.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('NBRB');
const DAILY_FILE = 'rates-periodicity-0-2026-03-17.json';
const DYNAMICS_FILE = 'rates-dynamics-431-USD-2026-03-01_2026-03-17.json';

const parse = (body: string, name = 'exrates/rates?ondate=2026-03-18&periodicity=0') => source.parse({ name, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const quoted = (obs: Observation[], date: string, quote: string) => {
  const o = obs.find((x) => x.date === date && x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};
const dates = (obs: Observation[]) => [...new Set(obs.map((o) => o.date))];

const CCY = 'AED AMD AUD BRL CAD CHF CNY CZK DKK EUR GBP INR IRR ISK JPY KGS KWD KZT MDL NOK NZD PLN RUB SEK SGD TRY UAH USD VND XDR'.split(' ');

describe('NBRB recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [DYNAMICS_FILE, DAILY_FILE]);
  });

  test('daily list of 17.03.2026: 30 currencies, BYN per Cur_Scale, published digits kept', () => {
    const obs = parseFile(DAILY_FILE);
    assert.deepEqual(dates(obs), ['2026-03-17']);
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY);
    assert.ok(obs.every((o) => o.direction === 'direct'));
    // Written 2.0700 and 5.5390 in the JSON: the trailing zeros survive.
    assert.equal(quoted(obs, '2026-03-17', 'AUD'), '2.0700/1');
    assert.equal(quoted(obs, '2026-03-17', 'BRL'), '5.5390/10');
    assert.equal(quoted(obs, '2026-03-17', 'USD'), '2.9463/1');
    assert.equal(quoted(obs, '2026-03-17', 'EUR'), '3.3741/1');
    assert.equal(quoted(obs, '2026-03-17', 'RUB'), '3.6709/100');
    assert.equal(quoted(obs, '2026-03-17', 'AMD'), '7.8014/1000');
    assert.equal(quoted(obs, '2026-03-17', 'KZT'), '6.0761/1000');
    assert.equal(quoted(obs, '2026-03-17', 'VND'), '11.2071/100000');
    assert.equal(quoted(obs, '2026-03-17', 'IRR'), '0.2229/100000');
    assert.equal(quoted(obs, '2026-03-17', 'CZK'), '13.8056/100');
  });

  test('USD dynamics 01.03–17.03.2026: every calendar day, the currency known only by Cur_ID 431', () => {
    const obs = parseFile(DYNAMICS_FILE);
    assert.equal(obs.length, 17);
    assert.equal(dates(obs)[0], '2026-03-01');
    assert.equal(dates(obs).at(-1), '2026-03-17');
    assert.ok(obs.every((o) => o.quote === 'USD' && o.unit === 1 && o.direction === 'direct'));
    assert.equal(quoted(obs, '2026-03-01', 'USD'), '2.8523/1');
    assert.equal(quoted(obs, '2026-03-06', 'USD'), '2.9013/1');
    // Saturday and Sunday carry Friday's rate, as the NBRB sets it for them.
    assert.equal(quoted(obs, '2026-03-08', 'USD'), '2.9013/1');
    assert.equal(quoted(obs, '2026-03-09', 'USD'), '2.9259/1');
    assert.equal(quoted(obs, '2026-03-17', 'USD'), '2.9463/1');
  });

  test('fetches each day from the base URL and reads what it gets', async () => {
    const body = readFileSync(new URL(DAILY_FILE, DIR));
    const server = await startFeedServer({ '/exrates/rates': { body, contentType: 'application/json; charset=utf-8' } });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(server.requests.map((r) => r.url), ['02', '03', '04', '05', '06'].map((d) => `/exrates/rates?ondate=2026-03-${d}&periodicity=0`));
      const expected = parseFile(DAILY_FILE);
      for (const p of payloads) assert.deepEqual(source.parse(p), expected);
    } finally {
      await server.close();
    }
  });
});

describe('NBRB edge cases', () => {
  const ROWS =
    '[{"Cur_ID":431,"Date":"2026-03-18T00:00:00","Cur_Abbreviation":"USD","Cur_Scale":1,"Cur_Name":"Доллар США","Cur_OfficialRate":2.9500},' +
    '{"Cur_ID":508,"Date":"2026-03-18T00:00:00","Cur_Abbreviation":"JPY","Cur_Scale":100,"Cur_Name":"Иен","Cur_OfficialRate":1.85}]';

  test('reads Cur_Scale as the unit and keeps the rate text as written', () => {
    assert.deepEqual(parse(ROWS), [
      { date: '2026-03-18', quote: 'USD', rate: '2.9500', unit: 1, direction: 'direct' },
      { date: '2026-03-18', quote: 'JPY', rate: '1.85', unit: 100, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>Service Unavailable</title></head><body><h2>HTTP Error 503</h2></body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    assert.throws(() => parse(ROWS.slice(0, ROWS.indexOf('"Cur_OfficialRate":1.85'))), /not JSON/);
  });

  test('rejects an empty table, error objects, unknown ids and bad rows', () => {
    assert.throws(() => parse('[]'), /holds no rates/);
    assert.throws(() => parse('{"Message":"An error has occurred."}'), /not an array of rates/);
    assert.throws(() => parse('[{"Cur_ID":999,"Date":"2026-03-18T00:00:00","Cur_OfficialRate":1.0}]', 'exrates/rates/dynamics/999'), /unknown Cur_ID 999/);
    assert.throws(() => parse(ROWS.replace('"Cur_Scale":100', '"Cur_Scale":"100"')), /bad JPY Cur_Scale/);
    assert.throws(() => parse(ROWS.replace('"Cur_OfficialRate":1.85', '"Cur_OfficialRate":null')), /bad JPY Cur_OfficialRate/);
    assert.throws(() => parse(ROWS.replace('2026-03-18T00:00:00', '18.03.2026')), /bad Date/);
  });

  test('builds one daily-list request per calendar day on the base URL', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, ['02', '03', '04', '05', '06'].map((d) => ({ url: `http://127.0.0.1:1/exrates/rates?ondate=2026-03-${d}&periodicity=0` })));
    for (const r of requests) assert.ok(source.accepts(r.url), r.url);
  });

  test('accepts the daily list and dynamics, not the monthly list', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://api.nbrb.by/exrates/rates/dynamics/431?startDate=2026-03-01&endDate=2026-03-17'));
    assert.ok(!source.accepts('https://api.nbrb.by/exrates/rates?periodicity=1'));
    assert.ok(!source.accepts('https://api.nbrb.by/exrates/currencies'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
