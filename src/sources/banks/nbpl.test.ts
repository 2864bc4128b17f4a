import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './nbpl.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('NBPL');

const parse = (body: string) => source.parse({ name: 'api/exchangerates/tables/A/', body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], date: string, quote: string) =>
  obs.find((o) => o.date === date && o.quote === quote)?.rate;
const dates = (obs: Observation[]) => [...new Set(obs.map((o) => o.date))];

const TABLE_A = 'AUD BRL CAD CHF CLP CNY CZK DKK EUR GBP HKD HUF IDR ILS INR ISK JPY KRW MXN MYR NOK NZD PHP RON SEK SGD THB TRY UAH USD XDR ZAR'.split(' ');

describe('NBPL recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), ['tables-A-2026-03-01_2026-03-05.json', 'tables-B-2026-03-01_2026-03-05.json']);
  });

  test('table A: four business days of 32 currencies, PLN per 1 unit', () => {
    const obs = parseFile('tables-A-2026-03-01_2026-03-05.json');
    assert.deepEqual(dates(obs), ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05']);
    assert.equal(obs.length, 4 * 32);
    for (const date of dates(obs)) assert.deepEqual(obs.filter((o) => o.date === date).map((o) => o.quote).sort(), TABLE_A);
    assert.ok(obs.every((o) => o.table === 'A' && o.unit === 1 && o.direction === 'direct'));
    assert.equal(rate(obs, '2026-03-02', 'USD'), '3.6056');
    assert.equal(rate(obs, '2026-03-02', 'EUR'), '4.2304');
    // The printed table quotes 100 HUF and 100 JPY; the API already gives PLN per 1.
    assert.equal(rate(obs, '2026-03-02', 'HUF'), '0.011155');
    assert.equal(rate(obs, '2026-03-02', 'JPY'), '0.022963');
    assert.equal(rate(obs, '2026-03-02', 'IDR'), '0.00021385');
    assert.equal(rate(obs, '2026-03-02', 'XDR'), '4.9266');
    // Published as 3.6820 and 2.6410: the JSON numbers' trailing zeros are kept.
    assert.equal(rate(obs, '2026-03-03', 'USD'), '3.6820');
    assert.equal(rate(obs, '2026-03-02', 'CAD'), '2.6410');
    assert.equal(rate(obs, '2026-03-03', 'CLP'), '0.004175');
    assert.equal(rate(obs, '2026-03-05', 'EUR'), '4.2739');
  });

  test('table B: one Wednesday table of 116 currencies', () => {
    const obs = parseFile('tables-B-2026-03-01_2026-03-05.json');
    assert.deepEqual(dates(obs), ['2026-03-04']);
    assert.equal(obs.length, 116);
    assert.ok(obs.every((o) => o.table === 'B' && o.unit === 1 && o.direction === 'direct'));
    for (const q of ['AFN', 'VES', 'ZWG', 'XCG', 'SLE', 'RUB', 'BYN']) assert.ok(rate(obs, '2026-03-04', q), q);
    assert.equal(rate(obs, '2026-03-04', 'AFN'), '0.056626');
    assert.equal(rate(obs, '2026-03-04', 'MGA'), '0.000881');
    assert.equal(rate(obs, '2026-03-04', 'PAB'), '3.6770');
    assert.equal(rate(obs, '2026-03-04', 'NIO'), '0.1000');
    assert.equal(rate(obs, '2026-03-04', 'VND'), '0.00014035');
    // 0.0000028 comes out of JSON as 2.8e-6; no exponent and no float noise may reach the rate.
    assert.equal(rate(obs, '2026-03-04', 'IRR'), '0.0000028');
  });

  test('requests tables A and B per range of at most 93 days and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    // Optional: NBP answers 404 for a range with no table, which is no publication, not a fault.
    assert.deepEqual([...requests], [
      { url: 'http://127.0.0.1:1/exchangerates/tables/A/2026-03-02/2026-03-06/?format=json', optional: true },
      { url: 'http://127.0.0.1:1/exchangerates/tables/B/2026-03-02/2026-03-06/?format=json', optional: true },
    ]);
    // 181 days: 1 Jan–3 Apr is 93 days, the rest follows.
    assert.deepEqual(
      source.requests({ from: '2026-01-01', to: '2026-06-30' }, { base: source.baseUrl }).map((r) => r.url),
      [
        'https://api.nbp.pl/api/exchangerates/tables/A/2026-01-01/2026-04-03/?format=json',
        'https://api.nbp.pl/api/exchangerates/tables/B/2026-01-01/2026-04-03/?format=json',
        'https://api.nbp.pl/api/exchangerates/tables/A/2026-04-04/2026-06-30/?format=json',
        'https://api.nbp.pl/api/exchangerates/tables/B/2026-04-04/2026-06-30/?format=json',
      ],
    );
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const body = (file: string) => ({ body: readFileSync(new URL(file, DIR)), contentType: 'application/json' });
    const server = await startFeedServer({
      '/exchangerates/tables/A/2026-03-02/2026-03-06/?format=json': body('tables-A-2026-03-01_2026-03-05.json'),
      '/exchangerates/tables/B/2026-03-02/2026-03-06/?format=json': body('tables-B-2026-03-01_2026-03-05.json'),
    });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p)), [
        ...parseFile('tables-A-2026-03-01_2026-03-05.json'),
        ...parseFile('tables-B-2026-03-01_2026-03-05.json'),
      ]);
      assert.equal(server.requests.length, 2);
    } finally {
      await server.close();
    }
  });
});

describe('NBPL days without a table', () => {
  test('a 404 for table B on a range without a Wednesday is skipped, table A still read', async () => {
    const A = '[{"table":"A","no":"046/A/NBP/2026","effectiveDate":"2026-03-09","rates":[{"currency":"dolar amerykański","code":"USD","mid":3.6812}]}]';
    const server = await startFeedServer({
      '/exchangerates/tables/A/2026-03-07/2026-03-09/?format=json': { body: A, contentType: 'application/json' },
      '/exchangerates/tables/B/2026-03-07/2026-03-09/?format=json': { status: 404, body: '404 NotFound - Not Found - Brak danych', contentType: 'text/plain' },
    });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-07', to: '2026-03-09' }, { base: server.url }, createHttpClient({ retries: 0 }));
      assert.equal(server.requests.length, 2);
      assert.deepEqual(payloads.flatMap((p) => source.parse(p)), [{ date: '2026-03-09', quote: 'USD', rate: '3.6812', unit: 1, direction: 'direct', table: 'A' }]);
    } finally {
      await server.close();
    }
  });
});

describe('NBPL edge cases', () => {
  const table = (rates: string, letter = 'A') =>
    `{"table":"${letter}","no":"045/${letter}/NBP/2026","effectiveDate":"2026-03-06","rates":[${rates}]}`;
  const USD = '{"currency":"dolar amerykański","code":"USD","mid":3.6812}';

  test('keeps the table letter and never lets float noise through', () => {
    const obs = parse(`[${table(`${USD},{"currency":"rial irański","code":"IRR","mid":1e-7},{"currency":"x","code":"XXX","mid":0.30000000000000004}`)}]`);
    assert.deepEqual(obs[0], { date: '2026-03-06', quote: 'USD', rate: '3.6812', unit: 1, direction: 'direct', table: 'A' });
    assert.equal(obs[1]!.rate, '0.0000001');
    assert.equal(obs[2]!.rate, '0.3');
  });

  test('rejects an HTML error page and the plain-text 404', () => {
    assert.throws(() => parse('<html><head><title>400 BadRequest</title></head><body>Błędny zakres dat</body></html>'), ParseError);
    assert.throws(() => parse('404 NotFound - Not Found - Brak danych'), ParseError);
  });

  test('rejects a truncated payload', () => {
    const full = `[${table(USD)}]`;
    assert.throws(() => parse(full.slice(0, -10)), /not JSON/);
  });

  test('rejects empty tables', () => {
    assert.throws(() => parse('[]'), /no tables/);
    assert.throws(() => parse(`[${table('')}]`), /has no rates/);
  });

  test('rejects table C and rates without a mid', () => {
    assert.throws(() => parse(`[${table('{"currency":"dolar","code":"USD","bid":3.6,"ask":3.7}', 'C')}]`), /not A or B/);
    assert.throws(() => parse(`[${table('{"currency":"dolar","code":"USD","bid":3.6,"ask":3.7}')}]`), /no mid for USD/);
    assert.throws(() => parse(`[${table('{"currency":"dolar","code":"USD","mid":"3,68x"}')}]`), /bad USD mid/);
  });

  test('accepts the table A and B feeds only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://api.nbp.pl/api/exchangerates/tables/B/2026-03-01/2026-03-05/?format=json'));
    assert.ok(!source.accepts('https://api.nbp.pl/api/exchangerates/tables/C/?format=json'));
    assert.ok(!source.accepts('https://api.nbp.pl/api/exchangerates/tables/A/?format=xml'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
