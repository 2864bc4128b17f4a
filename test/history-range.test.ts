// Ranges (D15, D16): timeseries, fluctuation and a bank's own timeseries; days, groups, formats,
// validation, plan gating and points per started 31 days.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addDays } from '../src/time/days.js';
import { seed, testApp, type TestApp } from './helpers.js';

type Series = { code: number; base: string; start: string; end: string; rates: Record<string, Record<string, number>>; error?: string };

describe('range endpoints', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await testApp({ history: true });
    key = (await t.key({ plan: 'business', points: 100_000 })).key;
  });
  after(() => t.close());
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ url, headers: { authorization: key, ...headers } });
    return { res, body: res.headers['content-type']?.toString().startsWith('application/json') ? (JSON.parse(res.body) as Series) : undefined };
  };

  test('timeseries: the start day, then one entry per publication day, each as on /v1/{base}/{date}; weekends left out', async () => {
    const { res, body } = await get('/v1/timeseries/eur?start=2026-03-01&end=2026-04-14&symbols=USD,jpy');
    assert.equal(res.statusCode, 200);
    assert.equal(body!.base, 'EUR');
    const days = Object.keys(body!.rates);
    assert.ok(days.length >= 25, `${days.length} days`);
    // Only days on which some source published EUR or JPY (a day-ahead bank stamps the day before).
    const published = new Set(seed().sources.flatMap((s) => s.rows.filter((r) => r[1] === 'EUR' || r[1] === 'JPY').flatMap((r) => [r[0], addDays(r[0], -1)])));
    for (const day of days) assert.ok(published.has(day), `${day} had a publication`);
    assert.ok(days.length < 45);
    for (const day of days.slice(0, 5)) {
      const one = (await get(`/v1/EUR/${day}`)).body!;
      assert.deepEqual(body!.rates[day], { JPY: (one.rates as unknown as Record<string, number>).JPY, USD: (one.rates as unknown as Record<string, number>).USD }, day);
    }
    // 45 days: two started 31-day blocks.
    assert.equal(res.headers['x-points-cost'], '2');
  });

  test('group=month and group=week give period means keyed by the first day', async () => {
    const daily = (await get('/v1/timeseries/EUR?start=2026-03-01&end=2026-03-31&symbols=USD')).body!.rates;
    const values = Object.values(daily).map((r) => r.USD!);
    const month = (await get('/v1/timeseries/EUR?start=2026-03-01&end=2026-03-31&symbols=USD&group=month')).body!.rates;
    assert.deepEqual(Object.keys(month), ['2026-03-01']);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    assert.ok(Math.abs(month['2026-03-01']!.USD! / mean - 1) < 1e-7);
    const week = (await get('/v1/timeseries/EUR?start=2026-03-01&end=2026-03-31&symbols=USD&group=week')).body!.rates;
    for (const day of Object.keys(week)) assert.equal(new Date(`${day}T00:00:00Z`).getUTCDay(), 1, `${day} is a Monday`);
  });

  test('CSV and NDJSON by format or Accept, same values as JSON', async () => {
    const json = (await get('/v1/timeseries/EUR?start=2026-04-01&end=2026-04-10&symbols=USD')).body!.rates;
    const csv = await get('/v1/timeseries/EUR?start=2026-04-01&end=2026-04-10&symbols=USD&format=csv');
    assert.match(String(csv.res.headers['content-type']), /^text\/csv/);
    const lines = csv.res.body.trim().split('\n');
    assert.equal(lines[0], 'date,currency,rate');
    assert.deepEqual(lines.slice(1), Object.entries(json).map(([d, r]) => `${d},USD,${r.USD}`));
    const nd = await get('/v1/timeseries/EUR?start=2026-04-01&end=2026-04-10&symbols=USD', { accept: 'application/x-ndjson' });
    assert.match(String(nd.res.headers['content-type']), /^application\/x-ndjson/);
    const rows = nd.res.body.trim().split('\n').map((l) => JSON.parse(l) as { date: string; base: string; currency: string; rate: number });
    assert.deepEqual(rows, Object.entries(json).map(([date, r]) => ({ date, base: 'EUR', currency: 'USD', rate: r.USD })));
    assert.equal((await get('/v1/timeseries/EUR?start=2026-04-01&end=2026-04-10&symbols=USD', { accept: 'text/csv' })).res.body.split('\n')[0], 'date,currency,rate');
  });

  test('points: 1 per started 31 days of start..end', async () => {
    for (const [start, end, cost] of [['2026-03-01', '2026-03-31', '1'], ['2026-03-01', '2026-04-01', '2'], ['2025-04-14', '2026-04-13', '12'], ['2026-04-14', '2026-04-14', '1']] as const) {
      const { res } = await get(`/v1/timeseries/EUR?start=${start}&end=${end}&symbols=USD&format=csv`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-points-cost'], cost, `${start}..${end}`);
    }
  });

  test('a long range streams, charged once up front, with the whole body', async () => {
    const { res, body } = await get('/v1/timeseries/USD?start=1998-01-01&end=2026-04-14');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-points-cost'], String(Math.ceil(10331 / 31)));
    assert.ok(Object.keys(body!.rates).includes('1998-12-30'));
    assert.ok(body!.rates['1998-12-30']!.PTE! > 100, 'defunct PTE in its day');
  });

  test('invalid ranges and options are 422 naming the field', async () => {
    const cases: [string, string][] = [
      ['start=2026-04-10&end=2026-04-01', 'start'], ['start=2026-04-01&end=2026-04-15', 'end'], ['end=2026-04-10', 'start'],
      ['start=2026-04-01&end=2026-04-10&symbols=USD,ABC', 'symbols'], ['start=2026-04-01&end=2026-04-10&group=year', 'group'],
      ['start=2026-04-01&end=2026-04-10&format=xml', 'format'], [`start=2026-04-01&end=2026-04-10&symbols=${Array(501).fill('USD').join(',')}`, 'symbols'],
    ];
    for (const [query, field] of cases) {
      const { res, body } = await get(`/v1/timeseries/EUR?${query}`);
      assert.equal(res.statusCode, 422, query);
      assert.equal(body!.error, 'invalid_parameter');
      assert.match(res.body, new RegExp(`"field":"${field}"`), query);
      assert.equal(res.headers['x-points-cost'], '0');
    }
  });

  test('fluctuation: start and end rate, change and percent', async () => {
    const { res, body } = await get('/v1/fluctuation/EUR?start=2026-03-02&end=2026-04-13&symbols=USD');
    assert.equal(res.statusCode, 200);
    const usd = (body!.rates as unknown as Record<string, { start_rate: number; end_rate: number; change: number; change_pct: number }>).USD!;
    const day = async (d: string) => ((await get(`/v1/EUR/${d}`)).body!.rates as unknown as Record<string, number>).USD!;
    assert.equal(usd.start_rate, await day('2026-03-02'));
    assert.equal(usd.end_rate, await day('2026-04-13'));
    assert.ok(Math.abs(usd.change - (usd.end_rate - usd.start_rate)) < 1e-12);
    assert.ok(Math.abs(usd.change_pct - (usd.change / usd.start_rate) * 100) < 1e-6);
    assert.equal(res.headers['x-points-cost'], '2');
  });

  test('bank timeseries: the bank\'s own digits per date, reciprocal on request', async () => {
    const ecb = seed().sources.find((s) => s.source === 'ECBF')!.rows;
    const { res, body } = await get('/v1/bank/ECBF/timeseries?start=2026-03-01&end=2026-04-14&symbols=USD,JPY&reciprocal=true');
    assert.equal(res.statusCode, 200);
    const rates = body!.rates;
    const usd = ecb.filter((r) => r[1] === 'USD');
    // 2026-03-01 is a Sunday: the range opens with the figures in force on it, Friday's.
    const friday = usd.find((r) => r[0] === '2026-02-27')!;
    assert.deepEqual(Object.keys(rates), ['2026-03-01', ...usd.filter((r) => r[0] >= '2026-03-01').map((r) => r[0])]);
    assert.equal(String(rates['2026-03-01']!.USD), String(Number(friday[2])));
    for (const r of usd.filter((r) => r[0] >= '2026-03-01')) assert.equal(String(rates[r[0]]!.USD), String(Number(r[2])), r[0]);
    const direct = (await get('/v1/bank/ECBF/timeseries?start=2026-04-13&end=2026-04-13&symbols=USD')).body!.rates['2026-04-13']!.USD!;
    assert.ok(Math.abs(direct * rates['2026-04-13']!.USD! - 1) < 1e-7);
    assert.equal((await get('/v1/bank/ZZZZ/timeseries?start=2026-04-13&end=2026-04-13')).res.statusCode, 404);
  });

  test('plans: starter has history but not the ranges', async () => {
    const starter = (await t.key({ plan: 'starter', points: 50 })).key;
    for (const url of ['/v1/timeseries/EUR?start=2026-04-01&end=2026-04-10', '/v1/fluctuation/EUR?start=2026-04-01&end=2026-04-10', '/v1/bank/ECBF/timeseries?start=2026-04-01&end=2026-04-10']) {
      const res = await t.app.inject({ url, headers: { authorization: starter } });
      assert.equal(res.statusCode, 403, url);
      assert.equal((JSON.parse(res.body) as { error: string }).error, 'plan_forbidden');
    }
    assert.equal((await t.app.inject({ url: '/v1/EUR/2026-04-10', headers: { authorization: starter } })).statusCode, 200);
  });
});

test('ranges answer 503 with Retry-After until history is materialised', async () => {
  const t = await testApp();
  try {
    const { key } = await t.key();
    const res = await t.app.inject({ url: '/v1/timeseries/EUR?start=2026-04-01&end=2026-04-10', headers: { authorization: key } });
    assert.equal(res.statusCode, 503);
    assert.equal((JSON.parse(res.body) as { error: string }).error, 'unavailable');
    assert.equal(res.headers['retry-after'], '5');
    assert.equal(res.headers['x-points-cost'], '0');
    // A single day is computed on the spot meanwhile.
    assert.equal((await t.app.inject({ url: '/v1/EUR/2026-04-10', headers: { authorization: key } })).statusCode, 200);
  } finally {
    await t.close();
  }
});
