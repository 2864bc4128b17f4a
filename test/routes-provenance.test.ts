import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Decimal } from '../src/money/decimal.js';
import { seed, testApp, type TestApp } from './helpers.js';

describe('GET /v1/rate/{base}/{target}/sources (provenance)', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await testApp();
    ({ key } = await t.key({ plan: 'business', points: 100 }));
  });
  after(() => t.close());
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: key } });

  test('lists each leg\'s banks with published figure, date, weight and exclusion', async () => {
    const res = await get('/v1/rate/EUR/USD/sources');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.rate, (await get('/v1/rate/EUR/USD')).json().rate);
    assert.equal(body.fresh, true);
    const [eur, usd] = body.legs;
    assert.equal(eur.currency, 'EUR');
    assert.equal(eur.method, 'blend');
    assert.equal(usd.method, 'pivot');
    const ecb = eur.sources.find((s: { bank_code: string }) => s.bank_code === 'ECBF');
    const published = seed().sources.find((s) => s.source === 'ECBF')!.rows.filter((r) => r[1] === 'USD').at(-1)!;
    assert.equal(String(ecb.published), new Decimal(published[2]).toString());
    assert.equal(ecb.date, published[0]);
    assert.equal(ecb.direction, 'indirect');
    const counted = eur.sources.filter((s: { excluded: string | null }) => s.excluded === null);
    const total = counted.reduce((sum: Decimal, s: { weight: number }) => sum.plus(String(s.weight)), new Decimal(0));
    assert.ok(total.minus(1).abs().lt('0.00001'), `weights sum to ${total}`);
    for (const s of eur.sources.filter((x: { excluded: string | null }) => x.excluded !== null)) assert.equal(s.weight, 0);
    assert.equal(res.headers['x-points-cost'], '1');
  });

  test('a pegged currency shows its anchor, rate and authority', async () => {
    const [, xof] = (await get('/v1/rate/EUR/XOF/sources')).json().legs;
    assert.equal(xof.method, 'peg');
    assert.deepEqual(xof.peg, { anchor: 'EUR', rate: 655.957, authority: "Banque Centrale des États de l'Afrique de l'Ouest" });
    assert.equal((await get('/v1/rate/EUR/XOF')).json().rate, 655.957);
  });

  test('unknown currencies are 422 and the spec endpoint keeps its shape', async () => {
    assert.equal((await get('/v1/rate/EUR/XYZ/sources')).statusCode, 422);
    assert.deepEqual(Object.keys((await get('/v1/rate/EUR/USD')).json()), ['code', 'message', 'base', 'target', 'rate', 'amount', 'converted', 'last_update']);
  });
});
