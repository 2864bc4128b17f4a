import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { SARB_SERIES, source } from './sarb.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('SARB');

const fileOf = (series: string) => `GetTimeseriesObservations-${series}-2026-03-23_2026-03-27.json`;
const parseSeries = (series: string) => source.parse({ name: fileOf(series), body: readFileSync(new URL(fileOf(series), DIR)) });
const URL_USD = 'https://custom.resbank.co.za/SarbWebApi/WebIndicators/Shared/GetTimeseriesObservations/EXCX135D/2026-03-23/2026-03-27';
const parse = (body: string, name = URL_USD) => source.parse({ name, body: Buffer.from(body) });
const byDate = (obs: Observation[]) => Object.fromEntries(obs.map((o) => [o.date, o.rate]));
// Newest first, and no row for Monday 23 March (the Human Rights Day holiday moved off the Saturday).
const DATES = ['2026-03-27', '2026-03-26', '2026-03-25', '2026-03-24'];

describe('SARB recorded payloads', () => {
  test('one recorded payload per mapped series, all accepted; SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), Object.keys(SARB_SERIES).sort().map(fileOf));
  });

  test('EXCX135D is rand per US dollar', () => {
    const obs = parseSeries('EXCX135D');
    assert.deepEqual(obs.map((o) => o.date), DATES);
    assert.ok(obs.every((o) => o.quote === 'USD' && o.unit === 1 && o.direction === 'direct'));
    assert.deepEqual(byDate(obs), { '2026-03-27': '17.1302', '2026-03-26': '17.0435', '2026-03-25': '16.8643', '2026-03-24': '16.9333' });
  });

  test('EXCZ001D is rand per pound sterling', () => {
    const obs = parseSeries('EXCZ001D');
    assert.deepEqual(obs.map((o) => o.date), DATES);
    assert.ok(obs.every((o) => o.quote === 'GBP' && o.unit === 1 && o.direction === 'direct'));
    assert.equal(byDate(obs)['2026-03-27'], '22.8173');
    assert.equal(byDate(obs)['2026-03-24'], '22.7008');
  });

  test('EXCZ002D is rand per euro', () => {
    const obs = parseSeries('EXCZ002D');
    assert.deepEqual(obs.map((o) => o.date), DATES);
    assert.ok(obs.every((o) => o.quote === 'EUR' && o.unit === 1 && o.direction === 'direct'));
    assert.equal(byDate(obs)['2026-03-26'], '19.6903');
    assert.equal(byDate(obs)['2026-03-25'], '19.5863');
  });

  test('requests one URL per series and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    const path = (series: string) => `/WebIndicators/Shared/GetTimeseriesObservations/${series}/2026-03-02/2026-03-06`;
    assert.deepEqual(requests, [{ url: `http://127.0.0.1:1${path('EXCX135D')}` }, { url: `http://127.0.0.1:1${path('EXCZ001D')}` }, { url: `http://127.0.0.1:1${path('EXCZ002D')}` }]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const series = Object.keys(SARB_SERIES);
    const server = await startFeedServer(Object.fromEntries(series.map((s) => [path(s), { body: readFileSync(new URL(fileOf(s), DIR)), contentType: 'application/json' }])));
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p)), series.flatMap(parseSeries));
      assert.deepEqual(server.requests.map((r) => r.url), series.map(path));
    } finally {
      await server.close();
    }
  });
});

describe('SARB edge cases', () => {
  const row = (period: string, value: string, title = 'Rand per US Dollar') =>
    `{"Period":"${period}","Timeseries":"${title}","Description":"Weighted average of the banks' daily rates at approximately 10:30 am.","Value":${value},"FormatNumber":"0.0000","FormatDate":"yyyy-MM-dd"}`;

  test('puts back the trailing zeros FormatNumber shows, and never rounds', () => {
    const obs = parse(`[${row('2026-03-30T00:00:00', '17.13')},${row('2026-03-31T00:00:00', '17')},${row('2026-04-01T00:00:00', '17.12345')}]`);
    assert.deepEqual(obs[0], { date: '2026-03-30', quote: 'USD', rate: '17.1300', unit: 1, direction: 'direct' });
    assert.deepEqual(obs.map((o) => o.rate), ['17.1300', '17.0000', '17.12345']);
  });

  test('takes the series from the URL or file name, never guesses', () => {
    const body = `[${row('2026-03-30T00:00:00', '17.13')}]`;
    assert.throws(() => parse(body, 'https://custom.resbank.co.za/SarbWebApi/WebIndicators/Shared/GetTimeseriesObservations/EXCZ120D/2026-03-23/2026-03-27'), /cannot tell the series/);
    assert.throws(() => parse(body, 'HistoricalExchangeRatesDaily'), ParseError);
  });

  test('rejects a series that is not rand per unit', () => {
    assert.throws(() => parse(`[${row('2026-03-30T00:00:00', '0.0584', 'US Dollar per Rand')}]`), /not rand per unit/);
  });

  test('rejects an HTML error page and an API error', () => {
    const html = '<!DOCTYPE html><html><head><title>404 - File or directory not found.</title></head><body><h2>404 - File or directory not found.</h2></body></html>';
    assert.throws(() => parse(html), /not JSON/);
    assert.throws(() => parse('{"Message":"An error has occurred."}'), /not an array/);
  });

  test('rejects a truncated payload', () => {
    const full = `[${row('2026-03-30T00:00:00', '17.13')},${row('2026-03-31T00:00:00', '17.2')}]`;
    assert.throws(() => parse(full.slice(0, full.length - 40)), /not JSON/);
  });

  test('rejects an empty table, a bad period and a missing value', () => {
    assert.throws(() => parse('[]'), /holds no observations/);
    assert.throws(() => parse(`[${row('27/03/2026', '17.13')}]`), /bad Period/);
    assert.throws(() => parse(`[${row('2026-03-30T00:00:00', 'null')}]`), /no value on 2026-03-30/);
  });

  test('accepts the mapped series as URL and file name, nothing else', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts(`${source.baseUrl}/WebIndicators/Shared/GetTimeseriesObservations/EXCZ002D/2026-03-23T00:00:00/2026-03-27T00:00:00`));
    assert.ok(!source.accepts(`${source.baseUrl}/WebIndicators/Shared/GetTimeseriesObservations/MMRD002A/2026-03-23/2026-03-27`));
    assert.ok(!source.accepts('GetTimeseriesObservations-EXCX135DX-2026-03-23_2026-03-27.json'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
