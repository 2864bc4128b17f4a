// Issue 34 items 1, 8 and 10, as a client meets them (D24): stale figures say how old they are, a
// refused rate says what to do, a conversion of nothing costs nothing; a prefixed key, an impossible
// day, a wrong type, an unknown body field and a symbol without figures are each named as such.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ACTIVE_CURRENCIES, METALS } from '../src/currencies/iso4217.js';
import { loadSeed } from '../src/ingest/seed.js';
import { SOURCES } from '../src/sources/index.js';
import { seed, testApp, type TestApp } from './helpers.js';
import { DATASET } from './support/dataset.js';

/** Three weeks after the dataset's newest figures (9 June): past every daily source's cadence (D10). */
const LATER = new Date('2026-06-30T12:00:00Z');

describe('a server whose figures are older than the freshness rule (issue 34 item 1)', () => {
  let t: TestApp;
  let key: string;
  let accountId: string;
  before(async () => {
    t = await testApp({ now: LATER, seeded: false });
    await loadSeed(t.store, SOURCES, DATASET, LATER);
    await t.market.rebuild(LATER);
    ({ key, accountId } = await t.key({ plan: 'business', points: 100 }));
  });
  after(() => t.close());
  const get = (url: string) => t.app.inject({ url, headers: { authorization: key } });

  test('/latest answers the figures and says they are stale, of when, and how many days old', async () => {
    const res = await get('/v1/EUR/latest');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(Object.keys(body), ['code', 'message', 'rates', 'stale', 'last_update', 'age_days']);
    assert.equal(body.stale, true);
    assert.equal(body.last_update.slice(0, 10), '2026-06-09');
    assert.equal(body.age_days, 21);
    assert.ok(Math.abs(body.rates.USD - 1.15) < 0.001, String(body.rates.USD));
    const withAmount = (await get('/v1/EUR/latest?amount=2')).json();
    assert.deepEqual([withAmount.stale, withAmount.age_days, withAmount.rates.USD.rate], [true, 21, body.rates.USD]);
    assert.equal(res.headers['x-points-cost'], '1');
  });

  test('a refused pair says the day its figures end, why, and the dated request that answers', async () => {
    const res = await get('/v1/rate/EUR/USD?amount=100');
    assert.equal(res.statusCode, 404);
    const { error, message } = res.json();
    assert.equal(error, 'no_fresh_rate');
    assert.match(message, /no fresh rate for EUR\/USD: the newest figures Kurs holds for it are of 2026-06-09, .*has not reached their feeds since; .*\/v1\/rate\/EUR\/USD\?date=2026-06-09$/);
    assert.equal(res.headers['x-points-cost'], '0');
  });

  test('a bulk conversion that converts nothing is answered in full and charged nothing', async () => {
    const before = (await t.store.getAccount(accountId))!.points;
    const res = await t.app.inject({ method: 'POST', url: '/v1/rates/convert', headers: { authorization: key }, payload: { base: 'EUR', amount: 5, targets: ['USD', 'JPY'] } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().rates, {});
    assert.deepEqual(res.json().missing, ['USD', 'JPY']);
    assert.equal(res.headers['x-points-cost'], '0');
    assert.equal(res.headers['x-points-remaining'], String(before));
    assert.equal((await t.store.getAccount(accountId))!.points, before);
  });
});

describe('requests a newcomer gets slightly wrong (issue 34 items 8 and 10)', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await testApp({ history: true });
    ({ key } = await t.key({ plan: 'business', points: 10_000 }));
  });
  after(() => t.close());
  const get = (url: string, authorization = key) => t.app.inject({ url, headers: { authorization } });
  const convert = (payload: unknown) => t.app.inject({ method: 'POST', url: '/v1/rates/convert', headers: { authorization: key }, payload: payload as object });

  test('a Bearer-prefixed key is refused (D3) with a message saying to send it bare', async () => {
    for (const prefixed of [`Bearer ${key}`, `bearer ${key}`, `Token ${key}`]) {
      const res = await get('/v1/EUR/latest', prefixed);
      assert.equal(res.statusCode, 401);
      assert.deepEqual(res.json(), { code: 401, error: 'invalid_key', message: 'API key invalid: send the bare key, without a prefix such as "Bearer " (Authorization: kurs_…)' });
    }
    // A wrong key of the right shape learns nothing more than before.
    assert.equal((await get('/v1/EUR/latest', `kurs_${'a'.repeat(32)}`)).json().message, 'API key invalid or revoked');
  });

  test('a day that is shaped right but not on the calendar is named as such', async () => {
    const res = await get('/v1/EUR/2023-02-30');
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().details, [{ field: 'date', message: 'must be a calendar day; 2023-02-30 is not one' }]);
    assert.deepEqual((await get('/v1/EUR/2023-2-3')).json().details, [{ field: 'date', message: 'must be a date shaped YYYY-MM-DD' }]);
  });

  test('a wrong type takes its article; an unknown body field is a 422 like an unknown parameter', async () => {
    const targets = await convert({ base: 'EUR', targets: 'USD' });
    assert.equal(targets.statusCode, 422);
    assert.deepEqual(targets.json().details, [{ field: 'targets', message: 'must be an array' }]);
    const unknown = await convert({ base: 'EUR', targets: ['USD'], ammount: 5 });
    assert.equal(unknown.statusCode, 422);
    assert.equal(unknown.json().error, 'invalid_body');
    assert.deepEqual(unknown.json().details, [{ field: 'body', message: 'has no field "ammount"' }]);
    assert.equal(unknown.headers['x-points-cost'], '0');
  });

  test('a time series lists the symbols it has no figures for in `missing`', async () => {
    const held = new Set(seed().sources.flatMap((s) => s.rows.map((r) => r[1])));
    const absent = ACTIVE_CURRENCIES.map((c) => c.code).find((c) => !held.has(c) && !METALS.includes(c as (typeof METALS)[number]));
    assert.ok(absent, 'a currency the bundled seed does not hold');
    const res = await get(`/v1/timeseries/EUR?start=2026-03-02&end=2026-03-06&symbols=USD,${absent}`);
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(body.missing, [absent]);
    for (const rates of Object.values(body.rates as Record<string, Record<string, number>>)) assert.deepEqual(Object.keys(rates), ['USD']);
    assert.equal((await get('/v1/timeseries/EUR?start=2026-03-02&end=2026-03-06&symbols=USD')).json().missing, undefined);
  });
});
