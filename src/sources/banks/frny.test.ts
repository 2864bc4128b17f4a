import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { FRED_SERIES, source } from './frny.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('FRNY');

const fileOf = (series: string) => `fred-observations-${series}-from-2026-03-01.json`;
const parseSeries = (series: string) => source.parse({ name: fileOf(series), body: readFileSync(new URL(fileOf(series), DIR)) });
const URL_EU = 'https://api.stlouisfed.org/fred/series/observations?series_id=DEXUSEU&file_type=json&observation_start=2026-03-01';
const parse = (body: string, name = URL_EU) => source.parse({ name, body: Buffer.from(body) });
const rates = (obs: Observation[]) => obs.map((o) => o.rate);
const DAYS = ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13'];

describe('FRNY recorded payloads', () => {
  test('one recorded payload per mapped series, all accepted; SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), Object.keys(FRED_SERIES).sort().map(fileOf));
  });

  test('every series: ten business days from 2026-03-02, its currency, its direction', () => {
    for (const [series, quote] of Object.entries(FRED_SERIES)) {
      const obs = parseSeries(series);
      assert.deepEqual(obs.map((o) => o.date), DAYS, series);
      assert.ok(obs.every((o) => o.quote === quote && o.unit === 1), series);
      const direction = series.startsWith('DEXUS') ? 'direct' : 'indirect';
      assert.ok(obs.every((o) => o.direction === direction), series);
    }
  });

  test('DEXUSEU is USD per 1 EUR: direct', () => {
    const obs = parseSeries('DEXUSEU');
    assert.deepEqual(obs[0], { date: '2026-03-02', quote: 'EUR', rate: '1.169', unit: 1, direction: 'direct' });
    assert.deepEqual(rates(obs), ['1.169', '1.1604', '1.1638', '1.1585', '1.1606', '1.1592', '1.1648', '1.1566', '1.1522', '1.1444']);
  });

  test('DEXUSUK, DEXUSAL, DEXUSNZ are USD per unit: direct', () => {
    assert.equal(parseSeries('DEXUSUK').at(-1)!.rate, '1.324');
    assert.equal(parseSeries('DEXUSAL')[6]!.rate, '0.715');
    assert.deepEqual(parseSeries('DEXUSNZ')[0], { date: '2026-03-02', quote: 'NZD', rate: '0.593', unit: 1, direction: 'direct' });
  });

  test('DEXJPUS is JPY per 1 USD: indirect', () => {
    const obs = parseSeries('DEXJPUS');
    assert.deepEqual(obs[0], { date: '2026-03-02', quote: 'JPY', rate: '157.48', unit: 1, direction: 'indirect' });
    assert.deepEqual(rates(obs), ['157.48', '157.69', '156.93', '157.58', '157.64', '158.08', '157.6', '158.83', '159.21', '159.54']);
  });

  test('other DEX{xx}US series carry their own figures', () => {
    assert.equal(parseSeries('DEXKOUS')[3]!.rate, '1483.36');
    assert.equal(parseSeries('DEXSZUS').at(-1)!.rate, '0.7898');
    assert.equal(parseSeries('DEXSLUS')[0]!.rate, '309.2');
    assert.equal(parseSeries('DEXSFUS')[8]!.rate, '16.75');
    assert.equal(parseSeries('DEXBZUS')[0]!.rate, '5.1901');
    assert.equal(parseSeries('DEXTAUS').at(-1)!.rate, '32.1');
  });

  test('requests every mapped series with the key and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    const query = (series: string) => `series_id=${series}&observation_start=2026-03-02&observation_end=2026-03-06`;
    assert.deepEqual(
      requests,
      Object.keys(FRED_SERIES).map((series) => ({
        url: `http://127.0.0.1:1/series/observations?${query(series)}&api_key=k&file_type=json`,
        name: `http://127.0.0.1:1/series/observations?${query(series)}&file_type=json`,
      })),
    );
    for (const r of requests) assert.ok(source.accepts(r.url) && source.accepts(r.name ?? ''), r.url);

    const server = await startFeedServer((path) => {
      const series = /[?&]series_id=(DEX[A-Z]{4})&/.exec(path)?.[1];
      return series && path.includes('&api_key=k&') ? { body: readFileSync(new URL(fileOf(series), DIR)), contentType: 'application/json' } : undefined;
    });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.ok(payloads.every((p) => !p.name.includes('api_key')));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p)), Object.keys(FRED_SERIES).flatMap(parseSeries));
      assert.equal(server.requests.length, Object.keys(FRED_SERIES).length);
    } finally {
      await server.close();
    }
  });
});

describe('FRNY edge cases', () => {
  const fred = (...rows: [string, string][]) =>
    JSON.stringify({
      realtime_start: '2026-03-16', realtime_end: '2026-03-16', observation_start: '2026-03-01', observation_end: '9999-12-31',
      units: 'lin', output_type: 1, file_type: 'json', order_by: 'observation_date', sort_order: 'asc', count: rows.length, offset: 0, limit: 100000,
      observations: rows.map(([date, value]) => ({ realtime_start: '2026-03-16', realtime_end: '2026-03-16', date, value })),
    });

  test('skips "." holidays', () => {
    const obs = parse(fred(['2026-02-13', '1.1871'], ['2026-02-16', '.'], ['2026-02-17', '1.1851']));
    assert.deepEqual(obs.map((o) => `${o.date} ${o.rate}`), ['2026-02-13 1.1871', '2026-02-17 1.1851']);
  });

  test('takes the series from the request URL or file name, never guesses', () => {
    const body = fred(['2026-03-02', '157.48']);
    assert.equal(parse(body, 'https://api.stlouisfed.org/fred/series/observations?api_key=<KEY>&file_type=json&series_id=DEXJPUS')[0]!.quote, 'JPY');
    assert.throws(() => parse(body, 'https://api.stlouisfed.org/fred/series/observations?file_type=json'), /cannot tell the H.10 series/);
    assert.throws(() => parse(body, 'fred-observations-DEXVZUS-from-2026-03-01.json'), ParseError);
  });

  test('rejects an HTML error page', () => {
    const html = '<!DOCTYPE html><html><head><title>FRED | 502 Bad Gateway</title></head><body><h1>502</h1></body></html>';
    assert.throws(() => parse(html), /not JSON/);
  });

  test('rejects a truncated payload', () => {
    const full = fred(['2026-03-02', '1.169'], ['2026-03-03', '1.1604']);
    assert.throws(() => parse(full.slice(0, full.length - 30)), /not JSON/);
  });

  test('rejects empty tables, all-holiday tables and FRED errors', () => {
    assert.throws(() => parse(fred()), /DEXUSEU holds no rates$/);
    assert.throws(() => parse(fred(['2026-02-16', '.'])), /only holidays/);
    assert.throws(() => parse('{"error_code":400,"error_message":"Bad Request.  The value for variable api_key is not registered."}'), /FRED says Bad Request/);
  });

  test('a window of weekends and holidays is no publication; an error answer is a fault', () => {
    assert.throws(() => parse(fred()), NoPublication);
    assert.throws(() => parse(fred(['2026-02-16', '.'])), NoPublication);
    assert.throws(() => parse('{"error_code":400,"error_message":"Bad Request."}'), (err) => err instanceof ParseError && !(err instanceof NoPublication));
  });

  test('rejects transformed units and bad values', () => {
    assert.throws(() => parse(fred(['2026-03-02', '1.169']).replace('"units":"lin"', '"units":"pch"')), /units=pch/);
    assert.throws(() => parse(fred(['2026-03-02', 'NaN'])), /bad value "NaN"/);
  });

  test('accepts every mapped series as URL and file name, nothing else', () => {
    assert.ok(source.accepts(source.feedUrl));
    for (const series of Object.keys(FRED_SERIES)) assert.ok(source.accepts(`https://api.stlouisfed.org/fred/series/observations?series_id=${series}&file_type=json`));
    assert.ok(!source.accepts('https://api.stlouisfed.org/fred/series/observations?series_id=DEXUSEU&file_type=xml'));
    assert.ok(!source.accepts('https://api.stlouisfed.org/fred/series/observations?series_id=UNRATE&file_type=json'));
    assert.ok(!source.accepts('fred-observations-DEXUSEUX-from-2026-03-01.json'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
