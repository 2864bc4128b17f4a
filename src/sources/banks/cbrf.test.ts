import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './cbrf.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('CBRF');

const parse = (body: string, name = 'XML_daily.asp') => source.parse({ name, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
/** "rate/unit" of one currency on one date, so one assertion covers both. */
const quoted = (obs: Observation[], date: string, quote: string) => {
  const o = obs.find((x) => x.date === date && x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};
const dates = (obs: Observation[]) => [...new Set(obs.map((o) => o.date))];

const CCY_2026 = ('AED AMD AUD AZN BDT BHD BOB BRL BYN CAD CHF CNY CUP CZK DKK DZD EGP ETB EUR GBP GEL HKD HUF IDR INR ' +
  'IRR JPY KGS KRW KZT MDL MMK MNT NGN NOK NZD OMR PLN QAR RON RSD SAR SEK SGD THB TJS TMT TRY UAH USD UZS VND XDR ZAR').split(' ');

describe('CBRF recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [
      'XML_daily-2026-04-25.xml',
      'XML_daily-date_req-17.03.2026.xml',
      'XML_dynamic-R01235-USD-2026-03-01_2026-03-05.xml',
    ]);
  });

  test('latest XML_daily: 54 currencies effective Saturday 25.04.2026, RUB per Nominal', () => {
    const obs = parseFile('XML_daily-2026-04-25.xml');
    assert.deepEqual(dates(obs), ['2026-04-25']);
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY_2026);
    assert.ok(obs.every((o) => o.direction === 'direct'));
    assert.equal(quoted(obs, '2026-04-25', 'USD'), '75.5273/1');
    assert.equal(quoted(obs, '2026-04-25', 'EUR'), '88.2826/1');
    // Text keeps the published trailing zero (VunitRate writes 26,796).
    assert.equal(quoted(obs, '2026-04-25', 'BYN'), '26.7960/1');
    assert.equal(quoted(obs, '2026-04-25', 'CNY'), '11.0270/1');
    assert.equal(quoted(obs, '2026-04-25', 'DZD'), '57.0006/100');
    assert.equal(quoted(obs, '2026-04-25', 'JPY'), '47.2636/100');
    assert.equal(quoted(obs, '2026-04-25', 'KRW'), '51.0113/1000');
    assert.equal(quoted(obs, '2026-04-25', 'VND'), '30.0750/10000');
    assert.equal(quoted(obs, '2026-04-25', 'IRR'), '53.9256/1000000');
  });

  test('XML_daily for date_req=17/03/2026', () => {
    const obs = parseFile('XML_daily-date_req-17.03.2026.xml');
    assert.deepEqual(dates(obs), ['2026-03-17']);
    assert.equal(obs.length, 54);
    assert.equal(quoted(obs, '2026-03-17', 'USD'), '81.0517/1');
    assert.equal(quoted(obs, '2026-03-17', 'EUR'), '92.6555/1');
    assert.equal(quoted(obs, '2026-03-17', 'XDR'), '110.0642/1');
    assert.equal(quoted(obs, '2026-03-17', 'UZS'), '67.0335/10000');
    assert.equal(quoted(obs, '2026-03-17', 'MMK'), '38.5960/1000');
    assert.equal(quoted(obs, '2026-03-17', 'AUD'), '56.7929/1');
  });

  test('XML_dynamic names USD only by its id R01235', () => {
    const obs = parseFile('XML_dynamic-R01235-USD-2026-03-01_2026-03-05.xml');
    // 01.03 (Sunday) and 02.03 (Monday) run on the rate effective from Saturday 28.02: no records.
    assert.deepEqual(obs, [
      { date: '2026-03-03', quote: 'USD', rate: '77.1734', unit: 1, direction: 'direct' },
      { date: '2026-03-04', quote: 'USD', rate: '77.6093', unit: 1, direction: 'direct' },
      { date: '2026-03-05', quote: 'USD', rate: '77.8009', unit: 1, direction: 'direct' },
    ]);
  });

  test('fetches the window from the base URL and reads what it gets', async () => {
    const body = readFileSync(new URL('XML_daily-date_req-17.03.2026.xml', DIR));
    const server = await startFeedServer({ '/scripts/XML_daily.asp': { body, contentType: 'application/xml; charset=windows-1251' } });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(server.requests.map((r) => r.url), ['02', '03', '04', '05', '06'].map((d) => `/scripts/XML_daily.asp?date_req=${d}/03/2026`));
      const expected = parseFile('XML_daily-date_req-17.03.2026.xml');
      assert.equal(payloads.length, 5);
      for (const p of payloads) assert.deepEqual(source.parse(p), expected);
    } finally {
      await server.close();
    }
  });
});

describe('CBRF edge cases', () => {
  const DAILY =
    '<?xml version="1.0" encoding="windows-1251"?><ValCurs Date="07.03.2026" name="Foreign Currency Market">' +
    '<Valute ID="R01235"><NumCode>840</NumCode><CharCode>USD</CharCode><Nominal>1</Nominal><Name>US Dollar</Name><Value>79,6200</Value><VunitRate>79,62</VunitRate></Valute>' +
    '<Valute ID="R01820"><NumCode>392</NumCode><CharCode>JPY</CharCode><Nominal>100</Nominal><Name>Yen</Name><Value>53,1007</Value><VunitRate>0,531007</VunitRate></Valute>' +
    '</ValCurs>';

  test('reads Value per Nominal, never VunitRate', () => {
    assert.deepEqual(parse(DAILY), [
      { date: '2026-03-07', quote: 'USD', rate: '79.6200', unit: 1, direction: 'direct' },
      { date: '2026-03-07', quote: 'JPY', rate: '53.1007', unit: 100, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    const html = '<!DOCTYPE html><html><head><title>Access denied</title></head><body><h1>403 Forbidden</h1></body></html>';
    assert.throws(() => parse(html), ParseError);
  });

  test('rejects a truncated payload', () => {
    assert.throws(() => parse(DAILY.slice(0, DAILY.indexOf('<Valute ID="R01820"') + 40)), /not well-formed XML/);
  });

  test('rejects an empty table and the service error answer', () => {
    const empty = '<?xml version="1.0" encoding="windows-1251"?><ValCurs Date="07.03.2026" name="Foreign Currency Market"></ValCurs>';
    assert.throws(() => parse(empty), /holds no rates/);
    assert.throws(() => parse('<?xml version="1.0" encoding="windows-1251"?><ValCurs>Error in parameters</ValCurs>'), /no ValCurs element/);
  });

  test('rejects bad rows and unknown dynamic ids', () => {
    assert.throws(() => parse(DAILY.replace('<Nominal>100</Nominal>', '<Nominal>0</Nominal>')), /bad JPY Nominal/);
    assert.throws(() => parse(DAILY.replace('53,1007', '53,1,007')), /bad JPY Value/);
    assert.throws(() => parse(DAILY.replace('07.03.2026', '2026-03-07')), /bad date/);
    const dynamic = '<?xml version="1.0" encoding="windows-1251"?><ValCurs ID="R09999" DateRange1="01.03.2026" DateRange2="05.03.2026" name="Foreign Currency Market Dynamic"></ValCurs>';
    assert.throws(() => parse(dynamic, 'XML_dynamic.asp'), /unknown CBR currency id "R09999"/);
  });

  test('builds one XML_daily request per calendar day on the base URL', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, ['02', '03', '04', '05', '06'].map((d) => ({ url: `http://127.0.0.1:1/scripts/XML_daily.asp?date_req=${d}/03/2026` })));
    for (const r of requests) assert.ok(source.accepts(r.url), r.url);
    assert.equal(source.requests({ from: '2026-02-28', to: '2026-03-01' }, { base: 'http://x' }).length, 2);
  });

  test('accepts the XML service only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://www.cbr.ru/scripts/XML_daily_eng.asp'));
    assert.ok(source.accepts('https://www.cbr.ru/scripts/XML_dynamic.asp?date_req1=01/03/2026&date_req2=05/03/2026&VAL_NM_RQ=R01235'));
    assert.ok(!source.accepts('https://www.cbr.ru/scripts/xml_metall.asp'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
