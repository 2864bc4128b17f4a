import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { BCCH_SERIES, source } from './bcec.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BCEC');
const file = (series: string) => `SieteRestWS-GetSeries-${series}-2026-03-01_2026-03-15.json`;

const NAME = 'https://si3.bcentral.cl/SieteRestWS/SieteRestWS.ashx?function=GetSeries&timeseries=F073.TCO.PRE.Z.D&firstdate=2026-03-01&lastdate=2026-03-15';
const parse = (body: string) => source.parse({ name: NAME, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], date: string) => obs.find((o) => o.date === date)?.rate;
const DAYS = ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13'];

describe('BCEC recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [file('F072.CLP.EUR.N.O.D'), file('F073.TCO.PRE.Z.D')]);
  });

  test('observed dollar: ten business days, the weekend ND rows skipped', () => {
    const obs = parseFile(file('F073.TCO.PRE.Z.D'));
    assert.deepEqual(obs.map((o) => o.date), DAYS);
    assert.ok(obs.every((o) => o.quote === 'USD' && o.unit === 1 && o.direction === 'direct'));
    assert.equal(rate(obs, '2026-03-02'), '871.41');
    assert.equal(rate(obs, '2026-03-06'), '907.66');
    assert.equal(rate(obs, '2026-03-09'), '921.76');
    assert.equal(rate(obs, '2026-03-13'), '909.94');
  });

  test('euro: the currency comes from the series id in the body', () => {
    const obs = parseFile(file('F072.CLP.EUR.N.O.D'));
    assert.deepEqual(obs.map((o) => o.date), DAYS);
    assert.ok(obs.every((o) => o.quote === 'EUR' && o.unit === 1 && o.direction === 'direct'));
    assert.equal(rate(obs, '2026-03-02'), '1029.91');
    // The bank's own text, "1069.2".
    assert.equal(rate(obs, '2026-03-09'), '1069.2');
    assert.equal(rate(obs, '2026-03-13'), '1048.68');
  });
});

describe('BCEC edge cases', () => {
  const obs = (day: string, value: string, status = 'OK') => `{"indexDateString":"${day}","value":"${value}","statusCode":"${status}"}`;
  const series = (id: string, ...rows: string[]) =>
    `{"Codigo":0,"Descripcion":"Success","Series":{"descripEsp":"x","descripIng":"x","seriesId":"${id}","Obs":[${rows.join(',')}]},"SeriesInfos":[]}`;

  test('reads any F072.CLP nominal series', () => {
    assert.deepEqual(parse(series('F072.CLP.JPY.N.O.D', obs('02-03-2026', '5.57'), obs('07-03-2026', 'NaN', 'ND'))), [
      { date: '2026-03-02', quote: 'JPY', rate: '5.57', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<html><head><title>Runtime Error</title></head><body><h1>Server Error in \'/SieteRestWS\' Application.</h1></body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    const full = series('F073.TCO.PRE.Z.D', obs('02-03-2026', '871.41'));
    assert.throws(() => parse(full.slice(0, 100)), /not JSON/);
  });

  test('rejects an empty table, a range of holidays only and a login failure', () => {
    assert.throws(() => parse(series('F073.TCO.PRE.Z.D')), /holds no rates/);
    assert.throws(() => parse(series('F073.TCO.PRE.Z.D', obs('07-03-2026', 'NaN', 'ND'))), /holds no rates/);
    const denied = '{"Codigo":-5,"Descripcion":"Invalid username or password","Series":{"descripEsp":null,"descripIng":null,"seriesId":null,"Obs":null},"SeriesInfos":[]}';
    assert.throws(() => parse(denied), /Invalid username or password/);
  });

  test('a range of ND days only is no publication; an empty Obs array is a fault', () => {
    assert.throws(() => parse(series('F073.TCO.PRE.Z.D', obs('07-03-2026', 'NaN', 'ND'), obs('08-03-2026', 'NaN', 'ND'))), NoPublication);
    assert.throws(() => parse(series('F073.TCO.PRE.Z.D')), (err) => err instanceof ParseError && !(err instanceof NoPublication));
  });

  test('rejects series that are not rates, a second dollar and bad rows', () => {
    assert.throws(() => parse(series('F022.TPM.TIN.D001.NO.Z.D', obs('02-03-2026', '4.5'))), /not an exchange rate/);
    assert.throws(() => parse(series('F072.CLP.USD.N.O.D', obs('02-03-2026', '871.41'))), /not an exchange rate/);
    assert.throws(() => parse(series('F073.TCO.PRE.Z.D', obs('2026-03-02', '871.41'))), /bad indexDateString/);
    assert.throws(() => parse(series('F073.TCO.PRE.Z.D', obs('02-03-2026', 'NaN', 'NA'))), /status "NA"/);
  });

  test('accepts GetSeries answers only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts(NAME));
    assert.ok(!source.accepts('https://si3.bcentral.cl/SieteRestWS/SieteRestWS.ashx?function=SearchSeries&frequency=DAILY'));
    assert.ok(!source.accepts('SOURCE.md'));
  });

  test('builds one request per series, credentials in the URL but never in the name', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.equal(requests.length, BCCH_SERIES.length);
    assert.deepEqual(requests[0], {
      url: 'http://127.0.0.1:1/SieteRestWS.ashx?user=k&pass=&function=GetSeries&timeseries=F073.TCO.PRE.Z.D&firstdate=2026-03-02&lastdate=2026-03-06',
      name: 'http://127.0.0.1:1/SieteRestWS.ashx?function=GetSeries&timeseries=F073.TCO.PRE.Z.D&firstdate=2026-03-02&lastdate=2026-03-06',
    });
    assert.equal(requests[1]?.name, 'http://127.0.0.1:1/SieteRestWS.ashx?function=GetSeries&timeseries=F072.CLP.EUR.N.O.D&firstdate=2026-03-02&lastdate=2026-03-06');
    for (const r of requests) assert.ok(source.accepts(r.url) && source.accepts(r.name!) && !r.name!.includes('user='), r.url);
    const [withPass] = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'me@example.org:p&ss:word' });
    assert.ok(withPass?.url.includes('?user=me%40example.org&pass=p%26ss%3Aword&function=GetSeries'));
  });
});

describe('BCEC round trip through the local feed server', () => {
  test('reads the served payloads like the recorded files', async () => {
    const server = await startFeedServer((url) => {
      const series = /timeseries=([^&]+)/.exec(url)?.[1] ?? '';
      const recorded = series === 'F073.TCO.PRE.Z.D' ? series : 'F072.CLP.EUR.N.O.D';
      return { body: readFileSync(new URL(file(recorded), DIR)), contentType: 'application/json' };
    });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-01', to: '2026-03-15' }, { base: server.url, key: 'u:p' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, BCCH_SERIES.length);
      assert.equal(server.requests[0]?.url, '/SieteRestWS.ashx?user=u&pass=p&function=GetSeries&timeseries=F073.TCO.PRE.Z.D&firstdate=2026-03-01&lastdate=2026-03-15');
      assert.ok(payloads.every((p) => !p.name.includes('pass=')));
      assert.deepEqual(source.parse(payloads[0]!), parseFile(file('F073.TCO.PRE.Z.D')));
      assert.deepEqual(source.parse(payloads[1]!), parseFile(file('F072.CLP.EUR.N.O.D')));
    } finally {
      await server.close();
    }
  });
});
