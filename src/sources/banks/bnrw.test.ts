// BNRW recorded payloads are grade A (complete VCR recordings, SOURCES-2.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './bnrw.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BNRW');

const file = (c: string) => `bnr-rw-currency_history-${c}-2026-05-19_2026-05-22.json`;
const RECORDED = ['BIF', 'EUR', 'JPY', 'KES', 'USD'];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const parse = (body: string) => source.parse({ name: 'https://fxrates.bnr.rw/currency_history/?currency_name=USD&start_date=2026-03-02&end_date=2026-03-06', body: Buffer.from(body) });
const byDate = (obs: Observation[]) => Object.fromEntries(obs.map((o) => [o.date, o.rate]));
const row = (average: string, date = '04-Mar-26', name = 'USD') =>
  `{"currency_name":"${name}","buying_rate":"1","average_rate":"${average}","selling_rate":"2","post_date":"${date}"}`;

describe('BNRW recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), RECORDED.map(file));
  });

  test('four days per currency, the average rate in RWF per 1 unit, rows out of date order', () => {
    for (const c of RECORDED) {
      const obs = parseFile(file(c));
      assert.deepEqual(obs.map((o) => o.date).sort(), ['2026-05-19', '2026-05-20', '2026-05-21', '2026-05-22'], c);
      assert.ok(obs.every((o) => o.quote === c && o.unit === 1 && o.direction === 'direct'), c);
    }
    assert.deepEqual(byDate(parseFile(file('USD'))), { '2026-05-19': '1463.065', '2026-05-20': '1463.1625', '2026-05-21': '1463.255', '2026-05-22': '1463.3525' });
    assert.equal(byDate(parseFile(file('EUR')))['2026-05-19'], '1703.300273');
    // JPY per 1 yen, not per 100.
    assert.equal(byDate(parseFile(file('JPY')))['2026-05-20'], '9.209145');
    assert.equal(byDate(parseFile(file('KES')))['2026-05-22'], '11.282448');
    assert.equal(byDate(parseFile(file('BIF')))['2026-05-21'], '0.490922');
    // The 19th comes last in the EUR answer.
    assert.equal(parseFile(file('EUR')).at(-1)!.date, '2026-05-19');
  });

  test('requests each currency over the window and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.equal(requests.length, 16);
    assert.deepEqual(requests[0], { url: 'http://127.0.0.1:1/currency_history/?currency_name=USD&start_date=2026-03-02&end_date=2026-03-06' });
    assert.deepEqual(requests.map((r) => /currency_name=([A-Z]{3})/.exec(r.url)![1]).sort(), 'AED AUD BIF CAD CHF CNY EUR GBP INR JPY KES SAR TZS UGX USD ZAR'.split(' '));
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    // The recorded currencies get their files; the others the empty array of a range without rates.
    const server = await startFeedServer((path) => {
      const c = /currency_name=([A-Z]{3})&start_date=2026-05-19&end_date=2026-05-22$/.exec(path)?.[1];
      if (!c) return undefined;
      return { body: RECORDED.includes(c) ? readFileSync(new URL(file(c), DIR)) : '[]', contentType: 'application/json; charset=utf-8' };
    });
    try {
      const payloads = await fetchSource(source, { from: '2026-05-19', to: '2026-05-22' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 16);
      for (const p of payloads) {
        const c = /currency_name=([A-Z]{3})/.exec(p.name)![1]!;
        if (RECORDED.includes(c)) assert.deepEqual(source.parse(p), parseFile(file(c)));
        else assert.throws(() => source.parse(p), NoPublication);
      }
    } finally {
      await server.close();
    }
  });
});

describe('BNRW edge cases', () => {
  test('reads two-digit-year dates and figures with thousands commas', () => {
    assert.deepEqual(parse(`[${row('1,253.60', '05-Jan-15')}]`), [{ date: '2015-01-05', quote: 'USD', rate: '1253.60', unit: 1, direction: 'direct' }]);
  });

  test('an empty array is no publication', () => {
    assert.throws(() => parse('[]'), NoPublication);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!doctype html><html><head><title>Server Error (500)</title></head><body><h1>Server Error (500)</h1></body></html>'), ParseError);
  });

  test('rejects a truncated array and rows with bad fields', () => {
    const full = `[${row('1463.065')},${row('1463.1625', '05-Mar-26')}]`;
    assert.throws(() => parse(full.slice(0, -30)), /not JSON/);
    assert.throws(() => parse('{"detail":"Not found."}'), /not a JSON array/);
    assert.throws(() => parse(`[${row('1463.065', '2026-03-04')}]`), /bad post_date/);
    assert.throws(() => parse(`[${row('1.463,065')}]`), /bad average_rate/);
    assert.throws(() => parse(`[${row('', '04-Mar-26')}]`), /bad average_rate/);
    assert.throws(() => parse(`[${row('1463.065', '04-Mar-26', 'US Dollar')}]`), /bad currency code/);
  });

  test('accepts the currency history endpoint only', () => {
    assert.ok(source.accepts('https://fxrates.bnr.rw/currency_history/?currency_name=BIF&end_date=2026-05-22&start_date=2026-05-19'));
    assert.ok(!source.accepts(source.feedUrl));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
