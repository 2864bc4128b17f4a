import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fixtureDir } from '../../../test/support/fixtures.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { LABELS } from '../ustr-labels.js';
import { ParseError } from '../types.js';
import { source } from './ustr.js';

const DIR = fixtureDir('USTR');
// The recorded payloads (SOURCE.md describes them and is not one).
const FILES = ['rates_of_exchange-record_date-gte-2026-02-28.json'];
const WINDOW = { from: '2026-08-28', to: '2026-09-10' };
const PATH = '/services/api/fiscal_service/v1/accounting/od/rates_of_exchange';

const body = readFileSync(new URL(FILES[0]!, DIR));
const obs = source.parse({ name: FILES[0]!, body });
const raw = JSON.parse(body.toString('utf8')) as { data: { record_date: string; effective_date: string; country_currency_desc: string; exchange_rate: string }[] };
/** "first..last rate" of each figure of a currency, in order. */
const figures = (quote: string) => obs.filter((o) => o.quote === quote).map((o) => `${o.date}..${o.validTo} ${o.rate}`);
const parse = (rows: object[], total = rows.length) => source.parse({ name: 'rates_of_exchange', body: Buffer.from(JSON.stringify({ data: rows, meta: { count: rows.length, 'total-count': total, 'total-pages': 1 } })) });
const row = (label: string, rate: string, record = '2026-06-30', effective = record) => ({ record_date: record, effective_date: effective, country_currency_desc: label, exchange_rate: rate });

describe('USTR recorded payload', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    assert.deepEqual(readdirSync(DIR).sort().filter((f) => source.accepts(f)), FILES);
  });

  test('every label of the recording maps to a code; period rates, units per US dollar', () => {
    const labels = new Set(raw.data.map((r) => r.country_currency_desc));
    assert.equal(labels.size, 167);
    for (const label of labels) assert.ok(label in LABELS, label);
    for (const o of obs) {
      assert.match(`${o.date} ${o.validTo} ${o.quote} ${o.rate}`, /^2026-\d{2}-\d{2} 2026-(06-29|09-29) [A-Z]{3} \d+\.\d+$/);
      assert.equal(o.direction, 'indirect');
      assert.equal(o.unit, 1);
    }
    // 341 rows: the dollar economies' 1s, Cyprus's euro (Euro Zone's wins) and June's Bulgarian
    // label (the euro since 2026-01-01) are left out.
    assert.equal(raw.data.length, 341);
    assert.equal(obs.length, 297);
    assert.equal(new Set(obs.map((o) => o.quote)).size, 144);
    assert.ok(!obs.some((o) => o.quote === 'USD' || o.quote === 'BGN'));
  });

  test('a quarter\'s figures are in force from its record date to the day before the next quarter end', () => {
    assert.deepEqual(figures('EUR'), ['2026-03-31..2026-06-29 0.87', '2026-06-30..2026-09-29 0.877']);
    assert.deepEqual(figures('JPY'), ['2026-03-31..2026-06-29 159.41', '2026-06-30..2026-09-29 162.38']);
    assert.deepEqual(figures('GBP'), ['2026-03-31..2026-06-29 0.756', '2026-06-30..2026-09-29 0.756']);
    // The Treasury's own CZK figure (2.3 % off the ECB's cross, repeated in June).
    assert.deepEqual(figures('CZK'), ['2026-03-31..2026-06-29 20.825', '2026-06-30..2026-09-29 20.716']);
    assert.deepEqual(figures('XOF'), ['2026-03-31..2026-06-29 567.0', '2026-06-30..2026-09-29 571.5']);
    assert.deepEqual(figures('XAF'), ['2026-03-31..2026-06-29 570.79', '2026-06-30..2026-09-29 575.55']);
    assert.deepEqual(figures('ZWG'), ['2026-03-31..2026-06-29 24.839', '2026-06-30..2026-09-29 25.833']);
    assert.deepEqual(figures('CUC'), ['2026-03-31..2026-06-29 1.0', '2026-06-30..2026-09-29 1.0']);
  });

  test('amendments are figures of their own, from their effective date to their quarter\'s end', () => {
    assert.deepEqual(figures('ILS'), ['2026-03-31..2026-06-29 3.165', '2026-05-29..2026-06-29 2.807', '2026-06-30..2026-09-29 2.977']);
    assert.deepEqual(figures('RUB'), ['2026-03-31..2026-06-29 81.55', '2026-04-30..2026-06-29 73.2', '2026-06-30..2026-09-29 78.5', '2026-08-31..2026-09-29 86.6']);
    assert.deepEqual(figures('VES'), ['2026-03-31..2026-06-29 472.686', '2026-05-29..2026-06-29 547.998', '2026-06-30..2026-09-29 621.465', '2026-07-15..2026-09-29 723.933']);
    assert.deepEqual(figures('KRW'), ['2026-03-31..2026-06-29 1524.5', '2026-06-30..2026-09-29 1550.88', '2026-08-31..2026-09-29 1367.46']);
    assert.deepEqual(figures('SSP'), ['2026-03-31..2026-06-29 4600.0', '2026-06-30..2026-09-29 4800.0', '2026-08-14..2026-09-29 5700.0']);
    assert.deepEqual(figures('BIF'), ['2026-03-31..2026-06-29 3000.0', '2026-06-30..2026-09-29 3000.0', '2026-07-15..2026-09-29 3443.0']);
    assert.deepEqual(figures('BOB'), ['2026-03-31..2026-06-29 6.86', '2026-06-30..2026-09-29 6.85', '2026-07-15..2026-09-29 10.35']);
  });
});

describe('USTR labels', () => {
  test('a label stands for a code between its days; two labels of one code: the first listed wins', () => {
    assert.deepEqual(parse([row('Bulgaria-Lev New', '1.702', '2025-09-30'), row('Bulgaria-Lev New', '0.87')]).map((o) => `${o.quote} ${o.rate}`), ['BGN 1.702']);
    assert.deepEqual(parse([row('Mauritania-Ouguiya', '356.5', '2017-09-30'), row('Mauritania-Ouguiya', '35.6', '2018-03-31')]).map((o) => o.quote), ['MRO', 'MRU']);
    assert.deepEqual(parse([row('Cyprus-Euro', '0.878'), row('Euro Zone-Euro', '0.877')]).map((o) => `${o.quote} ${o.rate}`), ['EUR 0.877']);
    assert.deepEqual(parse([row('Ruritania-Crown', '9.1'), row('Japan-Yen', '162.38')]).map((o) => o.quote), ['JPY']);
  });

  test('a Fiscal Data error, a page short of its rows and an amendment after its quarter are ParseErrors', () => {
    assert.throws(() => source.parse({ name: 'x', body: Buffer.from('<!DOCTYPE html><html><body>Service unavailable</body></html>') }), ParseError);
    assert.throws(() => source.parse({ name: 'x', body: Buffer.from('{"error":"Invalid Query Param","message":"Invalid query parameter"}') }), /not a Fiscal Data answer/);
    assert.throws(() => parse([row('Japan-Yen', '162.38')], 10_001), /holds 1 of 10001 rows/);
    assert.throws(() => parse([row('Japan-Yen', '160.26', '2026-03-31', '2026-07-01')]), /effective 2026-07-01, after its quarter/);
    assert.throws(() => parse([row('Japan-Yen', 'n/a')]), /Japan-Yen on 2026-06-30: not a number/);
    assert.throws(() => parse([row('Japan-Yen', '160.26', '30/06/2026')]), /bad record or effective date/);
    assert.throws(() => parse([row('Ruritania-Crown', '9.1')]), /holds no rates/);
  });
});

describe('USTR requests', () => {
  test('a poll reads the record dates from four months before its window, for late amendments', () => {
    const requests = source.requests(WINDOW, { base: 'http://127.0.0.1:1' });
    assert.deepEqual(requests, [{ url: `http://127.0.0.1:1${PATH}?fields=record_date,effective_date,country_currency_desc,exchange_rate&filter=record_date:gte:2026-04-01,record_date:lte:2026-09-10&page%5Bnumber%5D=1&page%5Bsize%5D=10000&sort=record_date` }]);
    assert.ok(source.accepts(requests[0]!.url));
  });

  test('a backfill from 2001 asks ten years at a time, each within one page', () => {
    const filters = source.requests({ from: '2001-03-31', to: '2026-09-10' }, { base: 'http://x' }).map((r) => /filter=([^&]*)/.exec(r.url)![1]);
    assert.deepEqual(filters, ['record_date:gte:2000-11-01,record_date:lte:2010-10-31', 'record_date:gte:2010-11-01,record_date:lte:2020-10-31', 'record_date:gte:2020-11-01,record_date:lte:2026-09-10']);
  });

  test('round trip through the local feed server', async () => {
    const server = await startFeedServer({ [PATH]: { body, contentType: 'application/json' } });
    try {
      const payloads = await fetchSource(source, WINDOW, { base: server.url }, createHttpClient({ retries: 0 }));
      assert.equal(server.requests.length, 1);
      assert.match(server.requests[0]!.url, /filter=record_date:gte:2026-04-01,record_date:lte:2026-09-10&/);
      assert.equal(payloads.length, 1);
      assert.deepEqual(source.parse(payloads[0]!), obs);
    } finally {
      await server.close();
    }
  });
});
