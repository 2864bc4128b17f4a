import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './bita.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BITA');
const FILES = ['dailyRates-EUR-2026-02-09.csv', 'dailyRates-EUR-2026-02-10.csv'];

const parse = (body: string) =>
  source.parse({ name: 'https://tassidicambio.bancaditalia.it/terzevalute-wf-web/rest/v1.0/dailyRates?referenceDate=2026-03-02&currencyIsoCode=EUR&lang=en', body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], quote: string) => obs.find((o) => o.quote === quote)?.rate;

describe('BITA recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), FILES);
  });

  for (const [file, date] of [[FILES[0]!, '2026-02-09'], [FILES[1]!, '2026-02-10']] as const) {
    test(`${date}: 171 rows, 154 currencies, 150 quoted, foreign units per 1 EUR`, () => {
      const obs = parseFile(file);
      assert.ok(obs.every((o) => o.date === date && o.unit === 1 && o.direction === 'indirect'));
      // XOF (8 countries), XAF and XCD (6 each) appear once; BYN, IRR, KPW and RUB are "N.A.".
      assert.equal(obs.length, 150);
      assert.equal(new Set(obs.map((o) => o.quote)).size, 150);
      for (const q of ['BYN', 'IRR', 'KPW', 'RUB', 'EUR']) assert.equal(rate(obs, q), undefined, q);
      assert.equal(rate(obs, 'XOF'), '655.957');
      assert.equal(rate(obs, 'XAF'), '655.957');
      assert.equal(rate(obs, 'KWD'), '0.3643');
    });
  }

  test('exact figures of both days, trailing zeros kept', () => {
    const mon = parseFile(FILES[0]!);
    const tue = parseFile(FILES[1]!);
    assert.equal(rate(mon, 'USD'), '1.1886');
    assert.equal(rate(mon, 'JPY'), '185.6500');
    assert.equal(rate(mon, 'GBP'), '0.87010');
    assert.equal(rate(mon, 'XDR'), '0.863189');
    assert.equal(rate(mon, 'VND'), '30832');
    assert.equal(rate(mon, 'BBD'), '2.377200');
    assert.equal(rate(mon, 'VES'), '454.2277');
    assert.equal(rate(mon, 'AFN'), '75.5197');
    assert.equal(rate(mon, 'XCD'), '3.2092');
    assert.equal(rate(mon, 'ZWG'), '30.3944');
    assert.equal(rate(tue, 'USD'), '1.1894');
    assert.equal(rate(tue, 'JPY'), '184.5100');
    assert.equal(rate(tue, 'GBP'), '0.86950');
    assert.equal(rate(tue, 'XDR'), '0.862332');
    assert.equal(rate(tue, 'ALL'), '96.29');
    assert.equal(rate(tue, 'CNY'), '8.2245');
  });

  test('the requests built on the base URL fetch payloads that parse like the files', async () => {
    const server = await startFeedServer({
      '/terzevalute-wf-web/rest/v1.0/dailyRates?referenceDate=2026-02-09&currencyIsoCode=EUR&lang=en': { body: readFileSync(new URL(FILES[0]!, DIR)), contentType: 'text/csv' },
      '/terzevalute-wf-web/rest/v1.0/dailyRates?referenceDate=2026-02-10&currencyIsoCode=EUR&lang=en': { body: readFileSync(new URL(FILES[1]!, DIR)), contentType: 'text/csv' },
    });
    try {
      const payloads = await fetchSource(source, { from: '2026-02-08', to: '2026-02-10' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 2, 'Sunday 8 February is not asked for');
      assert.ok(payloads.every((p) => source.accepts(p.name)));
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILES[0]!));
      assert.deepEqual(source.parse(payloads[1]!), parseFile(FILES[1]!));
      assert.equal(server.requests[0]!.headers.accept, 'text/csv');
    } finally {
      await server.close();
    }
  });
});

describe('BITA edge cases', () => {
  const HEADER = 'Country,Currency,ISO Code,UIC Code,Rate,Rate convention,Reference date (CET)';
  const row = (country: string, code: string, rate: string) => `${country},Currency,${code},000,${rate},Foreign currency amount for 1 Euro.,2026-03-02`;
  const FOOTER = '\n\n# DISCLAIMER\n# Banca d\u2019Italia accepts no responsibility for any inaccuracy or error caused for whatever reason.\n';
  const CSV = [HEADER, row('BENIN', 'XOF', '655.957'), row('"KOREA, REPUBLIC OF"', 'KRW', '1712.45'), row('RUSSIA', 'RUB', 'N.A.'), row('TOGO', 'XOF', '655.957')].join('\n') + FOOTER;

  test('reads quoted fields, keeps one row per currency, skips N.A. and the footer', () => {
    assert.deepEqual(parse(CSV), [
      { date: '2026-03-02', quote: 'XOF', rate: '655.957', unit: 1, direction: 'indirect' },
      { date: '2026-03-02', quote: 'KRW', rate: '1712.45', unit: 1, direction: 'indirect' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!doctype html><html><head><title>Error 500</title></head><body>Internal Server Error</body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    assert.throws(() => parse(CSV.slice(0, CSV.indexOf(',Foreign currency amount for 1 Euro.,2026-03-02\nRUSSIA'))), /line 3 has 5 cells/);
  });

  test('rejects an empty table, other conventions and disagreeing rows', () => {
    assert.throws(() => parse(`${HEADER}${FOOTER}`), /holds no rates/);
    assert.throws(() => parse(`${HEADER}\n${row('RUSSIA', 'RUB', 'N.A.')}${FOOTER}`), /holds no rates/);
    assert.throws(() => parse(CSV.replace('KRW,000,1712.45,Foreign currency amount for 1 Euro.', 'KRW,000,1440.9,Foreign currency amount for 1 Dollar.')), /convention/);
    assert.throws(() => parse(CSV.replace('TOGO,Currency,XOF,000,655.957', 'TOGO,Currency,XOF,000,656')), /XOF has two rates/);
    assert.throws(() => parse(CSV.replace('1712.45', '1712.45.0')), /bad KRW rate/);
  });

  test('a list without rows (a holiday) is no publication; a list of N.A. only is a fault', () => {
    assert.throws(() => parse(`${HEADER}${FOOTER}`), NoPublication);
    assert.throws(() => parse(`${HEADER}\n${row('RUSSIA', 'RUB', 'N.A.')}${FOOTER}`), (err) => err instanceof ParseError && !(err instanceof NoPublication));
  });

  test('builds one request per weekday of the window on the base URL, each accepted', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(
      requests.map((r) => r.url),
      ['02', '03', '04', '05', '06'].map((d) => `http://127.0.0.1:1/terzevalute-wf-web/rest/v1.0/dailyRates?referenceDate=2026-03-${d}&currencyIsoCode=EUR&lang=en`),
    );
    assert.ok(requests.every((r) => r.method === undefined && r.headers?.accept === 'text/csv'));
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url));
    assert.deepEqual(source.requests({ from: '2026-03-07', to: '2026-03-08' }, { base: 'http://127.0.0.1:1' }), []);
  });

  test('accepts EUR daily lists only', () => {
    assert.ok(!source.accepts('https://tassidicambio.bancaditalia.it/terzevalute-wf-web/rest/v1.0/dailyRates?referenceDate=2026-03-02&currencyIsoCode=USD&lang=en'));
    assert.ok(!source.accepts(source.feedUrl), 'latestRates has another layout');
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
