// Grade A (SOURCES-2.md): a complete VCR recording of one business week.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './mfam.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('MFAM');
const FILE = 'amcm-financial_info-QueryType1-2026-05-18_2026-05-22.json';

const parse = (body: string) => source.parse({ name: 'financial_info?Begin=20260518&End=20260522&QueryType=1', body: Buffer.from(body) }) as Observation[];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
/** One day's list as {quote: "rate/unit"}. */
const day = (obs: Observation[], date: string) => Object.fromEntries(obs.filter((o) => o.date === date).map((o) => [o.quote, `${o.rate}/${o.unit}`]));

const CURRENCIES = 'AUD CAD CHF CNY DKK EUR GBP HKD JPY KRW MYR NOK NZD SEK SGD TWD USD'.split(' ');

describe('MFAM recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('18–22 May 2026: five days of 17 currencies, LIQ left out', () => {
    const obs = parseFile(FILE);
    const dates = [...new Set(obs.map((o) => o.date))];
    assert.deepEqual(dates, ['2026-05-22', '2026-05-21', '2026-05-20', '2026-05-19', '2026-05-18']);
    for (const date of dates) assert.deepEqual(obs.filter((o) => o.date === date).map((o) => o.quote).sort(), CURRENCIES);
    assert.ok(obs.every((o) => o.direction === 'direct'));
    assert.deepEqual(obs.filter((o) => o.unit !== 1).map((o) => o.quote), ['JPY', 'KRW', 'JPY', 'KRW', 'JPY', 'KRW', 'JPY', 'KRW', 'JPY', 'KRW']);
    const may22 = day(obs, '2026-05-22');
    assert.equal(may22.AUD, '5.7635/1');
    // usdMean is text, so its trailing zeros survive (usdMeanValue has 10.835).
    assert.equal(may22.GBP, '10.8350/1');
    assert.equal(may22.HKD, '1.0300/1');
    assert.equal(may22.USD, '8.0705/1');
    assert.equal(may22.JPY, '5.0727/100');
    assert.equal(may22.KRW, '0.5400/100');
    assert.equal(day(obs, '2026-05-20').KRW, '0.5300/100');
    const { USD, EUR, TWD, CNY } = day(obs, '2026-05-18');
    assert.deepEqual({ USD, EUR, TWD, CNY }, { USD: '8.0643/1', EUR: '9.3647/1', TWD: '0.2555/1', CNY: '1.1831/1' });
  });

  test('requests the window in calls of at most 90 days and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/financial_info?Begin=20260302&End=20260306&QueryType=1' }]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);
    assert.deepEqual(
      source.requests({ from: '2026-01-01', to: '2026-06-30' }, { base: source.baseUrl }).map((r) => r.url),
      [
        'https://www.amcm.gov.mo/api/v1.0/cms/financial_info?Begin=20260101&End=20260331&QueryType=1',
        'https://www.amcm.gov.mo/api/v1.0/cms/financial_info?Begin=20260401&End=20260629&QueryType=1',
        'https://www.amcm.gov.mo/api/v1.0/cms/financial_info?Begin=20260630&End=20260630&QueryType=1',
      ],
    );

    const path = '/financial_info?Begin=20260302&End=20260306&QueryType=1';
    const server = await startFeedServer({ [path]: { body: readFileSync(new URL(FILE, DIR)), contentType: 'application/json' } });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p) as Observation[]), parseFile(FILE));
      assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url}`), [`GET ${path}`]);
    } finally {
      await server.close();
    }
  });
});

describe('MFAM edge cases', () => {
  const ROW = (currency: string, unit: string, mean: string) =>
    `{"id":1,"date":"1998-12-31 00:00:00","currency":"${currency}","unit":${unit},"usdMean":"${mean}","usdMeanValue":${mean},"bid":"1.1"}`;
  const ANSWER = (rows: string[]) => `{"message":"OK","data":[${rows.join(',')}],"code":0,"type":"Success"}`;

  test('writes the ECU rows of 1987–1998 as XEU', () => {
    assert.deepEqual(parse(ANSWER([ROW('ECU', '1.0', '9.3910')])), [{ date: '1998-12-31', quote: 'XEU', rate: '9.3910', unit: 1, direction: 'direct' }]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>'), /is not JSON/);
  });

  test('rejects a truncated answer', () => {
    const full = ANSWER([ROW('USD', '1.0', '8.0705'), ROW('EUR', '1.0', '9.3731')]);
    assert.throws(() => parse(full.slice(0, full.indexOf('"EUR"'))), /is not JSON/);
  });

  test('an empty week is no publication; an error answer or a list of LIQ only is rejected', () => {
    assert.throws(() => parse(ANSWER([])), NoPublication);
    assert.throws(() => parse('{"message":"Begin is required","data":null,"code":400,"type":"Error"}'), /not a successful answer/);
    assert.throws(() => parse(ANSWER([ROW('LIQ', '0.0', '0.0000')])), /holds no currency rates/);
    assert.throws(() => parse(ANSWER([ROW('JPY', '0.0', '5.0727')])), /JPY on 1998-12-31: bad unit/);
    assert.throws(() => parse(ANSWER([ROW('USD', '1.0', '8.0705').replace('1998-12-31 00:00:00', '31/12/1998')])), ParseError);
  });

  test('accepts the QueryType=1 answers only', () => {
    assert.ok(source.accepts('https://www.amcm.gov.mo/api/v1.0/cms/financial_info?Begin=20260518&End=20260522&QueryType=1'));
    assert.ok(!source.accepts('https://www.amcm.gov.mo/api/v1.0/cms/financial_info?Begin=20260518&End=20260522&QueryType=2'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
