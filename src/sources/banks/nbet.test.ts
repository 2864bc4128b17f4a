import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './nbet.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('NBET');

const parse = (body: string) => source.parse({ name: 'https://api.nbe.gov.et/api/filter-exchange-rates?date=2026-05-20', body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], quote: string) => obs.find((o) => o.quote === quote)?.rate;

const CCY = 'AED AUD CAD CHF CNY DJF DKK EUR GBP INR JPY KES KWD NOK SAR SEK USD XDR ZAR'.split(' ');

describe('NBET recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), ['filter-exchange-rates-2026-05-18.json', 'filter-exchange-rates-2026-05-19.json']);
  });

  test('18 May 2026: 19 currencies, the weighted average in birr per unit', () => {
    const obs = parseFile('filter-exchange-rates-2026-05-18.json');
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY);
    assert.ok(obs.every((o) => o.date === '2026-05-18' && o.unit === 1 && o.direction === 'direct'));
    // USD's weighted average is its buying rate (157.227); the selling rate 158.7993 is not read.
    assert.equal(rate(obs, 'USD'), '157.227');
    assert.equal(rate(obs, 'EUR'), '183.7377');
    assert.equal(rate(obs, 'GBP'), '211.0424');
    assert.equal(rate(obs, 'JPY'), '0.9965');
    assert.equal(rate(obs, 'XDR'), '216.8414');
    assert.equal(rate(obs, 'ZAR'), '9.487');
    assert.equal(rate(obs, 'DJF'), '0.8938');
  });

  test('19 May 2026', () => {
    const obs = parseFile('filter-exchange-rates-2026-05-19.json');
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY);
    assert.ok(obs.every((o) => o.date === '2026-05-19' && o.unit === 1 && o.direction === 'direct'));
    assert.equal(rate(obs, 'USD'), '157.2694');
    assert.equal(rate(obs, 'EUR'), '183.8031');
    assert.equal(rate(obs, 'KES'), '1.2308');
    assert.equal(rate(obs, 'DJF'), '0.894');
    assert.equal(rate(obs, 'ZAR'), '9.4679');
  });

  test('requests one weekday at a time and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    const days = ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06'];
    assert.deepEqual(requests, days.map((d) => ({ url: `http://127.0.0.1:1/filter-exchange-rates?date=${d}` })));
    assert.deepEqual(
      source.requests({ from: '2026-03-07', to: '2026-03-09' }, { base: source.baseUrl }).map((r) => r.url),
      ['https://api.nbe.gov.et/api/filter-exchange-rates?date=2026-03-09'],
    );
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const recorded = ['filter-exchange-rates-2026-05-18.json', 'filter-exchange-rates-2026-05-19.json'];
    const server = await startFeedServer((path) => {
      const day = /^\/filter-exchange-rates\?date=2026-03-0(\d)$/.exec(path)?.[1];
      return day === undefined ? undefined : { body: readFileSync(new URL(recorded[Number(day) % 2]!, DIR)), contentType: 'application/json' };
    });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p)), days.flatMap((d) => parseFile(recorded[Number(d.at(-1)) % 2]!)));
      assert.equal(server.requests.length, 5);
    } finally {
      await server.close();
    }
  });
});

describe('NBET edge cases', () => {
  const row = (code: string, average: string, date = '2026-05-20') =>
    `{"id":"x","currency_id":"y","buying":"1","selling":"2","date":"${date}","weighted_average":${average},"currency":{"id":"y","name":"NAME","code":"${code}"}}`;
  const answer = (...rows: string[]) => `{"success":true,"message":"OK","status":200,"data":[${rows.join(',')}]}`;

  test('keeps the published digits of the weighted average', () => {
    assert.deepEqual(parse(answer(row('USD', '"157.2700"'))), [{ date: '2026-05-20', quote: 'USD', rate: '157.2700', unit: 1, direction: 'direct' }]);
  });

  test('rejects an HTML error page and an API failure', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>'), ParseError);
    assert.throws(() => parse('{"success":false,"message":"The date field must be a valid date.","status":422,"data":null}'), /reports failure/);
  });

  test('rejects a truncated payload', () => {
    const full = answer(row('USD', '"157.227"'), row('EUR', '"183.7377"'));
    assert.throws(() => parse(full.slice(0, full.length - 30)), /not JSON/);
  });

  test('rejects an empty table and bad rows', () => {
    assert.throws(() => parse(answer()), /holds no rates/);
    assert.throws(() => parse(answer(row('USD', 'null'))), /no USD weighted average/);
    assert.throws(() => parse(answer(row('USD', '"157,2x"'))), /bad USD weighted average/);
    assert.throws(() => parse(answer(row('US DOLLAR', '"157.227"'))), /bad currency/);
    assert.throws(() => parse(answer(row('USD', '"157.227"', '20/05/2026'))), /bad date/);
  });

  test('an empty successful answer (a weekday holiday) is no publication; a failure answer is a fault', () => {
    assert.throws(() => parse(answer()), NoPublication);
    const failure = '{"success":false,"message":"The date field must be a valid date.","status":422,"data":null}';
    assert.throws(() => parse(failure), (err) => err instanceof ParseError && !(err instanceof NoPublication));
  });

  test('accepts the filter-exchange-rates feed only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts(`${source.baseUrl}/filter-exchange-rates?date=2026-05-20`));
    assert.ok(!source.accepts(`${source.baseUrl}/exchange-rates`));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
