import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './nbrk.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('NBRK');

const parse = (body: string, name = 'rss/get_rates.cfm?fdate=03.04.2026') => source.parse({ name, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const quoted = (obs: Observation[], date: string, quote: string) => {
  const o = obs.find((x) => x.date === date && x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};
const dates = (obs: Observation[]) => [...new Set(obs.map((o) => o.date))];

const CCY = ('AED AMD AUD AZN BRL BYN CAD CHF CNY CZK DKK EUR GBP GEL HKD HUF INR IRR JPY KGS KRW KWD MDL MXN MYR NOK ' +
  'PLN RUB SAR SEK SGD THB TJS TRY UAH USD UZS XDR ZAR').split(' ');

describe('NBRK recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), ['get_rates-01.04.2026.xml', 'get_rates-02.04.2026.xml']);
  });

  test('01.04.2026: 39 currencies, KZT per quant', () => {
    const obs = parseFile('get_rates-01.04.2026.xml');
    assert.deepEqual(dates(obs), ['2026-04-01']);
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY);
    assert.ok(obs.every((o) => o.direction === 'direct'));
    assert.equal(quoted(obs, '2026-04-01', 'USD'), '478.77/1');
    assert.equal(quoted(obs, '2026-04-01', 'EUR'), '548.62/1');
    assert.equal(quoted(obs, '2026-04-01', 'AUD'), '328.01/1');
    assert.equal(quoted(obs, '2026-04-01', 'AMD'), '12.72/10');
    assert.equal(quoted(obs, '2026-04-01', 'HUF'), '14.23/10');
    assert.equal(quoted(obs, '2026-04-01', 'UZS'), '3.93/100');
    assert.equal(quoted(obs, '2026-04-01', 'KRW'), '31.29/100');
    assert.equal(quoted(obs, '2026-04-01', 'IRR'), '0.4/1000');
    assert.equal(quoted(obs, '2026-04-01', 'XDR'), '650.07/1');
  });

  test('02.04.2026: the NBK drops trailing zeros (126.6) and quotes JPY per 1 as "3"', () => {
    const obs = parseFile('get_rates-02.04.2026.xml');
    assert.deepEqual(dates(obs), ['2026-04-02']);
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY);
    assert.equal(quoted(obs, '2026-04-02', 'USD'), '475.09/1');
    assert.equal(quoted(obs, '2026-04-02', 'EUR'), '551.06/1');
    assert.equal(quoted(obs, '2026-04-02', 'SAR'), '126.6/1');
    assert.equal(quoted(obs, '2026-04-02', 'JPY'), '3/1');
    assert.equal(quoted(obs, '2026-04-02', 'RUB'), '5.87/1');
    assert.equal(quoted(obs, '2026-04-02', 'CNY'), '69.12/1');
    assert.equal(quoted(obs, '2026-04-02', 'KGS'), '5.43/1');
  });

  test('fetches each business day from the base URL and reads what it gets', async () => {
    const body = readFileSync(new URL('get_rates-02.04.2026.xml', DIR));
    const server = await startFeedServer({ '/rss/get_rates.cfm': { body, contentType: 'text/xml; charset=UTF-8' } });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(server.requests.map((r) => r.url), ['02', '03', '04', '05', '06'].map((d) => `/rss/get_rates.cfm?fdate=${d}.03.2026`));
      const expected = parseFile('get_rates-02.04.2026.xml');
      for (const p of payloads) assert.deepEqual(source.parse(p), expected);
    } finally {
      await server.close();
    }
  });
});

describe('NBRK edge cases', () => {
  const item = (code: string, rate: string, quant: string) =>
    `<item><fullname>X</fullname><title>${code}</title><description>${rate}</description><quant>${quant}</quant><index>UP</index><change>+0.10</change></item>`;
  const LIST =
    '<?xml version="1.0" encoding="utf-8"?>\n<rates><generator>Alternate RSS Builder</generator><title>Official exchange rates of National Bank of Republic Kazakhstan</title>' +
    `<link>www.nationalbank.kz</link><copyright>www.nationalbank.kz</copyright><date>03.04.2026</date>${item('USD', '474.50', '1')}${item('IRR', '0.4', '1000')}</rates>`;

  test('reads a list of one date, keeping published digits and quant', () => {
    assert.deepEqual(parse(LIST), [
      { date: '2026-04-03', quote: 'USD', rate: '474.50', unit: 1, direction: 'direct' },
      { date: '2026-04-03', quote: 'IRR', rate: '0.4', unit: 1000, direction: 'direct' },
    ]);
    // A single <item> is still a list.
    assert.equal(parse(LIST.replace(item('IRR', '0.4', '1000'), '')).length, 1);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>Error</title></head><body><p>Page not found</p></body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    assert.throws(() => parse(LIST.slice(0, LIST.indexOf('<title>IRR') + 12)), /not well-formed XML/);
  });

  test('rejects an empty table and bad rows', () => {
    assert.throws(() => parse(LIST.replace(/<item>.*<\/item>/, '')), /holds no rates/);
    assert.throws(() => parse(LIST.replace('<quant>1000</quant>', '<quant></quant>')), /bad IRR quant/);
    assert.throws(() => parse(LIST.replace('474.50', '474,50,1')), /bad USD rate/);
    assert.throws(() => parse(LIST.replace('<date>03.04.2026</date>', '')), /bad date/);
  });

  test('builds one get_rates request per business day on the base URL', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, ['02', '03', '04', '05', '06'].map((d) => ({ url: `http://127.0.0.1:1/rss/get_rates.cfm?fdate=${d}.03.2026` })));
    for (const r of requests) assert.ok(source.accepts(r.url), r.url);
    // Saturday 07.03 and Sunday 08.03 have no rates of their own.
    assert.deepEqual(source.requests({ from: '2026-03-06', to: '2026-03-09' }, { base: 'http://x' }).map((r) => r.url.slice(-10)), ['06.03.2026', '09.03.2026']);
  });

  test('accepts get_rates only', () => {
    assert.ok(source.accepts('https://nationalbank.kz/rss/get_rates.cfm?fdate=01.04.2026'));
    assert.ok(!source.accepts('https://nationalbank.kz/rss/rates_all.xml'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
