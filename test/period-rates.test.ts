// Period rates (D21) end to end: the four period publishers' recordings imported as `kurs ingest
// --from-dir` does, then answered by day and by range with their periods, listed with their cadence,
// judged current by their periods, and kept out of every blend.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { ingestDir } from '../src/ingest/ingest.js';
import { Scheduler } from '../src/ingest/scheduler.js';
import type { BankListing } from '../src/rates/bank-list.js';
import { createHttpClient } from '../src/sources/http.js';
import { SOURCES, sourceByCode } from '../src/sources/index.js';
import { testApp, type TestApp } from './helpers.js';
import { startFeedServer } from './support/feed-server.js';
import { fixtureDir } from './support/fixtures.js';

const DAY_20 = new Date('2026-09-20T12:00:00Z');
const PERIOD = ['BISB', 'EUIE', 'HMRC', 'USTR'];

describe('period rates, imported from the recordings', () => {
  let t: TestApp;
  let key: string;
  /** The blended rates before the period sources' figures were stored. */
  let before_: Map<string, string>;
  before(async () => {
    t = await testApp({ now: DAY_20 });
    ({ key } = await t.key({ plan: 'business', points: 100_000 }));
    before_ = new Map(t.market.current.rates.codes.map((c) => [c, t.market.current.rates.get(c)!.perUsd.toString()]));
    const report = await ingestDir(t.store, SOURCES, fileURLToPath(fixtureDir()), () => DAY_20, PERIOD);
    assert.deepEqual(report.outcomes.filter((o) => o.status === 'failed'), []);
    assert.deepEqual(report.outcomes.filter((o) => o.status === 'no_publication').map((o) => o.name), ['monthly_csv_2026-10-404.json']);
    await t.market.rebuild(DAY_20);
  });
  after(() => t.close());
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: key } });
  type Row = { currency: string; rate: number; bank_update: string; valid_from: string; valid_to: string };
  const rows = async (url: string): Promise<Row[]> => {
    const res = await get(url);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().rates as Row[];
  };
  const one = (list: Row[], currency: string) => {
    const r = list.find((x) => x.currency === currency)!;
    return `${r.rate} ${r.valid_from}..${r.valid_to}`;
  };

  test('GET /v1/bank/HMRC?date=2026-08-15: August\'s customs rates with their period (format=full)', async () => {
    const full = await rows('/v1/bank/HMRC?date=2026-08-15&format=full&reciprocal=true');
    assert.equal(full.length, 141);
    assert.equal(one(full, 'USD'), '1.3367 2026-08-01..2026-08-31');
    assert.equal(one(full, 'EUR'), '1.1719 2026-08-01..2026-08-31');
    assert.equal(one(full, 'XOF'), '768.7193 2026-08-01..2026-08-31');
    assert.equal(full[0]!.bank_update, '2026-08-01 00:00:00');
    // The default direction (D8): pounds per unit, computed to 8 significant digits.
    assert.equal(one(await rows('/v1/bank/HMRC?date=2026-08-15&format=full'), 'USD'), '0.74811102 2026-08-01..2026-08-31');
    // The simple map: the rates in force, without their period.
    const simple = await get('/v1/bank/HMRC?date=2026-08-15&reciprocal=true');
    assert.equal(simple.json().rates.USD, 1.3367);
    assert.deepEqual(simple.json().meta, { country_code: 'GB', bank_name: 'HM Revenue & Customs', base_currency: 'GBP', last_update: '2026-08-01 00:00:00' });
    // Without a date: those in force today, September's.
    assert.equal(one(await rows('/v1/bank/HMRC?format=full&reciprocal=true'), 'USD'), '1.3554 2026-09-01..2026-09-30');
    assert.equal(one(await rows('/v1/bank/HMRC?date=2021-01-31&format=full&reciprocal=true'), 'USD'), '1.3497 2021-01-01..2021-01-31');
  });

  test('a day outside every recorded period is the bank endpoint\'s 404', async () => {
    for (const day of ['2021-02-01', '2015-05-31']) {
      const res = await get(`/v1/bank/HMRC?date=${day}`);
      assert.equal(res.statusCode, 404);
      assert.deepEqual([res.json().error, res.json().message], ['no_fresh_rate', `no period of HMRC covers ${day}; GET /v1/banks?format=full gives its first_date and newest_valid_to`]);
    }
  });

  test('every other period source on a day inside a recorded period', async () => {
    // USTR: an amendment replaces the quarter's figure from its effective date.
    const june = await rows('/v1/bank/USTR?date=2026-06-01&format=full&reciprocal=true');
    assert.equal(one(june, 'ILS'), '2.807 2026-05-29..2026-06-29');
    assert.equal(one(june, 'EUR'), '0.87 2026-03-31..2026-06-29');
    assert.equal(one(await rows('/v1/bank/USTR?date=2026-05-28&format=full&reciprocal=true'), 'ILS'), '3.165 2026-03-31..2026-06-29');
    // BISB: a month's end-of-period figure for the whole month.
    assert.equal(one(await rows('/v1/bank/BISB?date=2025-02-10&format=full&reciprocal=true'), 'GBP'), '0.793468 2025-02-01..2025-02-28');
    assert.equal(one(await rows('/v1/bank/BISB?date=1900-01-31&format=full&reciprocal=true'), 'ZAR'), '0.4107 1900-01-01..1900-01-31');
    // EUIE: per euro, and per ECU before 1999.
    const sept = await get('/v1/bank/EUIE?date=2026-09-15&format=full&reciprocal=true');
    assert.equal(one(sept.json().rates, 'USD'), '1.1643 2026-09-01..2026-09-30');
    assert.equal(sept.json().meta.base_currency, 'EUR');
    const ecu = await get('/v1/bank/EUIE?date=1998-12-15&format=full&reciprocal=true');
    assert.equal(one(ecu.json().rates, 'USD'), '1.15074 1998-12-01..1998-12-31');
    assert.equal(ecu.json().meta.base_currency, 'XEU');
  });

  test('a range has one row per period', async () => {
    const res = await get('/v1/bank/USTR/timeseries?start=2026-04-15&end=2026-09-20&symbols=ILS,EUR&reciprocal=true');
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().rates, {
      '2026-04-15': { EUR: 0.87, ILS: 3.165 },
      '2026-05-29': { ILS: 2.807 },
      '2026-06-30': { EUR: 0.877, ILS: 2.977 },
    });
    const hmrc = await get('/v1/bank/HMRC/timeseries?start=2026-08-10&end=2026-09-20&symbols=USD&reciprocal=true&format=csv');
    assert.equal(hmrc.body, 'date,currency,rate,unit\n2026-08-10,USD,1.3367,USD per GBP\n2026-09-01,USD,1.3554,USD per GBP\n');
  });

  test('/v1/banks?format=full shows the cadence and the periods; a monthly source is current on the 20th', async () => {
    const res = await get('/v1/banks?format=full');
    const banks = new Map((res.json().banks as BankListing[]).map((b) => [b.bank_code, b]));
    const show = (code: string) => {
      const b = banks.get(code)!;
      return [b.cadence, b.period_rates, b.terms, b.first_date, b.newest_date, b.newest_valid_to, b.status];
    };
    assert.deepEqual(show('HMRC'), ['monthly', true, 'open', '2015-06-01', '2026-09-01', '2026-09-30', 'current']);
    assert.deepEqual(show('USTR'), ['quarterly', true, 'open', '2026-03-31', '2026-08-31', '2026-09-29', 'current']);
    assert.deepEqual(show('EUIE'), ['monthly', true, 'attribution', '1994-03-01', '2026-09-01', '2026-09-30', 'current']);
    assert.deepEqual(show('BISB'), ['monthly', true, 'unknown', '1900-01-01', '2025-02-01', '2025-02-28', 'stale']);
    assert.deepEqual(show('ECBF').slice(1, 2), [false]);
    assert.equal(banks.get('HMRC')!.currencies.length, 141);
    const status = (await t.app.inject('/status')).body;
    assert.match(status, /<tr class="ok" id="src-HMRC">.*?<td>monthly period<\/td><td>2026-09-01 to 2026-09-30<\/td>/);
    assert.match(status, /<tr class="ok" id="src-USTR">.*?<td>quarterly period<\/td>/);
  });

  test('no period figure moves a blend or appears in a blended rate\'s provenance', async () => {
    const after_ = new Map(t.market.current.rates.codes.map((c) => [c, t.market.current.rates.get(c)!.perUsd.toString()]));
    assert.deepEqual(after_, before_);
    for (const code of t.market.current.rates.codes) {
      for (const c of t.market.current.rates.get(code)!.contributions) assert.ok(!PERIOD.includes(c.source), `${code}: ${c.source}`);
    }
    for (const url of ['/v1/rate/GBP/USD/sources', '/v1/rate/EUR/USD/sources?date=2026-08-14', '/v1/rate/EUR/JPY/sources?date=2026-04-13']) {
      const res = await get(url);
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      const banks = (res.json().legs as { sources: { bank_code: string }[] }[]).flatMap((l) => l.sources.map((s) => s.bank_code));
      assert.ok(banks.length > 0, url);
      assert.deepEqual(banks.filter((b) => PERIOD.includes(b)), [], url);
    }
  });
});

test('the scheduler polls a period source by its period: not on the 20th of a month it covers, yes when it has run out', async () => {
  const hmrc = sourceByCode('HMRC')!;
  for (const [now, expected] of [[DAY_20, []], [new Date('2026-11-10T12:00:00Z'), ['/uk/api/exchange_rates/files/monthly_csv_2026-8.csv']]] as const) {
    const t = await testApp({ now, seeded: false });
    const server = await startFeedServer(() => undefined);
    try {
      await ingestDir(t.store, [hmrc], fileURLToPath(fixtureDir()), () => DAY_20, ['HMRC']);
      const scheduler = new Scheduler({ store: t.store, sources: [hmrc], http: createHttpClient({ retries: 0 }), config: { sourceUrls: { HMRC: server.url }, sourceKeys: {} }, now: () => now, onData: async () => {}, log: { info: () => undefined, warn: () => undefined } });
      await scheduler.catchUp();
      await scheduler.stop();
      // September's period ends on the 30th: current until 40 days after. On 10 November it is
      // fetched from the days before its newest period's start (the feed server has nothing: the
      // first month's 404 ends the run).
      assert.deepEqual(server.requests.map((r) => r.url), expected, now.toISOString());
    } finally {
      await server.close();
      await t.close();
    }
  }
});
