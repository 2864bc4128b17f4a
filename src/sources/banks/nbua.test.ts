import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './nbua.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('NBUA');
const FILE = 'exchange_site-20260301-20260316.json';

const parse = (body: string, name = 'NBU_Exchange/exchange_site?json') => source.parse({ name, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const quoted = (obs: Observation[], date: string, quote: string) => {
  const o = obs.find((x) => x.date === date && x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};
const dates = (obs: Observation[]) => [...new Set(obs.map((o) => o.date))];

const CCY = ('AED AUD AZN BDT CAD CHF CNY CZK DKK DZD EGP EUR GBP GEL HKD HUF IDR ILS INR JPY KRW KZT LBP MDL MXN ' +
  'MYR NOK NZD PLN RON RSD SAR SEK SGD THB TND TRY USD VND XDR ZAR').split(' ');

describe('NBUA recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('exchange_site 01.03–16.03.2026: every calendar day, 41 currencies and 4 metals', () => {
    const obs = parseFile(FILE);
    const days = dates(obs);
    assert.equal(days.length, 16);
    assert.equal(days[0], '2026-03-01');
    assert.equal(days.at(-1), '2026-03-16');
    assert.equal(obs.length, 16 * 45);
    for (const day of days) assert.deepEqual(obs.filter((o) => o.date === day).map((o) => o.quote).sort(), [...CCY, 'XAG', 'XAU', 'XPD', 'XPT'].sort(), day);
    assert.ok(obs.every((o) => o.direction === 'direct'));
    assert.equal(quoted(obs, '2026-03-01', 'USD'), '43.2081/1');
    assert.equal(quoted(obs, '2026-03-01', 'EUR'), '51.0244/1');
    assert.equal(quoted(obs, '2026-03-01', 'JPY'), '2.7682/10');
    assert.equal(quoted(obs, '2026-03-01', 'HUF'), '13.6024/100');
    assert.equal(quoted(obs, '2026-03-01', 'IDR'), '2.5779/1000');
    assert.equal(quoted(obs, '2026-03-01', 'LBP'), '0.0482/100');
    assert.equal(quoted(obs, '2026-03-01', 'XDR'), '59.4533/1');
    // The NBU itself writes 8.895, not 8.8950.
    assert.equal(quoted(obs, '2026-03-07', 'KZT'), '8.895/100');
    assert.equal(quoted(obs, '2026-03-07', 'VND'), '1.6714/1000');
    assert.equal(quoted(obs, '2026-03-16', 'USD'), '44.1381/1');
    assert.equal(quoted(obs, '2026-03-16', 'EUR'), '50.6661/1');
    // Saturday and Sunday repeat Friday's figure (set on Thursday 05.03): the NBU states it for each day.
    assert.equal(quoted(obs, '2026-03-06', 'USD'), '43.8069/1');
    assert.equal(quoted(obs, '2026-03-07', 'USD'), '43.8069/1');
    assert.equal(quoted(obs, '2026-03-08', 'USD'), '43.8069/1');
  });

  test('metals: UAH per troy ounce, unit 1, as the NBU writes them (D19)', () => {
    const obs = parseFile(FILE);
    // {"cc":"XAU","enname":"Gold","rate":223573.57,"units":1,"group":"3"} in force on 02.03.2026.
    assert.equal(quoted(obs, '2026-03-02', 'XAU'), '223573.57/1');
    assert.equal(quoted(obs, '2026-03-02', 'XAG'), '3867.74/1');
    assert.equal(quoted(obs, '2026-03-02', 'XPT'), '102139.16/1');
    assert.equal(quoted(obs, '2026-03-02', 'XPD'), '78219.31/1');
    // 5,187 USD an ounce at the NBU's own dollar (43.0996 on 02.03): the price of an ounce.
    assert.equal((223573.57 / 43.0996).toFixed(0), '5187');
  });

  test('fetches the window in one request from the base URL and reads what it gets', async () => {
    const body = readFileSync(new URL(FILE, DIR));
    const server = await startFeedServer({ '/NBU_Exchange/exchange_site': { body, contentType: 'application/json; charset=utf-8' } });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(server.requests.map((r) => r.url), ['/NBU_Exchange/exchange_site?start=20260302&end=20260306&sort=exchangedate&order=asc&json']);
      assert.equal(payloads.length, 1);
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILE));
    } finally {
      await server.close();
    }
  });
});

describe('NBUA edge cases', () => {
  const ROWS =
    '[{"exchangedate":"17.03.2026","r030":840,"cc":"USD","txt":"Долар США","enname":"US Dollar","rate":44.1500,"units":1,"rate_per_unit":44.15,"group":"1","calcdate":"16.03.2026","special":"N"}' +
    ',{"exchangedate":"17.03.2026","r030":392,"cc":"JPY","txt":"Єна","enname":"Yen","rate":2.7705,"units":10,"rate_per_unit":0.27705,"group":"1","calcdate":"16.03.2026","special":null}' +
    ',{"exchangedate":"17.03.2026","r030":959,"cc":"XAU","txt":"Золото","enname":"Gold","rate":225912.48,"units":1,"rate_per_unit":225912.48,"group":"3","calcdate":"16.03.2026","special":null}]';

  test('keeps trailing zeros and the units multiplier, and reads the metals per ounce', () => {
    assert.deepEqual(parse(ROWS), [
      { date: '2026-03-17', quote: 'USD', rate: '44.1500', unit: 1, direction: 'direct' },
      { date: '2026-03-17', quote: 'JPY', rate: '2.7705', unit: 10, direction: 'direct' },
      { date: '2026-03-17', quote: 'XAU', rate: '225912.48', unit: 1, direction: 'direct' },
    ]);
  });

  test('reads statdirectory rows (no units field: per 1 unit)', () => {
    const stat = '[{"r030":392,"txt":"Єна","rate":0.27705,"cc":"JPY","exchangedate":"17.03.2026"}]';
    assert.deepEqual(parse(stat, 'https://bank.gov.ua/NBUStatService/v1/statdirectory/exchange?json'), [
      { date: '2026-03-17', quote: 'JPY', rate: '0.27705', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head><body></body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    assert.throws(() => parse(ROWS.slice(0, 300)), /not JSON/);
  });

  test('rejects an empty table, error objects and bad rows', () => {
    assert.throws(() => parse('[]'), /holds no rates/);
    assert.throws(() => parse('{"error":"Wrong parameters"}'), /not an array of rates/);
    assert.throws(() => parse(ROWS.replace('"units":10', '"units":0')), /bad JPY units/);
    assert.throws(() => parse(ROWS.replace('17.03.2026', '2026-03-17')), /bad exchangedate/);
  });

  test('builds one exchange_site request for the window on the base URL', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/NBU_Exchange/exchange_site?start=20260302&end=20260306&sort=exchangedate&order=asc&json' }]);
    for (const r of requests) assert.ok(source.accepts(r.url), r.url);
  });

  test('accepts the JSON endpoints only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://bank.gov.ua/NBUStatService/v1/statdirectory/exchange?date=20260317&json'));
    assert.ok(!source.accepts('https://bank.gov.ua/NBUStatService/v1/statdirectory/exchange?date=20260317'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
