import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './nbmd.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('NBMD');

const parse = (body: string, name = 'en/official_exchange_rates?get_xml=1&date=08.04.2026') => source.parse({ name, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const quoted = (obs: Observation[], date: string, quote: string) => {
  const o = obs.find((x) => x.date === date && x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};
const dates = (obs: Observation[]) => [...new Set(obs.map((o) => o.date))];

const CCY = ('AED ALL AMD AUD AZN BYN CAD CHF CNY CZK DKK EUR GBP GEL HKD HUF ILS INR ISK JPY KGS KRW KWD KZT MKD MYR ' +
  'NOK NZD PLN RON RSD RUB SEK TJS TMT TRY UAH USD UZS XDR').split(' ');

describe('NBMD recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), ['official_exchange_rates-06.04.2026.xml', 'official_exchange_rates-07.04.2026.xml']);
  });

  test('06.04.2026: 40 currencies, MDL per Nominal', () => {
    const obs = parseFile('official_exchange_rates-06.04.2026.xml');
    assert.deepEqual(dates(obs), ['2026-04-06']);
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY);
    assert.ok(obs.every((o) => o.direction === 'direct'));
    assert.equal(quoted(obs, '2026-04-06', 'EUR'), '20.2754/1');
    assert.equal(quoted(obs, '2026-04-06', 'USD'), '17.6124/1');
    assert.equal(quoted(obs, '2026-04-06', 'RUB'), '0.2197/1');
    assert.equal(quoted(obs, '2026-04-06', 'BYN'), '5.9820/1');
    assert.equal(quoted(obs, '2026-04-06', 'ALL'), '2.1172/10');
    assert.equal(quoted(obs, '2026-04-06', 'HUF'), '5.2807/100');
    assert.equal(quoted(obs, '2026-04-06', 'JPY'), '11.0318/100');
    assert.equal(quoted(obs, '2026-04-06', 'UZS'), '0.1442/100');
    assert.equal(quoted(obs, '2026-04-06', 'XDR'), '23.9652/1');
  });

  test('07.04.2026: same list, the next day', () => {
    const obs = parseFile('official_exchange_rates-07.04.2026.xml');
    assert.deepEqual(dates(obs), ['2026-04-07']);
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY);
    assert.equal(quoted(obs, '2026-04-07', 'EUR'), '20.2457/1');
    assert.equal(quoted(obs, '2026-04-07', 'USD'), '17.5303/1');
    assert.equal(quoted(obs, '2026-04-07', 'CAD'), '12.5900/1');
    assert.equal(quoted(obs, '2026-04-07', 'KZT'), '0.3766/10');
    assert.equal(quoted(obs, '2026-04-07', 'RSD'), '17.2443/100');
    assert.equal(quoted(obs, '2026-04-07', 'KWD'), '56.6551/1');
  });

  test('fetches each day from the base URL and reads what it gets', async () => {
    const body = readFileSync(new URL('official_exchange_rates-07.04.2026.xml', DIR));
    const server = await startFeedServer({ '/en/official_exchange_rates': { body, contentType: 'text/xml; charset=utf-8' } });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(server.requests.map((r) => r.url), ['02', '03', '04', '05', '06'].map((d) => `/en/official_exchange_rates?get_xml=1&date=${d}.03.2026`));
      const expected = parseFile('official_exchange_rates-07.04.2026.xml');
      for (const p of payloads) assert.deepEqual(source.parse(p), expected);
    } finally {
      await server.close();
    }
  });
});

describe('NBMD edge cases', () => {
  const valute = (id: string, code: string, nominal: string, value: string) =>
    `  <Valute ID="${id}">\n    <NumCode>000</NumCode>\n    <CharCode>${code}</CharCode>\n    <Nominal>${nominal}</Nominal>\n    <Name>X</Name>\n    <Value>${value}</Value>\n  </Valute>\n`;
  const LIST = `<?xml version="1.0" encoding="UTF-8"?>\n<ValCurs Date="08.04.2026" name="Official exchange rate">\n${valute('47', 'EUR', '1', '20.2500')}${valute('18', 'JPY', '100', '10.9900')}</ValCurs>\n`;

  test('reads Value per Nominal with the published digits', () => {
    assert.deepEqual(parse(LIST), [
      { date: '2026-04-08', quote: 'EUR', rate: '20.2500', unit: 1, direction: 'direct' },
      { date: '2026-04-08', quote: 'JPY', rate: '10.9900', unit: 100, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html>\n<html lang="en"><head><title>Page not found | BNM</title></head><body></body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    assert.throws(() => parse(LIST.slice(0, LIST.indexOf('<Name>X</Name>\n    <Value>10.99'))), /not well-formed XML/);
  });

  test('rejects an empty table and bad rows', () => {
    assert.throws(() => parse('<?xml version="1.0" encoding="UTF-8"?>\n<ValCurs Date="08.04.2026" name="Official exchange rate">\n</ValCurs>\n'), /holds no rates/);
    assert.throws(() => parse(LIST.replace('<Nominal>100</Nominal>', '<Nominal>1e2</Nominal>')), /bad JPY Nominal/);
    assert.throws(() => parse(LIST.replace('10.9900', '')), /bad JPY Value/);
    assert.throws(() => parse(LIST.replace('08.04.2026', '8.4.2026')), /bad ValCurs Date/);
  });

  test('builds one request per calendar day on the base URL', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, ['02', '03', '04', '05', '06'].map((d) => ({ url: `http://127.0.0.1:1/en/official_exchange_rates?get_xml=1&date=${d}.03.2026` })));
    for (const r of requests) assert.ok(source.accepts(r.url), r.url);
  });

  test('accepts the XML form of the page only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://www.bnm.md/en/official_exchange_rates?date=06.04.2026&get_xml=1'));
    assert.ok(!source.accepts('https://www.bnm.md/en/official_exchange_rates?date=06.04.2026'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
