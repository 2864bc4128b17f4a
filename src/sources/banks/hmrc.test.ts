import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fixtureDir } from '../../../test/support/fixtures.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { source } from './hmrc.js';

const DIR = fixtureDir('HMRC');
// The recorded payloads (SOURCE.md describes them and is not one).
const FILES = [
  'exrates-monthly-0121.xml',
  'exrates-monthly-0615.xml',
  'monthly_csv_2021-1.csv',
  'monthly_csv_2026-10-404.json',
  'monthly_csv_2026-8.csv',
  'monthly_csv_2026-9.csv',
  'monthly_xml_2026-8.xml',
];
// The API's answer for October 2026 asked for on 11 September, before HMRC published it.
const NO_RATES: readonly string[] = ['monthly_csv_2026-10-404.json'];
const WINDOW = { from: '2026-08-28', to: '2026-09-11' };
const FILES_PATH = '/uk/api/exchange_rates/files';

const parseFile = (name: string): Observation[] => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], quote: string) => obs.find((o) => o.quote === quote)?.rate;
const periods = (obs: Observation[]) => [...new Set(obs.map((o) => `${o.date}..${o.validTo}`))];

describe('HMRC recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const names = readdirSync(DIR).sort();
    assert.deepEqual(names.filter((f) => source.accepts(f)), FILES);
  });

  test('every recorded payload parses to period rates, units per £1 (or is the listed 404)', () => {
    for (const name of FILES) {
      if (NO_RATES.includes(name)) {
        assert.throws(() => parseFile(name), (err: unknown) => err instanceof NoPublication && /not found/.test(err.message), name);
        continue;
      }
      const obs = parseFile(name);
      assert.ok(obs.length > 150, `${name} gave ${obs.length} rates`);
      for (const o of obs) {
        assert.match(`${o.date} ${o.validTo} ${o.quote} ${o.rate}`, /^\d{4}-\d{2}-01 \d{4}-\d{2}-\d{2} [A-Z]{3} \d+(\.\d+)?$/, name);
        assert.equal(o.direction, 'indirect');
        assert.equal(o.unit, 1);
      }
    }
  });

  test('September 2026: 163 rows, 141 codes, in force 1 to 30 September; exact values from the CSV', () => {
    const obs = parseFile('monthly_csv_2026-9.csv');
    assert.equal(obs.length, 163);
    assert.equal(new Set(obs.map((o) => o.quote)).size, 141);
    assert.deepEqual(periods(obs), ['2026-09-01..2026-09-30']);
    assert.equal(rate(obs, 'USD'), '1.3554');
    assert.equal(rate(obs, 'EUR'), '1.1681');
    assert.equal(rate(obs, 'JPY'), '215.6954');
    assert.equal(rate(obs, 'CHF'), '1.0982');
    assert.equal(rate(obs, 'AED'), '4.9776');
    assert.equal(rate(obs, 'XPF'), '139.3895');
    // The 2026 files already use the new codes.
    assert.equal(rate(obs, 'ZWG'), '36.2052');
    assert.equal(rate(obs, 'SLE'), '31.0248');
    assert.equal(rate(obs, 'VES'), '1047.3299');
  });

  test('a currency repeats once per country with one value: XOF eight times, XAF six, XCD seven', () => {
    const obs = parseFile('monthly_csv_2026-9.csv');
    const of = (quote: string) => obs.filter((o) => o.quote === quote).map((o) => o.rate);
    assert.deepEqual(of('XOF'), Array(8).fill('766.2127'));
    assert.equal(of('XAF').length, 6);
    assert.equal(new Set(of('XAF')).size, 1);
    assert.equal(of('XCD').length, 7);
    assert.equal(new Set(of('XCD')).size, 1);
    assert.deepEqual(of('AED'), ['4.9776', '4.9776', '4.9776']);
  });

  test('August 2026: the CSV and the XML of the same month carry the same rows', () => {
    const csv = parseFile('monthly_csv_2026-8.csv');
    assert.deepEqual(parseFile('monthly_xml_2026-8.xml'), csv);
    assert.deepEqual(periods(csv), ['2026-08-01..2026-08-31']);
    assert.equal(rate(csv, 'USD'), '1.3367');
    assert.equal(rate(csv, 'EUR'), '1.1719');
    assert.equal(rate(csv, 'XOF'), '768.7193');
  });

  test('January 2021: codes current then (STD, SLL, ZWL, HRK) stay; Ecuador\'s US dollar under ECS is left out', () => {
    const raw = readFileSync(new URL('monthly_csv_2021-1.csv', DIR), 'utf8');
    assert.match(raw, /\nEcuador,Dollar,ECS,1\.3497,/);
    const obs = parseFile('monthly_csv_2021-1.csv');
    assert.equal(obs.length, 165);
    assert.equal(rate(obs, 'ECS'), undefined);
    assert.equal(rate(obs, 'USD'), '1.3497');
    assert.equal(rate(obs, 'STD'), '27547.2000');
    assert.equal(rate(obs, 'SLL'), '13631.8800');
    assert.equal(rate(obs, 'ZWL'), '488.4500');
    assert.equal(rate(obs, 'HRK'), '8.3424');
    // The published trailing zeros stay.
    assert.equal(rate(obs, 'JPY'), '139.7100');
    assert.deepEqual(parseFile('exrates-monthly-0121.xml'), obs);
  });

  test('June 2015, the legacy XML: no encoding declared, names with trailing spaces, BYR and VEF', () => {
    const obs = parseFile('exrates-monthly-0615.xml');
    assert.deepEqual(periods(obs), ['2015-06-01..2015-06-30']);
    assert.equal(obs[0]!.quote, 'ARS');
    assert.equal(rate(obs, 'ARS'), '13.93');
    assert.equal(rate(obs, 'USD'), '1.555');
    assert.equal(rate(obs, 'JPY'), '188.54');
    assert.equal(rate(obs, 'BYR'), '22424.74');
    // Written without decimals where the figure has none.
    assert.equal(rate(obs, 'SEK'), '13');
    assert.equal(rate(obs, 'VEF'), '9.9332');
    assert.equal(rate(obs, 'ECS'), undefined);
  });
});

describe('HMRC edge cases', () => {
  const CSV = 'Country/Territories,Currency,Currency Code,Currency Units per £1,Start date,End date\nUSA,Dollar,USD,1.3554,01/09/2026,30/09/2026\n';
  const parse = (body: string, name = 'monthly_csv_2026-9.csv') => source.parse({ name, body: Buffer.from(body) });

  test('a mid-month amendment keeps its own start date', () => {
    assert.deepEqual(parse(`${CSV}USA,Dollar,USD,1.4000,15/09/2026,30/09/2026\n`).map((o) => `${o.date}..${o.validTo} ${o.rate}`), ['2026-09-01..2026-09-30 1.3554', '2026-09-15..2026-09-30 1.4000']);
  });

  test('an HTML error page, another CSV, a truncated XML and bad rows are ParseErrors', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><body>Service unavailable</body></html>'), ParseError);
    assert.throws(() => parse('date,currency,rate\n2026-09-01,USD,1.3554\n'), /not HMRC's monthly CSV/);
    assert.throws(() => parse(CSV.split('\n')[0]!), /holds no rates/);
    assert.throws(() => parse(CSV.replace('1.3554', '1,3554')), /USD on 2026-09-01: not a number|bad period/);
    assert.throws(() => parse(CSV.replace('01/09/2026', '2026-09-01')), /bad period/);
    assert.throws(() => parse(CSV.replace('USD', 'US')), /bad currency code/);
    const xml = readFileSync(new URL('monthly_xml_2026-8.xml', DIR), 'utf8');
    assert.throws(() => parse(xml.slice(0, 2000), 'monthly_xml_2026-8.xml'), /not well-formed XML/);
    assert.throws(() => parse(xml.replace('01/Aug/2026 to', '2026-08-01 to'), 'monthly_xml_2026-8.xml'), /bad Period/);
  });
});

describe('HMRC requests', () => {
  test('one CSV per month of the window and the coming month\'s, which may answer 404', () => {
    const requests = source.requests(WINDOW, { base: 'http://127.0.0.1:1' });
    assert.deepEqual(requests, [
      { url: `http://127.0.0.1:1${FILES_PATH}/monthly_csv_2026-8.csv` },
      { url: `http://127.0.0.1:1${FILES_PATH}/monthly_csv_2026-9.csv` },
      { url: `http://127.0.0.1:1${FILES_PATH}/monthly_csv_2026-10.csv`, optional: true },
    ]);
    for (const r of requests) assert.ok(source.accepts(r.url), r.url);
    // A backfill from the API's first file: one request a month.
    assert.equal(source.requests({ from: '2021-01-01', to: '2026-09-11' }, { base: 'http://x' }).length, 70);
  });

  test('round trip through the local feed server: the months held, the unpublished month\'s 404 skipped', async () => {
    const routes: Record<string, Buffer> = {
      [`${FILES_PATH}/monthly_csv_2026-8.csv`]: readFileSync(new URL('monthly_csv_2026-8.csv', DIR)),
      [`${FILES_PATH}/monthly_csv_2026-9.csv`]: readFileSync(new URL('monthly_csv_2026-9.csv', DIR)),
    };
    const notFound = readFileSync(new URL('monthly_csv_2026-10-404.json', DIR));
    const server = await startFeedServer((path) => (routes[path] ? { body: routes[path]!, contentType: 'text/csv; charset=utf-8' } : { status: 404, body: notFound, contentType: 'application/json; charset=utf-8' }));
    try {
      const payloads = await fetchSource(source, WINDOW, { base: server.url }, createHttpClient({ retries: 0 }));
      assert.deepEqual(server.requests.map((r) => r.url), [`${FILES_PATH}/monthly_csv_2026-8.csv`, `${FILES_PATH}/monthly_csv_2026-9.csv`, `${FILES_PATH}/monthly_csv_2026-10.csv`]);
      assert.equal(payloads.length, 2);
      assert.deepEqual(source.parse(payloads[0]!), parseFile('monthly_csv_2026-8.csv'));
      assert.deepEqual(source.parse(payloads[1]!), parseFile('monthly_csv_2026-9.csv'));
    } finally {
      await server.close();
    }
  });
});
