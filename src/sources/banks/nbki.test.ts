import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './nbki.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('NBKI');
const DAILY_FILE = 'XML-daily-24.05.2026.xml';
const WEEKLY_FILE = 'XML-weekly-23.05.2026.xml';

const parse = (body: string, name = 'XML/daily.xml') => source.parse({ name, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const quoted = (obs: Observation[], quote: string) => {
  const o = obs.find((x) => x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};

const WEEKLY = ('AED AFN AMD AUD AZN BRL BYN CAD CHF CZK DKK GBP GEL HKD HUF IDR INR IRR JPY KRW KWD MDL MNT MYR NOK NZD OMR ' +
  'PKR PLN SAR SEK SGD TJS TMT TRY TWD UAH UZS XDR').split(' ');

describe('NBKI recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [DAILY_FILE, WEEKLY_FILE]);
  });

  test('daily list of Sunday 24.05.2026: five currencies, decimal commas', () => {
    const obs = parseFile(DAILY_FILE);
    assert.deepEqual(obs, [
      { date: '2026-05-24', quote: 'USD', rate: '87.4500', unit: 1, direction: 'direct', table: 'daily' },
      { date: '2026-05-24', quote: 'EUR', rate: '101.5076', unit: 1, direction: 'direct', table: 'daily' },
      { date: '2026-05-24', quote: 'CNY', rate: '12.8707', unit: 1, direction: 'direct', table: 'daily' },
      { date: '2026-05-24', quote: 'KZT', rate: '0.1859', unit: 1, direction: 'direct', table: 'daily' },
      { date: '2026-05-24', quote: 'RUB', rate: '1.2263', unit: 1, direction: 'direct', table: 'daily' },
    ]);
  });

  test('weekly list of 23.05.2026: 39 currencies with their Nominal, defunct BYR left out', () => {
    const obs = parseFile(WEEKLY_FILE);
    assert.deepEqual(obs.map((o) => o.quote).sort(), WEEKLY);
    assert.ok(obs.every((o) => o.date === '2026-05-23' && o.table === 'weekly' && o.direction === 'direct'));
    assert.equal(quoted(obs, 'BYR'), undefined);
    assert.equal(quoted(obs, 'BYN'), '32.0154/1');
    assert.equal(quoted(obs, 'GBP'), '117.4147/1');
    assert.equal(quoted(obs, 'JPY'), '5.4969/10');
    assert.equal(quoted(obs, 'AMD'), '2.3773/10');
    assert.equal(quoted(obs, 'HUF'), '2.8266/10');
    assert.equal(quoted(obs, 'IDR'), '0.0494/10');
    assert.equal(quoted(obs, 'IRR'), '0.0007/10');
    assert.equal(quoted(obs, 'KWD'), '285.0391/1');
    assert.equal(quoted(obs, 'OMR'), '227.1370/1');
    assert.equal(quoted(obs, 'XDR'), '119.5195/1');
  });

  test('fetches both lists from the base URL and reads what it gets', async () => {
    const server = await startFeedServer({
      '/XML/daily.xml': { body: readFileSync(new URL(DAILY_FILE, DIR)), contentType: 'application/xml' },
      '/XML/weekly.xml': { body: readFileSync(new URL(WEEKLY_FILE, DIR)), contentType: 'application/xml' },
    });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(server.requests.map((r) => r.url), ['/XML/daily.xml', '/XML/weekly.xml']);
      assert.deepEqual(source.parse(payloads[0]!), parseFile(DAILY_FILE));
      assert.deepEqual(source.parse(payloads[1]!), parseFile(WEEKLY_FILE));
    } finally {
      await server.close();
    }
  });
});

describe('NBKI edge cases', () => {
  const currency = (code: string, nominal: string, value: string) => `<Currency ISOCode="${code}">\n<Nominal>${nominal}</Nominal>\n<ValidFor>7</ValidFor>\n<Value>${value}</Value>\n</Currency>\n`;
  const LIST = `<?xml version="1.0" encoding="windows-1251" ?>\n<CurrencyRates Name="Weekly Exchange Rates" Date="30.05.2026">\n${currency('JPY', '10', '5,5000')}${currency('GBP', '1', '117,4100')}</CurrencyRates>\n`;

  test('reads the table from the list Name, the digits and Nominal from each row', () => {
    assert.deepEqual(parse(LIST, 'XML/weekly.xml'), [
      { date: '2026-05-30', quote: 'JPY', rate: '5.5000', unit: 10, direction: 'direct', table: 'weekly' },
      { date: '2026-05-30', quote: 'GBP', rate: '117.4100', unit: 1, direction: 'direct', table: 'weekly' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>Ошибка 404</title></head><body>Страница не найдена</body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    assert.throws(() => parse(LIST.slice(0, LIST.indexOf('<Value>117'))), /not well-formed XML/);
  });

  test('rejects an empty table, an unknown list and bad rows', () => {
    assert.throws(() => parse('<?xml version="1.0" encoding="windows-1251" ?>\n<CurrencyRates Name="Daily Exchange Rates" Date="24.05.2026">\n</CurrencyRates>\n'), /holds no rates/);
    assert.throws(() => parse(LIST.replace('Weekly Exchange Rates', 'Monthly Exchange Rates')), /neither the daily nor the weekly list/);
    assert.throws(() => parse(LIST.replace('<Nominal>10</Nominal>', '<Nominal></Nominal>')), /bad JPY Nominal/);
    assert.throws(() => parse(LIST.replace('5,5000', '5.500,0')), /bad JPY Value/);
    assert.throws(() => parse(LIST.replace('30.05.2026', '2026-05-30')), /bad weekly list Date/);
  });

  test('builds the two latest-list requests on the base URL, whatever the window', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/XML/daily.xml' }, { url: 'http://127.0.0.1:1/XML/weekly.xml' }]);
    for (const r of requests) assert.ok(source.accepts(r.url), r.url);
  });

  test('accepts the two XML lists only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.nbkr.kg/index1.jsp?item=1562&lang=ENG'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
