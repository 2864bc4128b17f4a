// BBOT, Bank of Botswana: grade A (complete VCR recording, SOURCES-2.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './bbot.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BBOT');
const FILE = 'bob-exchange-rates-2026-03-19.csv';
const history = () => source.parse({ name: FILE, body: readFileSync(new URL(FILE, DIR)) }) as Observation[];
const csv = (text: string) => source.parse({ name: 'https://www.bankofbotswana.bw/export/exchange-rates.csv?_format=csv&page', body: Buffer.from(text) }) as Observation[];
const on = (obs: Observation[], date: string) => Object.fromEntries(obs.filter((o) => o.date === date).map((o) => [o.quote, o.rate]));

const BOM = '\uFEFF';
const HEAD = 'Date,CHN,EUR,GBP,USD,SDR,YEN,ZAR\n';
const DAY = '"19 Mar 2026",0.5165,0.0653,0.0564,0.0748,0.0551,11.9500,1.2717\n';

describe('BBOT recorded payload', () => {
  const obs = history();

  test('every recorded file but SOURCE.md is accepted', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('the whole history: foreign currency per pula, seven columns under ISO codes', () => {
    assert.equal(new Set(obs.map((o) => o.date)).size, 6241);
    assert.equal(obs.length, 39776);
    assert.deepEqual([...new Set(obs.map((o) => o.quote))].sort(), ['CNY', 'EUR', 'GBP', 'JPY', 'USD', 'XDR', 'ZAR']);
    assert.ok(obs.every((o) => o.direction === 'indirect' && o.unit === 1));
    assert.deepEqual(on(obs, '2026-03-19'), { CNY: '0.5165', EUR: '0.0653', GBP: '0.0564', USD: '0.0748', XDR: '0.0551', JPY: '11.9500', ZAR: '1.2717' });
    assert.equal(on(obs, '2026-03-18').USD, '0.0759');
    assert.equal(on(obs, '2009-04-27').JPY, '13.0100');
    assert.equal(on(obs, '2001-01-04').EUR, '0.2001');
  });

  test('0.0000 means not quoted: CNY only from 3 October 2016, no yen on two days', () => {
    assert.equal(obs.filter((o) => o.quote === 'CNY').length, 2332);
    assert.equal(on(obs, '2016-10-03').CNY, '0.6361');
    assert.equal(on(obs, '2016-09-28').CNY, undefined);
    assert.deepEqual(Object.keys(on(obs, '2005-01-17')).sort(), ['EUR', 'GBP', 'USD', 'XDR', 'ZAR']);
  });

  test('a date given twice with different figures is dropped, not guessed', () => {
    for (const d of ['2018-01-17', '2018-10-23', '2019-08-13']) assert.deepEqual(on(obs, d), {}, d);
    assert.equal(on(obs, '2019-08-12').USD, '0.0904');
  });

  test('requests the CSV export and reads what a feed server sends back', async () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/export/exchange-rates.csv?_format=csv&page' }]);
    assert.ok(source.accepts(requests[0]!.url));
    const server = await startFeedServer({ '/export/exchange-rates.csv?_format=csv&page': { body: readFileSync(new URL(FILE, DIR)), contentType: 'text/csv; charset=UTF-8' } });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p) as Observation[]), obs);
    } finally {
      await server.close();
    }
  });
});

describe('BBOT edge cases', () => {
  test('reads the BOM, CRLF lines and identical repeats', () => {
    const obs = csv(BOM + (HEAD + DAY + DAY).replaceAll('\n', '\r\n'));
    assert.equal(obs.length, 7);
    assert.deepEqual(obs[5], { date: '2026-03-19', quote: 'JPY', rate: '11.9500', unit: 1, direction: 'indirect' });
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => csv('<!DOCTYPE html>\n<html><head><title>Page not found | Bank of Botswana</title></head><body></body></html>'), ParseError);
  });

  test('rejects a truncated file', () => {
    const text = BOM + HEAD + DAY + '"18 Mar 2026",0.5213,0.0657,0.0567';
    assert.throws(() => csv(text), /line 3 has 3 rates, expected 7/);
  });

  test('rejects an empty table and a table of zeros', () => {
    assert.throws(() => csv(BOM + HEAD), /holds no rates/);
    assert.throws(() => csv(BOM + HEAD + '"19 Mar 2026",0.0000,0.0000,0.0000,0.0000,0.0000,0.0000,0.0000\n'), /holds no rates/);
  });

  test('rejects an unknown column and a bad date', () => {
    assert.throws(() => csv(HEAD.replace('YEN', 'JPN') + DAY), /unknown column "JPN"/);
    assert.throws(() => csv(HEAD + DAY.replace('19 Mar 2026', '2026-03-19')), /line 2 is not a dated row/);
    assert.throws(() => csv(HEAD + DAY.replace('0.0748', 'n/a')), /USD on 2026-03-19: not a number/);
  });

  test('accepts the export and the recorded name only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.bankofbotswana.bw/exchange-rates'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
