import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fixtureDir } from '../../../test/support/fixtures.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { source } from './euie.js';

const DIR = fixtureDir('EUIE');
// The recorded payloads (SOURCE.md describes them and is not one).
const FILES = [
  'monthly-rates-1994-03.json',
  'monthly-rates-1998-12.json',
  'monthly-rates-1999-01.json',
  'monthly-rates-1999-02.json',
  'monthly-rates-1999-03.json',
  'monthly-rates-2000-01.json',
  'monthly-rates-2000-02.json',
  'monthly-rates-2000-03.json',
  'monthly-rates-2019-01.json',
  'monthly-rates-2026-09.json',
];
const WINDOW = { from: '2026-08-28', to: '2026-09-10' };
const PATH = '/budg/inforeuro/api/public/monthly-rates';

const parseFile = (name: string): Observation[] => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], quote: string) => obs.find((o) => o.quote === quote)?.rate;
const parse = (body: string, name = `https://ec.europa.eu${PATH}?lang=en&month=9&year=2026`) => source.parse({ name, body: Buffer.from(body) });

describe('EUIE recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    assert.deepEqual(readdirSync(DIR).sort().filter((f) => source.accepts(f)), FILES);
  });

  test('every payload: period rates for its whole calendar month, units per euro (per ECU before 1999)', () => {
    for (const name of FILES) {
      const obs = parseFile(name);
      const month = /(\d{4})-(\d{2})/.exec(name)!;
      const before1999 = Number(month[1]) < 1999;
      for (const o of obs) {
        assert.match(`${o.date} ${o.validTo} ${o.quote} ${o.rate}`, /^\d{4}-\d{2}-01 \d{4}-\d{2}-\d{2} [A-Z]{3} \d+(\.\d+)?$/, name);
        assert.equal(o.date, `${month[1]}-${month[2]}-01`, name);
        assert.equal(o.direction, 'indirect');
        assert.equal(o.table, before1999 ? 'XEU' : undefined, name);
      }
      assert.equal(new Set(obs.map((o) => o.quote)).size, obs.length, `${name}: a code repeats`);
    }
  });

  test('2026-09: 152 rows less the euro\'s own; exact values; ZIG is ZWG', () => {
    const obs = parseFile('monthly-rates-2026-09.json');
    assert.equal(obs.length, 151);
    assert.equal(obs[0]!.validTo, '2026-09-30');
    assert.equal(rate(obs, 'EUR'), undefined);
    assert.equal(rate(obs, 'USD'), '1.1643');
    assert.equal(rate(obs, 'GBP'), '0.8572');
    assert.equal(rate(obs, 'JPY'), '185.92');
    assert.equal(rate(obs, 'ZWG'), '30.85244');
    assert.equal(rate(obs, 'ZIG'), undefined);
    // Fixed pegs, and very large values written out in full.
    assert.equal(rate(obs, 'BAM'), '1.95583');
    assert.equal(rate(obs, 'XOF'), '655.957');
    assert.equal(rate(obs, 'IRR'), '1600446.78');
    assert.equal(rate(obs, 'BSD'), rate(obs, 'USD'));
  });

  test('2019-01: both bolívars, VEF in full; equal to the ECB\'s reference rates of 2018-12-28', () => {
    const obs = parseFile('monthly-rates-2019-01.json');
    assert.equal(obs.length, 155);
    assert.equal(rate(obs, 'VES'), '576.98327');
    assert.equal(rate(obs, 'VEF'), '57698326.62525');
    assert.equal(rate(obs, 'USD'), '1.1454');
    assert.equal(rate(obs, 'GBP'), '0.90273');
    assert.equal(rate(obs, 'JPY'), '126.4');
  });

  test('1999-01: the legacy euro currencies at their irrevocable rates; 1994-03 and 1998-12 per ECU', () => {
    const jan = parseFile('monthly-rates-1999-01.json');
    assert.equal(jan.length, 175);
    assert.equal(rate(jan, 'DEM'), '1.95583');
    assert.equal(rate(jan, 'FRF'), '6.55957');
    assert.equal(rate(jan, 'ITL'), '1936.27');
    assert.equal(rate(jan, 'USD'), '1.16675');
    const dec = parseFile('monthly-rates-1998-12.json');
    assert.equal(dec.length, 175);
    assert.equal(rate(dec, 'USD'), '1.15074');
    assert.equal(rate(dec, 'DEM'), '1.96028');
    assert.equal(rate(dec, 'XOF'), '657.325');
    // FRC, the Congolese franc's label until February 1999, is CDF.
    assert.equal(rate(dec, 'CDF'), '2.90741');
    const mar94 = parseFile('monthly-rates-1994-03.json');
    // 159 rows, four without a value (KGS, MDL, MKD, TMM).
    assert.equal(mar94.length, 155);
    assert.ok(!mar94.some((o) => ['KGS', 'MDL', 'MKD', 'TMM'].includes(o.quote)));
    assert.equal(rate(mar94, 'USD'), '1.12892');
    assert.equal(rate(mar94, 'DEM'), '1.93553');
    assert.equal(rate(mar94, 'GBP'), '0.760522');
    assert.equal(mar94[0]!.validTo, '1994-03-31');
  });

  test('the kwanza: AOR (reajustado) as published, AOK at the new magnitude is AOA, then AOA', () => {
    assert.equal(rate(parseFile('monthly-rates-1999-03.json'), 'AOR'), '772170');
    assert.equal(rate(parseFile('monthly-rates-1999-03.json'), 'CDF'), '2.74715');
    assert.equal(rate(parseFile('monthly-rates-2000-01.json'), 'AOA'), '5.54714');
    assert.equal(rate(parseFile('monthly-rates-2000-02.json'), 'AOA'), '5.78925');
    assert.equal(rate(parseFile('monthly-rates-2000-03.json'), 'AOA'), '5.68025');
    assert.equal(rate(parseFile('monthly-rates-2000-02.json'), 'USD'), '0.9848');
    assert.equal(rate(parseFile('monthly-rates-1999-02.json'), 'USD'), '1.141');
  });
});

describe('EUIE edge cases', () => {
  test('the month comes from the request; a month not set yet (an empty list) is no publication', () => {
    assert.deepEqual(parse('[{"country":"United States","currency":"US dollar","isoA3Code":"USD","isoA2Code":"US","value":1.1640,"comment":null}]', `https://ec.europa.eu${PATH}?lang=en&month=2&year=2024`), [
      { date: '2024-02-01', validTo: '2024-02-29', quote: 'USD', rate: '1.1640', unit: 1, direction: 'indirect' },
    ]);
    assert.throws(() => parse('[]'), NoPublication);
    assert.throws(() => parse('[]', `https://ec.europa.eu${PATH}?lang=en`), /does not say which month/);
  });

  test('an HTML page, another JSON and bad rows are ParseErrors', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><body>Service unavailable</body></html>'), ParseError);
    assert.throws(() => parse('{"status":500}'), /not InforEuro's list/);
    assert.throws(() => parse('[{"isoA3Code":"US","value":1.16}]'), /without an isoA3Code/);
    assert.throws(() => parse('[{"isoA3Code":"USD","value":"n/a"}]'), /USD in 2026-9: not a number/);
    assert.throws(() => parse('[{"isoA3Code":"USD","value":1.1643'), /is not JSON/);
  });
});

describe('EUIE requests', () => {
  test('one request a month of the window and the coming month\'s, which may not be set yet', () => {
    const requests = source.requests(WINDOW, { base: 'http://127.0.0.1:1' });
    assert.deepEqual(requests, [
      { url: `http://127.0.0.1:1${PATH}?lang=en&month=8&year=2026` },
      { url: `http://127.0.0.1:1${PATH}?lang=en&month=9&year=2026` },
      { url: `http://127.0.0.1:1${PATH}?lang=en&month=10&year=2026`, optional: true },
    ]);
    for (const r of requests) assert.ok(source.accepts(r.url), r.url);
    // A backfill from InforEuro's first month, March 1994.
    assert.equal(source.requests({ from: '1994-03-01', to: '2026-09-10' }, { base: 'http://x' }).length, 392);
  });

  test('round trip through the local feed server', async () => {
    const server = await startFeedServer((path) => {
      const month = /month=(\d+)&year=(\d+)/.exec(path);
      const file = month && `monthly-rates-${month[2]}-${month[1]!.padStart(2, '0')}.json`;
      return file && FILES.includes(file) ? { body: readFileSync(new URL(file, DIR)), contentType: 'application/json;charset=UTF-8' } : undefined;
    });
    // August was not recorded: the feed server's 404 for a month that must exist fails the fetch.
    await assert.rejects(fetchSource(source, WINDOW, { base: server.url }, createHttpClient({ retries: 0 })), /404/);
    try {
      const payloads = await fetchSource(source, { from: '2026-09-01', to: '2026-09-10' }, { base: server.url }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 1);
      assert.deepEqual(source.parse(payloads[0]!), parseFile('monthly-rates-2026-09.json'));
      assert.deepEqual(server.requests.slice(-2).map((r) => r.url), [`${PATH}?lang=en&month=9&year=2026`, `${PATH}?lang=en&month=10&year=2026`]);
    } finally {
      await server.close();
    }
  });
});
