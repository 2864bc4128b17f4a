// GET /v1/banks?format=full (extension): per bank its terms, publication, dates held, currencies and
// status, for every one of the registered banks; the default stays the spec's shape.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FRESH_DAYS } from '../src/blend/freshness.js';
import type { BankListing } from '../src/rates/bank-list.js';
import { enabledSources } from '../src/sources/enabled.js';
import { SOURCES as REGISTRY } from '../src/sources/index.js';
import { testApp, type TestApp } from './helpers.js';

/** The sources a default start lists: those whose terms allow commercial use (D22). */
const SOURCES = enabledSources(REGISTRY, []);

const FIELDS = ['country_code', 'country_name', 'bank_code', 'currency', 'bank_name', 'terms_url', 'terms', 'attribution', 'cadence', 'table_cadence', 'period_rates', 'published_at_utc', 'first_date', 'newest_date', 'newest_valid_to', 'currencies', 'status', 'discontinued', 'measured_error'];

describe('GET /v1/banks?format=full', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await testApp();
    ({ key } = await t.key({ plan: 'professional', points: 10_000 }));
  });
  after(() => t.close());
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: key } });
  const full = async (): Promise<BankListing[]> => {
    const res = await get('/v1/banks?format=full');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-points-cost'], '1');
    return res.json().banks as BankListing[];
  };

  test('every bank, in code order, with its terms, publication, dates held, currencies and status', async () => {
    const banks = await full();
    assert.equal(banks.length, SOURCES.length);
    assert.deepEqual(banks.map((b) => b.bank_code), SOURCES.map((s) => s.code).sort());
    // The dates held, read apart from the route's query: every stored observation (the seed's, less
    // what validation refused, such as figures dated too far ahead of the test's clock).
    const held = new Map<string, string[]>();
    for (const o of await t.store.recentObservations(36_500)) held.set(o.source, [...(held.get(o.source) ?? []), o.date]);
    // A period source's (D21): the first days of its periods, and the last day they cover.
    const periodEnd = new Map<string, string>();
    for (const s of SOURCES.filter((x) => x.periodRates)) {
      for (const p of await t.store.sourcePeriods(s.code, '0000-01-01', '9999-12-31')) {
        held.set(s.code, [...(held.get(s.code) ?? []), p.validFrom]);
        if (p.validTo > (periodEnd.get(s.code) ?? '')) periodEnd.set(s.code, p.validTo);
      }
    }
    for (const dates of held.values()) dates.sort();
    assert.ok(held.size > 40, 'the seed is loaded');
    // The BIS's 2025 months are within 45 days of the test's clock; the others' periods begin later.
    assert.equal(periodEnd.get('BISB'), '2025-02-28');
    for (const b of banks) {
      const s = SOURCES.find((x) => x.code === b.bank_code)!;
      assert.deepEqual(Object.keys(b), FIELDS, b.bank_code);
      assert.equal(b.terms_url, s.termsUrl);
      assert.match(b.terms_url, /^https?:\/\//);
      assert.equal(b.terms, s.terms, b.bank_code);
      assert.equal(b.attribution, s.attribution ?? null);
      assert.equal(b.cadence, s.cadence);
      assert.equal(b.period_rates, s.periodRates === true, b.bank_code);
      assert.equal(b.newest_valid_to, periodEnd.get(b.bank_code) ?? null, b.bank_code);
      assert.match(b.published_at_utc, /^\d{2}:\d{2}:\d{2}$/);
      const dates = held.get(b.bank_code) ?? [];
      assert.equal(b.first_date, dates[0] ?? null, `${b.bank_code} first date`);
      assert.equal(b.newest_date, dates.at(-1) ?? null, `${b.bank_code} newest date`);
      assert.deepEqual(b.currencies, t.market.current.banks.get(b.bank_code)?.rows.map((r) => r.currency) ?? [], b.bank_code);
      assert.equal(b.status === 'discontinued', s.discontinued !== undefined, b.bank_code);
      assert.equal(b.discontinued, s.discontinued ?? null);
    }
    // Current: the newest figure is within its cadence's freshness on the test's day (D10, grace 0).
    const today = Date.parse('2026-04-14');
    for (const b of banks.filter((x) => x.status !== 'discontinued')) {
      // A period source is judged by the end of its newest period (D21).
      const newest = b.period_rates ? b.newest_valid_to : b.newest_date;
      const age = newest === null ? Infinity : (today - Date.parse(newest)) / 86_400_000;
      assert.equal(b.status, age <= FRESH_DAYS[b.cadence] ? 'current' : 'stale', `${b.bank_code}: ${newest}`);
    }
    assert.deepEqual([...new Set(banks.map((b) => b.status))].sort(), ['current', 'discontinued', 'stale']);
  });

  test("each bank's measured error: the median over the currencies its figures were measured for this month, or null", async () => {
    const banks = await full();
    const quality = t.market.current.quality!;
    for (const b of banks) {
      const own = [...quality.errors.values()].flatMap((bySource) => bySource.get(b.bank_code) ?? []).sort((x, y) => x - y);
      if (own.length === 0) {
        assert.equal(b.measured_error, null, b.bank_code);
        continue;
      }
      assert.equal(b.measured_error!.currencies, own.length, b.bank_code);
      // Three significant digits: within half a percent of its errors' range.
      assert.ok(b.measured_error!.median >= own[0]! * 0.995 && b.measured_error!.median <= own.at(-1)! * 1.005, b.bank_code);
    }
    const ecbf = banks.find((b) => b.bank_code === 'ECBF')!.measured_error!;
    assert.ok(ecbf.currencies >= 20 && ecbf.median > 0 && ecbf.median < 0.01, JSON.stringify(ecbf));
    assert.equal(banks.find((b) => b.bank_code === 'MARK')!.measured_error, null, 'a historical-only publisher has no figures in the window');
  });

  test('ECBF, NBPL and MARK as their publishers describe them', async () => {
    const banks = new Map((await full()).map((b) => [b.bank_code, b]));
    const ecbf = banks.get('ECBF')!;
    assert.equal(ecbf.attribution, 'Source: European Central Bank');
    assert.equal(ecbf.terms_url, 'https://www.ecb.europa.eu/home/disclaimer/html/index.en.html');
    assert.equal(ecbf.published_at_utc, '15:00:00');
    assert.equal(ecbf.newest_date, '2026-04-13');
    assert.equal(ecbf.status, 'current');
    assert.ok(ecbf.currencies.includes('USD') && ecbf.currencies.includes('JPY') && !ecbf.currencies.includes('EUR'));
    assert.deepEqual(banks.get('NBPL')!.table_cadence, { A: 'daily', B: 'weekly' });
    assert.equal(banks.get('MARK')!.status, 'discontinued');
    assert.match(banks.get('MARK')!.discontinued ?? '', /^\d{4}-\d{2}-\d{2}$/);
  });

  test('the default stays the spec\'s shape; another format is a 422', async () => {
    const plain = (await get('/v1/banks')).json();
    assert.deepEqual(Object.keys(plain.banks[0]), ['country_code', 'country_name', 'bank_code', 'currency', 'bank_name']);
    const bad = await get('/v1/banks?format=xml');
    assert.equal(bad.statusCode, 422);
    assert.equal(bad.json().error, 'invalid_parameter');
  });
});

test('a year after the seed every bank that is not discontinued is stale', async () => {
  const t = await testApp({ now: new Date('2027-04-14T12:00:00Z') });
  try {
    const { key } = await t.key({ plan: 'professional', points: 100 });
    const banks = (await t.app.inject({ url: '/v1/banks?format=full', headers: { authorization: key } })).json().banks as BankListing[];
    assert.deepEqual([...new Set(banks.map((b) => b.status))].sort(), ['discontinued', 'stale']);
  } finally {
    await t.close();
  }
});
