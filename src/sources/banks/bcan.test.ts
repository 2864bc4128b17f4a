import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './bcan.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BCAN');

const parse = (body: string) => source.parse({ name: 'valet/observations/group/FX_RATES_DAILY/json', body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], date: string, quote: string) =>
  obs.find((o) => o.date === date && o.quote === quote)?.rate;
const dates = (obs: Observation[]) => [...new Set(obs.map((o) => o.date))];

// seriesDetail also lists FXMYRCAD, FXTHBCAD and FXVNDCAD, but no observation carries them.
const CCY = 'AUD BRL CHF CNY EUR GBP HKD IDR INR JPY KRW MXN NOK NZD PEN RUB SAR SEK SGD TRY TWD USD ZAR'.split(' ');

describe('BCAN recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [
      'valet-FX_RATES_DAILY-start_date-2025-01-01.json',
      'valet-FX_RATES_DAILY-start_date-2026-03-12.json',
    ]);
  });

  test('history from 2025-01-01: 299 business days × 23 series, CAD per unit', () => {
    const obs = parseFile('valet-FX_RATES_DAILY-start_date-2025-01-01.json');
    const days = dates(obs);
    assert.equal(days.length, 299);
    assert.equal(days[0], '2025-01-02');
    assert.equal(days.at(-1), '2026-03-13');
    assert.equal(obs.length, 299 * 23);
    assert.deepEqual([...new Set(obs.map((o) => o.quote))].sort(), CCY);
    assert.equal(rate(obs, '2025-01-02', 'USD'), '1.4418');
    assert.equal(rate(obs, '2025-01-02', 'EUR'), '1.4816');
    // Published as 0.009160 and 0.04080: the bank's digits are kept, trailing zeros included.
    assert.equal(rate(obs, '2025-01-02', 'JPY'), '0.009160');
    assert.equal(rate(obs, '2025-01-02', 'TRY'), '0.04080');
    assert.equal(rate(obs, '2025-07-02', 'KRW'), '0.001003');
    assert.equal(rate(obs, '2026-03-13', 'IDR'), '0.000081');
    assert.equal(rate(obs, '2026-03-13', 'RUB'), '0.01710');
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'direct'));
  });

  test('five days from 2026-03-12', () => {
    const obs = parseFile('valet-FX_RATES_DAILY-start_date-2026-03-12.json');
    assert.deepEqual(dates(obs), ['2026-03-12', '2026-03-13', '2026-03-16', '2026-03-17', '2026-03-18']);
    assert.equal(obs.length, 5 * 23);
    assert.equal(rate(obs, '2026-03-12', 'USD'), '1.3617');
    assert.equal(rate(obs, '2026-03-13', 'USD'), '1.3716');
    assert.equal(rate(obs, '2026-03-18', 'USD'), '1.3706');
    assert.equal(rate(obs, '2026-03-18', 'GBP'), '1.8258');
    assert.equal(rate(obs, '2026-03-17', 'INR'), '0.01483');
    assert.equal(rate(obs, '2026-03-18', 'KRW'), '0.000913');
  });

  test('requests one Valet group URL for the window and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [
      { url: 'http://127.0.0.1:1/observations/group/FX_RATES_DAILY/json?start_date=2026-03-02&end_date=2026-03-06' },
    ]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const file = 'valet-FX_RATES_DAILY-start_date-2026-03-12.json';
    const server = await startFeedServer({
      '/observations/group/FX_RATES_DAILY/json?start_date=2026-03-02&end_date=2026-03-06': { body: readFileSync(new URL(file, DIR)) },
    });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 1);
      assert.deepEqual(payloads.flatMap((p) => source.parse(p)), parseFile(file));
      assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url}`), [
        'GET /observations/group/FX_RATES_DAILY/json?start_date=2026-03-02&end_date=2026-03-06',
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('BCAN edge cases', () => {
  const row = (d: string, series: string) => `{"d": "${d}", ${series}}`;
  const valet = (...rows: string[]) => `{
    "terms": {"url": "https://www.bankofcanada.ca/terms/"},
    "seriesDetail": {"FXUSDCAD": {"label": "USD/CAD"}, "FXEURCAD": {"label": "EUR/CAD"}},
    "observations": [${rows.join(',')}]
}`;

  test('skips blank and missing values, and series not shaped FX???CAD', () => {
    const obs = parse(
      valet(
        row('2026-03-19', '"FXUSDCAD": {"v": "1.3712"}, "FXEURCAD": {"v": ""}, "AVG.INTWO": {"v": "0.5"}'),
        row('2026-03-20', '"FXUSDCAD": {}, "FXEURCAD": {"v": "1.5801"}, "FXUSDCADX": {"v": "9"}'),
      ),
    );
    assert.deepEqual(obs, [
      { date: '2026-03-19', quote: 'USD', rate: '1.3712', unit: 1, direction: 'direct' },
      { date: '2026-03-20', quote: 'EUR', rate: '1.5801', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    const html = '<!DOCTYPE html><html lang="en"><head><title>Page not found | Bank of Canada</title></head><body>404</body></html>';
    assert.throws(() => parse(html), ParseError);
  });

  test('rejects a truncated payload', () => {
    const full = valet(row('2026-03-19', '"FXUSDCAD": {"v": "1.3712"}'));
    assert.throws(() => parse(full.slice(0, full.length - 20)), /not JSON/);
  });

  test('rejects an empty table, a Valet error and a day with only blanks', () => {
    assert.throws(() => parse(valet()), /holds no rates/);
    assert.throws(() => parse('{"message": "Series FXXXXCAD not found.", "docs": "https://www.bankofcanada.ca/valet/docs"}'), /no observations/);
    assert.throws(() => parse(valet(row('2026-03-19', '"FXUSDCAD": {"v": ""}'))), /holds no rates/);
  });

  test('a date range without business days is no publication, not a failing feed', () => {
    const name = 'valet/observations/group/FX_RATES_DAILY/json?start_date=2026-03-07&end_date=2026-03-08';
    assert.throws(() => source.parse({ name, body: Buffer.from(valet()) }), NoPublication);
    // The same empty answer to the recent=1 feed is a fault.
    assert.throws(() => parse(valet()), (err) => err instanceof ParseError && !(err instanceof NoPublication));
  });

  test('rejects a value or date that is not one', () => {
    assert.throws(() => parse(valet(row('2026-03-19', '"FXUSDCAD": {"v": "n/a"}'))), /bad FXUSDCAD value/);
    assert.throws(() => parse(valet(row('19/03/2026', '"FXUSDCAD": {"v": "1.3712"}'))), /bad observation date/);
  });

  test('accepts the Valet group feed, not its CSV form or other files', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://www.bankofcanada.ca/valet/observations/group/FX_RATES_DAILY/json?start_date=2026-01-01'));
    assert.ok(source.accepts(`${source.baseUrl}/observations/group/FX_RATES_DAILY/json?start_date=2026-01-01&end_date=2026-01-31`));
    assert.ok(!source.accepts('https://www.bankofcanada.ca/valet/observations/group/FX_RATES_DAILY/csv'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
