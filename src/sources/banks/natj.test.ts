import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './natj.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('NATJ');

const parse = (body: string, name = 'en/kurs/export_xml.php?date=2026-05-20&export=xmlout') => source.parse({ name, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const quoted = (obs: Observation[], date: string, quote: string) => {
  const o = obs.find((x) => x.date === date && x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};
const dates = (obs: Observation[]) => [...new Set(obs.map((o) => o.date))];

const CCY = ('AED AFN AMD AUD AZN BYN CAD CHF CNY DKK EUR GBP GEL INR IRR ISK JPY KGS KRW KWD KZT MDL MYR NOK PKR PLN ' +
  'RUB SAR SEK SGD THB TMT TRY UAH USD UZS').split(' ');

describe('NATJ recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), ['export_xml-2026-05-18.xml', 'export_xml-2026-05-19.xml']);
  });

  test('2026-05-18: 36 currencies, TJS per Nominal', () => {
    const obs = parseFile('export_xml-2026-05-18.xml');
    assert.deepEqual(dates(obs), ['2026-05-18']);
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY);
    assert.ok(obs.every((o) => o.direction === 'direct'));
    assert.equal(quoted(obs, '2026-05-18', 'USD'), '9.3450/1');
    assert.equal(quoted(obs, '2026-05-18', 'EUR'), '10.8757/1');
    assert.equal(quoted(obs, '2026-05-18', 'RUB'), '0.1277/1');
    assert.equal(quoted(obs, '2026-05-18', 'UZS'), '0.0780/100');
    assert.equal(quoted(obs, '2026-05-18', 'KGS'), '1.0686/10');
    assert.equal(quoted(obs, '2026-05-18', 'IRR'), '0.0071/1000');
    assert.equal(quoted(obs, '2026-05-18', 'JPY'), '0.5894/10');
    assert.equal(quoted(obs, '2026-05-18', 'AMD'), '2.5340/100');
  });

  test('2026-05-19', () => {
    const obs = parseFile('export_xml-2026-05-19.xml');
    assert.deepEqual(dates(obs), ['2026-05-19']);
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY);
    assert.equal(quoted(obs, '2026-05-19', 'USD'), '9.3371/1');
    assert.equal(quoted(obs, '2026-05-19', 'EUR'), '10.8600/1');
    assert.equal(quoted(obs, '2026-05-19', 'CNY'), '1.3721/1');
    assert.equal(quoted(obs, '2026-05-19', 'KRW'), '0.6217/100');
    assert.equal(quoted(obs, '2026-05-19', 'KWD'), '30.4289/1');
    assert.equal(quoted(obs, '2026-05-19', 'PKR'), '0.3351/10');
  });

  test('fetches each day from the base URL and reads what it gets', async () => {
    const body = readFileSync(new URL('export_xml-2026-05-19.xml', DIR));
    const server = await startFeedServer({ '/en/kurs/export_xml.php': { body, contentType: 'text/xml;charset=UTF-8' } });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(server.requests.map((r) => r.url), ['02', '03', '04', '05', '06'].map((d) => `/en/kurs/export_xml.php?date=2026-03-${d}&export=xmlout`));
      const expected = parseFile('export_xml-2026-05-19.xml');
      for (const p of payloads) assert.deepEqual(source.parse(p), expected);
    } finally {
      await server.close();
    }
  });
});

describe('NATJ edge cases', () => {
  const valute = (id: string, code: string, nominal: string, value: string) =>
    `<Valute ID="${id}">\n   <CharCode>${code}</CharCode>\n   <Nominal>${nominal}</Nominal>\n   <Name>X</Name>\n   <Value>${value}</Value>\n</Valute>\n`;
  const LIST = `<?xml version="1.0" encoding="utf-8" ?>\n<ValCurs Date="2026-05-20" name="Foreign Currency Market">\n${valute('840', 'USD', '1', '9.3300')}${valute('392', 'JPY', '10', '0.5870')}</ValCurs>\n`;

  test('reads Value per Nominal with the published digits', () => {
    assert.deepEqual(parse(LIST), [
      { date: '2026-05-20', quote: 'USD', rate: '9.3300', unit: 1, direction: 'direct' },
      { date: '2026-05-20', quote: 'JPY', rate: '0.5870', unit: 10, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    assert.throws(() => parse(LIST.slice(0, LIST.indexOf('<CharCode>JPY'))), /not well-formed XML/);
  });

  test('rejects an empty table and bad rows', () => {
    assert.throws(() => parse('<?xml version="1.0" encoding="utf-8" ?>\n<ValCurs Date="2026-05-20" name="Foreign Currency Market">\n</ValCurs>\n'), /holds no rates/);
    assert.throws(() => parse(LIST.replace('<Nominal>10</Nominal>', '<Nominal>-10</Nominal>')), /bad JPY Nominal/);
    assert.throws(() => parse(LIST.replace('0.5870', 'n/a')), /bad JPY Value/);
    assert.throws(() => parse(LIST.replace('2026-05-20', '20.05.2026')), /bad ValCurs Date/);
  });

  test('builds one request per calendar day on the base URL', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, ['02', '03', '04', '05', '06'].map((d) => ({ url: `http://127.0.0.1:1/en/kurs/export_xml.php?date=2026-03-${d}&export=xmlout` })));
    for (const r of requests) assert.ok(source.accepts(r.url), r.url);
  });

  test('accepts the XML export only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.nbt.tj/en/kurs/kurs.php'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
