import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './bojp.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BOJP');
const FILE = 'getDataCode-FM08-FXERD04-FXERD34-202603.json';

const parse = (body: string) => source.parse({ name: 'api/v1/getDataCode?format=json&lang=en&db=FM08&code=FXERD04', body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], date: string) => obs.find((o) => o.date === date)?.rate;

describe('BOJP recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('March 2026: 19 Tokyo fixings of yen per dollar; the euro/dollar cross is skipped', () => {
    const obs = parseFile(FILE);
    assert.equal(obs.length, 19);
    assert.ok(obs.every((o) => o.quote === 'USD' && o.unit === 1 && o.direction === 'direct'));
    assert.equal(obs[0]!.date, '2026-03-02');
    assert.equal(obs.at(-1)!.date, '2026-03-27');
    assert.equal(rate(obs, '2026-03-02'), '156.99');
    assert.equal(rate(obs, '2026-03-03'), '157.42');
    assert.equal(rate(obs, '2026-03-09'), '158.46');
    assert.equal(rate(obs, '2026-03-12'), '158.8');
    assert.equal(rate(obs, '2026-03-27'), '159.95');
    // Weekend, the 20 March holiday and the days not yet filled in are null in the payload.
    for (const date of ['2026-03-01', '2026-03-07', '2026-03-20', '2026-03-31']) assert.equal(rate(obs, date), undefined, date);
    // 1.1716 is FXERD34 (dollars per euro) on 2 March: it must not surface as anything.
    assert.ok(!obs.some((o) => o.rate === '1.1716'));
  });
});

describe('BOJP edge cases', () => {
  const doc = (values: string, code = 'FXERD04', extra = '"NEXTPOSITION":null') =>
    `{"STATUS":200,"MESSAGEID":"M181000I","MESSAGE":"Successfully completed","DATE":"2026-04-01T04:23:52.923+09:00","PARAMETER":{"FORMAT":"JSON","LANG":"EN","DB":"FM08","STARTDATE":"202603","ENDDATE":"202603","STARTPOSITION":""},${extra},"RESULTSET":[{"SERIES_CODE":"${code}","NAME_OF_TIME_SERIES":"US.Dollar/Yen Spot Rate at 17:00 in JST, Tokyo Market","UNIT":"Yen per U.S. Dollar","FREQUENCY":"DAILY","CATEGORY":"Foreign Exchange Rates","LAST_UPDATE":20260331,"VALUES":${values}}]}`;

  test('reads dates and skips nulls', () => {
    assert.deepEqual(parse(doc('{"SURVEY_DATES":[20260301,20260302],"VALUES":[null,156.99]}')), [
      { date: '2026-03-02', quote: 'USD', rate: '156.99', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page and an API error', () => {
    assert.throws(() => parse('<html><head><title>503 Service Temporarily Unavailable</title></head><body></body></html>'), ParseError);
    const error = '{"STATUS":400,"MESSAGEID":"M181005E","MESSAGE":"Invalid DB name.","DATE":"2026-04-01T04:23:52.923+09:00"}';
    assert.throws(() => parse(error), /status 400 Invalid DB name/);
  });

  test('rejects a truncated payload and an incomplete one', () => {
    const full = doc('{"SURVEY_DATES":[20260302],"VALUES":[156.99]}');
    assert.throws(() => parse(full.slice(0, full.length / 2)), /not JSON/);
    assert.throws(() => parse(doc('{"SURVEY_DATES":[20260302],"VALUES":[156.99]}', 'FXERD04', '"NEXTPOSITION":250')), /incomplete/);
  });

  test('rejects an empty table, a series of nulls and unknown series', () => {
    assert.throws(() => parse(doc('{"SURVEY_DATES":[],"VALUES":[]}')), /holds no rates/);
    assert.throws(() => parse(doc('{"SURVEY_DATES":[20260330,20260331],"VALUES":[null,null]}')), /holds no rates/);
    assert.throws(() => parse(doc('{"SURVEY_DATES":[20260302],"VALUES":[156.99]}', 'FXERD01')), /unexpected series FXERD01/);
    assert.throws(() => parse(doc('{"SURVEY_DATES":[20260302,20260303],"VALUES":[156.99]}')), /no matching/);
  });

  test('days listed with null only are no publication; no days at all is a fault', () => {
    assert.throws(() => parse(doc('{"SURVEY_DATES":[20260301],"VALUES":[null]}')), NoPublication);
    assert.throws(() => parse(doc('{"SURVEY_DATES":[],"VALUES":[]}')), (err) => err instanceof ParseError && !(err instanceof NoPublication));
  });

  test('accepts the FM08 data-code feed only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.stat-search.boj.or.jp/api/v1/getDataCode?format=json&db=PR01&code=PRCG20_2200000000'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('BOJP requests', () => {
  test('one GET per calendar year with months as bounds', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/api/v1/getDataCode?format=json&lang=en&db=FM08&code=FXERD04&startDate=202603&endDate=202603' }]);
    assert.ok(requests.every((r) => source.accepts(r.name ?? r.url)));
    const span = source.requests({ from: '2024-11-15', to: '2026-02-01' }, { base: 'http://h' }).map((r) => r.url.split('&').slice(-2).join('&'));
    assert.deepEqual(span, ['startDate=202411&endDate=202412', 'startDate=202501&endDate=202512', 'startDate=202601&endDate=202602']);
  });

  test('round trip through the local feed server', async () => {
    const body = readFileSync(new URL(FILE, DIR));
    const server = await startFeedServer({ '/api/v1/getDataCode': { body, contentType: 'application/json; charset=utf-8' } });
    try {
      const window = { from: '2026-03-02', to: '2026-03-06' };
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 1);
      assert.equal(server.requests[0]!.url, '/api/v1/getDataCode?format=json&lang=en&db=FM08&code=FXERD04&startDate=202603&endDate=202603');
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILE));
    } finally {
      await server.close();
    }
  });
});
