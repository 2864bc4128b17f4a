// Ranges at their edges (issue 27): a range opens with the figures in force on its start day, a
// weekend's too, as the dated endpoints answer; a range or dated conversion with no figure at all is
// 404 and costs nothing (D16); a range built whole carries a strong ETag and answers a matching
// If-None-Match with a free 304; a streamed one carries none.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from './helpers.js';

type Body = { rates: Record<string, Record<string, number>>; error?: string };

describe('range edges', () => {
  let t: TestApp;
  let key: string;
  let accountId: string;
  before(async () => {
    t = await testApp({ history: true });
    ({ key, accountId } = await t.key({ plan: 'business', points: 100_000 }));
  });
  after(() => t.close());
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ url, headers: { authorization: key, ...headers } });
    return { res, body: res.headers['content-type']?.toString().startsWith('application/json') ? (JSON.parse(res.body) as Body) : undefined };
  };
  const balance = async () => (await t.store.getAccount(accountId))!.points;

  test('a one-day range on a Saturday answers the figures in force on it, as /v1/{base}/{date} does', async () => {
    const day = (await get('/v1/EUR/2026-03-14')).body!.rates as unknown as Record<string, number>;
    const { res, body } = await get('/v1/timeseries/EUR?start=2026-03-14&end=2026-03-14');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(Object.keys(body!.rates), ['2026-03-14']);
    assert.deepEqual(body!.rates['2026-03-14'], day);
    assert.ok(Object.keys(day).length > 30, 'the whole table');
  });

  test('a Saturday-to-Monday range has an entry for the Saturday and the Monday, each as the dated endpoint', async () => {
    const { body } = await get('/v1/timeseries/EUR?start=2026-03-14&end=2026-03-16&symbols=USD,JPY');
    const days = Object.keys(body!.rates);
    assert.equal(days[0], '2026-03-14');
    assert.equal(days.at(-1), '2026-03-16');
    for (const day of days) {
      const dated = (await get(`/v1/EUR/${day}`)).body!.rates as unknown as Record<string, number>;
      assert.deepEqual(body!.rates[day], { JPY: dated.JPY, USD: dated.USD }, day);
    }
    const week = (await get('/v1/timeseries/EUR?start=2026-03-14&end=2026-03-16&symbols=USD&group=week')).body!.rates;
    assert.deepEqual(Object.keys(week), ['2026-03-09', '2026-03-16'], 'the Saturday counts in its own week');
  });

  test('a bank range on a Saturday opens with what /v1/bank/{code}?date= answers for it', async () => {
    const dated = (await get('/v1/bank/ECBF?date=2026-03-14')).body!.rates as unknown as Record<string, number>;
    const { res, body } = await get('/v1/bank/ECBF/timeseries?start=2026-03-14&end=2026-03-16&symbols=USD');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(Object.keys(body!.rates), ['2026-03-14', '2026-03-16']);
    assert.equal(body!.rates['2026-03-14']!.USD, dated.USD);
    const whole = (await get('/v1/bank/ECBF/timeseries?start=2026-03-14&end=2026-03-14')).body!.rates['2026-03-14'];
    assert.deepEqual(whole, dated, 'every currency of the dated answer');
  });

  test('a range, fluctuation or dated conversion with no figure at all is 404 no_fresh_rate and costs nothing', async () => {
    const empty = [
      '/v1/timeseries/EUR?start=1990-01-01&end=1990-03-31',
      '/v1/timeseries/EUR?start=1990-01-01&end=1990-03-31&symbols=USD&format=csv',
      '/v1/fluctuation/EUR?start=1990-01-01&end=1990-03-31',
      '/v1/bank/ECBF/timeseries?start=1990-01-01&end=1990-03-31&format=ndjson',
    ];
    for (const url of empty) {
      const before = await balance();
      const res = await t.app.inject({ url, headers: { authorization: key } });
      assert.equal(res.statusCode, 404, url);
      assert.equal((JSON.parse(res.body) as Body).error, 'no_fresh_rate', url);
      assert.equal(res.headers['x-points-cost'], '0', url);
      assert.equal(await balance(), before, url);
    }
    const before = await balance();
    const res = await t.app.inject({ method: 'POST', url: '/v1/rates/convert', headers: { authorization: key }, payload: { base: 'USD', targets: ['EUR', 'XYZ'], date: '1990-01-02' } });
    assert.equal(res.statusCode, 404);
    assert.equal((JSON.parse(res.body) as Body).error, 'no_fresh_rate');
    assert.equal(res.headers['x-points-cost'], '0');
    assert.equal(await balance(), before);
  });

  test('range answers carry a strong ETag; the same request with If-None-Match is a 304 that costs nothing', async () => {
    const urls = [
      '/v1/timeseries/EUR?start=2026-03-01&end=2026-04-14&symbols=USD', // kept whole
      '/v1/timeseries/EUR?start=2026-03-01&end=2026-04-14', // built whole, not kept
      '/v1/timeseries/EUR?start=2026-03-01&end=2026-04-14&symbols=USD&format=csv',
      '/v1/fluctuation/EUR?start=2026-03-02&end=2026-04-13',
      '/v1/bank/ECBF/timeseries?start=2026-03-01&end=2026-04-14&format=ndjson',
    ];
    for (const url of urls) {
      const first = await get(url);
      assert.equal(first.res.statusCode, 200, url);
      const etag = first.res.headers.etag as string;
      assert.match(etag, /^"[\w-]+"$/, url);
      assert.equal((await get(url)).res.headers.etag, etag, `${url}: same bytes, same tag`);
      const before = await balance();
      const again = await get(url, { 'if-none-match': etag });
      assert.equal(again.res.statusCode, 304, url);
      assert.equal(again.res.body, '');
      assert.equal(again.res.headers.etag, etag);
      assert.equal(again.res.headers['x-points-cost'], '0', url);
      assert.equal(await balance(), before, url);
      const other = await get(url, { 'if-none-match': '"another"' });
      assert.equal(other.res.statusCode, 200, url);
      assert.equal(other.res.body, first.res.body);
    }
    const csv = (await get(urls[2]!)).res.headers.etag;
    assert.notEqual(csv, (await get(urls[0]!)).res.headers.etag, 'another format, another tag');
  });

  test('a bank range says which way it reads in every format: EUR per AUD by default, AUD per EUR with reciprocal', async () => {
    const q = '/v1/bank/ECBF/timeseries?start=2026-04-13&end=2026-04-13&symbols=AUD';
    const blended = (await get('/v1/timeseries/EUR?start=2026-04-13&end=2026-04-13&symbols=AUD&format=ndjson')).res.body;
    assert.equal('unit' in JSON.parse(blended), false, 'blended lines read as /latest does: AUD per EUR');
    const json = JSON.parse((await get(q)).res.body) as Body & { unit: string };
    assert.equal(json.unit, 'EUR per currency');
    const aud = json.rates['2026-04-13']!.AUD!;
    assert.ok(aud < 1, `${aud} EUR per AUD`);
    assert.deepEqual(JSON.parse((await get(`${q}&format=ndjson`)).res.body), { date: '2026-04-13', base: 'EUR', currency: 'AUD', rate: aud, unit: 'EUR per AUD' });
    assert.equal((await get(`${q}&format=csv`)).res.body, `date,currency,rate,unit\n2026-04-13,AUD,${aud},EUR per AUD\n`);
    const back = JSON.parse((await get(`${q}&reciprocal=true&format=ndjson`)).res.body) as { rate: number; unit: string };
    assert.equal(back.unit, 'AUD per EUR');
    assert.ok(Math.abs(back.rate * aud - 1) < 1e-7);
    assert.equal((JSON.parse((await get(`${q}&reciprocal=true`)).res.body) as { unit: string }).unit, 'currency per EUR');
  });

  test('a streamed range (every currency, longer than a year) has no ETag and is answered in full', async () => {
    const { res, body } = await get('/v1/timeseries/EUR?start=2024-01-01&end=2026-04-14', { 'if-none-match': '*' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers.etag, undefined);
    assert.ok(Object.keys(body!.rates).length > 0);
  });
});
