// CBCT payloads are grade A (SOURCES-2.md): a complete recording.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './cbct.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('CBCT');
const FILE = 'cbc-DataAPI-BP01D01-2026-03-30.json';

const parse = (body: string) => source.parse({ name: 'Get?FileName=BP01D01', body: Buffer.from(body) }) as Observation[];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const find = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote);
const shown = (o: Observation | undefined) => o && `${o.rate} ${o.direction}`;

describe('CBCT recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('the whole history: 8,241 days from 1993-01-05 to 2026-02-26, "-" cells left out', () => {
    const obs = parseFile(FILE);
    const days = [...new Set(obs.map((o) => o.date))];
    assert.equal(days.length, 8241);
    assert.equal(days[0], '1993-01-05');
    assert.equal(days.at(-1), '2026-02-26');
    // 8,241 rows of 18 columns, less the 24,438 "-" cells of the recording.
    assert.equal(obs.length, 8241 * 18 - 24438);
    assert.ok(obs.every((o) => o.unit === 1));
    assert.deepEqual(
      obs.filter((o) => o.date === '2026-02-26').map((o) => o.quote),
      ['TWD', 'JPY', 'GBP', 'HKD', 'KRW', 'CAD', 'SGD', 'CNY', 'AUD', 'IDR', 'THB', 'MYR', 'PHP', 'EUR', 'VND'],
    );
  });

  test('XXX/USD columns are indirect, the USD/GBP, USD/AUD and USD/EUR columns direct', () => {
    const obs = parseFile(FILE);
    assert.equal(shown(find(obs, '2026-02-26', 'TWD')), '31.251 indirect');
    assert.equal(shown(find(obs, '2026-02-26', 'JPY')), '156.05 indirect');
    assert.equal(shown(find(obs, '2026-02-26', 'KRW')), '1428.6 indirect');
    assert.equal(shown(find(obs, '2026-02-26', 'IDR')), '16755.0 indirect');
    assert.equal(shown(find(obs, '2026-02-26', 'PHP')), '57.638 indirect');
    assert.equal(shown(find(obs, '2026-02-26', 'VND')), '26074.5 indirect');
    assert.equal(shown(find(obs, '2026-02-26', 'GBP')), '1.3547 direct');
    assert.equal(shown(find(obs, '2026-02-26', 'AUD')), '0.7123 direct');
    assert.equal(shown(find(obs, '2026-02-26', 'EUR')), '1.1816 direct');
    assert.ok(obs.filter((o) => ['GBP', 'AUD', 'EUR'].includes(o.quote)).every((o) => o.direction === 'direct'));
    assert.ok(obs.filter((o) => !['GBP', 'AUD', 'EUR'].includes(o.quote)).every((o) => o.direction === 'indirect'));
  });

  test('the pre-euro columns run to 2001 and keep their trailing zeros', () => {
    const obs = parseFile(FILE);
    assert.equal(shown(find(obs, '1993-01-05', 'DEM')), '1.6255 indirect');
    assert.equal(shown(find(obs, '1993-01-05', 'FRF')), '5.5425 indirect');
    assert.equal(shown(find(obs, '1993-01-05', 'SGD')), '1.6560 indirect');
    assert.equal(shown(find(obs, '2001-12-31', 'NLG')), '2.4765 indirect');
    assert.equal(find(obs, '2002-01-02', 'DEM'), undefined);
    assert.equal(find(obs, '1993-01-05', 'EUR'), undefined);
    assert.equal(shown(find(obs, '2002-01-02', 'EUR')), '0.9032 direct');
  });

  test('requests the one history file and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/Get?FileName=BP01D01' }]);
    assert.deepEqual(source.requests(window, { base: source.baseUrl }), [{ url: source.feedUrl }]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const server = await startFeedServer({ '/Get?FileName=BP01D01': { body: readFileSync(new URL(FILE, DIR)), contentType: 'text/plain; charset=utf-8' } });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p) as Observation[]), parseFile(FILE));
    } finally {
      await server.close();
    }
  });
});

describe('CBCT edge cases', () => {
  const file = (rows: string, labels = '{"data":"新台幣NTD/USD"},{"data":"英鎊USD/GBP"}') =>
    `{"meta":{"filename":"BP01D01.px","last_updated":"2026-04-01"},"data":{"dataSets":[${rows}],"structure":{"Table1":[${labels}]}}}`;

  test('reads the pair of each column from its label', () => {
    assert.deepEqual(parse(file('["20260305","31.502","1.3410"]')), [
      { date: '2026-03-05', quote: 'TWD', rate: '31.502', unit: 1, direction: 'indirect' },
      { date: '2026-03-05', quote: 'GBP', rate: '1.3410', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>404 - 找不到檔案或目錄。</title></head><body></body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    const full = file('["20260305","31.502","1.3410"],["20260306","31.488","1.3395"]');
    assert.throws(() => parse(full.slice(0, full.indexOf('20260306') + 12)), /not JSON/);
  });

  test('rejects an empty table, unknown pairs and misshapen rows', () => {
    assert.throws(() => parse(file('')), /holds no rates/);
    assert.throws(() => parse(file('["20260305","-","-"]')), /holds no rates/);
    assert.throws(() => parse(file('["20260305","31.502","1.3410"]', '')), /lists no columns/);
    assert.throws(() => parse(file('["20260305","31.502","1.3410"]', '{"data":"新台幣NTD/USD"},{"data":"英鎊GBP/EUR"}')), /not against USD/);
    assert.throws(() => parse(file('["20260305","31.502","1.3410"]', '{"data":"新台幣NTD/USD"},{"data":"黃金"}')), /names no pair/);
    assert.throws(() => parse(file('["20260305","31.502"]')), /does not have 3 cells/);
    assert.throws(() => parse(file('["2026-03-05","31.502","1.3410"]')), /not YYYYMMDD/);
    assert.throws(() => parse(file('["20260305","31,5x","1.3410"]')), /TWD on 2026-03-05: not a number/);
  });

  test('accepts BP01D01 only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://cpx.cbc.gov.tw/API/DataAPI/Get?FileName=BP01M01'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
