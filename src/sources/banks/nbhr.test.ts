import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './nbhr.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('NBHR');
const V3 = 'tecajn-eur-v3-2023-01-02_2023-01-06.json';
const V2 = 'tecajn-v2-2022-12-28_2022-12-31-HRK.json';

const parse = (body: string, name = 'https://api.hnb.hr/tecajn-eur/v3') => source.parse({ name, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote)?.rate;

const CCY = 'AUD BAM CAD CHF CZK DKK GBP HUF JPY NOK PLN SEK USD'.split(' ');

describe('NBHR recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [V3, V2]);
  });

  test('v3, first euro week: 13 currencies per 1 EUR on five application dates', () => {
    const obs = parseFile(V3);
    assert.deepEqual([...new Set(obs.map((o) => o.date))], ['2023-01-02', '2023-01-03', '2023-01-04', '2023-01-05', '2023-01-06']);
    assert.equal(obs.length, 5 * 13);
    for (const date of ['2023-01-02', '2023-01-06']) assert.deepEqual(obs.filter((o) => o.date === date).map((o) => o.quote).sort(), CCY);
    assert.ok(obs.every((o) => o.direction === 'indirect' && o.unit === 1));
    // Decimal commas, six published decimals kept.
    assert.equal(rate(obs, '2023-01-02', 'USD'), '1.066600');
    assert.equal(rate(obs, '2023-01-02', 'JPY'), '140.660000');
    assert.equal(rate(obs, '2023-01-02', 'HUF'), '400.870000');
    assert.equal(rate(obs, '2023-01-02', 'BAM'), '1.955830');
    assert.equal(rate(obs, '2023-01-02', 'CZK'), '24.116000');
    assert.equal(rate(obs, '2023-01-03', 'USD'), '1.068300');
    assert.equal(rate(obs, '2023-01-06', 'GBP'), '0.883030');
    assert.equal(rate(obs, '2023-01-06', 'CHF'), '0.983900');
    assert.equal(rate(obs, '2023-01-06', 'PLN'), '4.670000');
  });

  test('v2, last kuna list: only the euro row is expressible, as HRK per 1 EUR', () => {
    // The request asked datum-od/datum-do, which v2 ignores: it answered with its latest list only.
    // The 14 other rows (USD, JPY per 100, XDR…) are HRK prices and cannot be filed against the euro.
    assert.deepEqual(parseFile(V2), [{ date: '2022-12-31', quote: 'HRK', rate: '7.534500', unit: 1, direction: 'indirect' }]);
  });
});

describe('NBHR edge cases', () => {
  const v3row = (valuta: string, srednji: string) =>
    `{"broj_tecajnice":"45","datum_primjene":"2026-03-06","drzava":"SAD","drzava_iso":"USA","kupovni_tecaj":"1,0500","prodajni_tecaj":"1,0400","sifra_valute":"840","srednji_tecaj":"${srednji}","valuta":"${valuta}"}`;
  const v2row = (valuta: string, jedinica: number, srednji: string, key = 'datum_primjene') =>
    `{"broj_tecajnice":"100","${key}":"2020-05-27","drzava":"EMU","jedinica":${jedinica},"kupovni_tecaj":"7,5","prodajni_tecaj":"7,6","sifra_valute":"978","srednji_tecaj":"${srednji}","valuta":"${valuta}"}`;

  test('v3 rows are indirect per 1 EUR, v2 keeps only HRK per EUR', () => {
    assert.deepEqual(parse(`[${v3row('USD', '1,0450')}]`), [{ date: '2026-03-06', quote: 'USD', rate: '1.0450', unit: 1, direction: 'indirect' }]);
    const v2 = `[${v2row('JPY', 100, '6,321000')},${v2row('EUR', 1, '7,575000')}]`;
    assert.deepEqual(parse(v2, 'https://api.hnb.hr/tecajn/v2'), [{ date: '2020-05-27', quote: 'HRK', rate: '7.575000', unit: 1, direction: 'indirect' }]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>Error</title></head><body>Whitelabel Error Page</body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    const full = `[${v3row('USD', '1,0450')},${v3row('GBP', '0,8300')}]`;
    assert.throws(() => parse(full.slice(0, -30)), /not JSON/);
  });

  test('rejects empty tables, and a kuna list without its euro row', () => {
    assert.throws(() => parse('[]'), /holds no rates/);
    assert.throws(() => parse(`[${v2row('JPY', 100, '6,321000')}]`, 'https://api.hnb.hr/tecajn/v2'), /holds no rates/);
    assert.throws(() => parse('{"status":404,"error":"Not Found"}'), /not an array/);
  });

  test('rejects bad rows', () => {
    assert.throws(() => parse(`[${v3row('USD', '1,04,50')}]`), /bad USD middle rate/);
    assert.throws(() => parse(`[${v3row('usd', '1,0450')}]`), /bad currency/);
    assert.throws(() => parse(`[${v3row('USD', '1,0450').replace('"2026-03-06"', '"06.03.2026"')}]`), /bad application date/);
    assert.throws(() => parse(`[${v2row('EUR', 0, '7,575000')}]`), /bad EUR jedinica/);
    assert.throws(() => parse(`[${v2row('EUR', 1, '7,575000', 'dan')}]`), /bad application date/);
  });

  test('accepts the v2 and v3 APIs only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://api.hnb.hr/tecajn/v2?datum-primjene=2022-05-27'));
    assert.ok(!source.accepts('https://api.hnb.hr/tecajn/v1'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('NBHR requests', () => {
  const servers: { close(): Promise<void> }[] = [];
  after(() => Promise.all(servers.map((s) => s.close())));

  test('v3 for euro-era windows, v2 for kuna-era ones, both across the changeover', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/tecajn-eur/v3?datum-primjene-od=2026-03-02&datum-primjene-do=2026-03-06' }]);
    assert.ok(requests.every((r) => source.accepts(r.name ?? r.url)));
    assert.deepEqual(source.requests({ from: '2022-12-28', to: '2023-01-03' }, { base: 'https://api.hnb.hr' }), [
      { url: 'https://api.hnb.hr/tecajn/v2?datum-primjene-od=2022-12-28&datum-primjene-do=2022-12-31' },
      { url: 'https://api.hnb.hr/tecajn-eur/v3?datum-primjene-od=2023-01-01&datum-primjene-do=2023-01-03' },
    ]);
    assert.deepEqual(source.requests({ from: '2020-01-01', to: '2020-01-31' }, { base: 'https://api.hnb.hr' }), [
      { url: 'https://api.hnb.hr/tecajn/v2?datum-primjene-od=2020-01-01&datum-primjene-do=2020-01-31' },
    ]);
  });

  test('round trip through a local feed server', async () => {
    const body = readFileSync(new URL(V3, DIR));
    const server = await startFeedServer({ '/tecajn-eur/v3?datum-primjene-od=2026-03-02&datum-primjene-do=2026-03-06': { body, contentType: 'application/json;charset=UTF-8' } });
    servers.push(server);
    const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
    assert.equal(payloads.length, 1);
    assert.deepEqual(source.parse(payloads[0]!), parseFile(V3));
  });
});
