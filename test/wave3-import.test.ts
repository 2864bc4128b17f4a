// Issue 28's acceptance: after importing the ISRA and NABZ recordings (as `kurs ingest --from-dir` does),
// /v1/bank/ISRA and /v1/bank/NABZ answer the figures the Bank of Israel and CBAR published on the
// recorded days, per one unit of each currency, exactly.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { bankUpdate } from '../src/blend/rebase.js';
import { ingestDir } from '../src/ingest/ingest.js';
import { SOURCES, sourceByCode } from '../src/sources/index.js';
import { fixtureDir } from './support/fixtures.js';
import { testApp, type TestApp } from './helpers.js';

const NOW = new Date('2026-11-22T12:00:00Z');

interface Row {
  currency: string;
  rate: number;
  bank_update: string;
}

describe('the ISRA and NABZ payloads imported, served by /v1/bank', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await testApp({ now: NOW, seeded: false });
    ({ key } = await t.key({ plan: 'business', points: 1000 }));
    const report = await ingestDir(t.store, SOURCES, fileURLToPath(fixtureDir()), () => NOW, ['ISRA', 'NABZ']);
    assert.deepEqual(report.unknownFolders, []);
    assert.deepEqual(report.outcomes.filter((o) => o.status === 'failed'), []);
    await t.market.rebuild(NOW);
  });
  after(() => t?.close());

  const bank = async (url: string): Promise<Map<string, Row>> => {
    const res = await t.app.inject({ url, headers: { authorization: key } });
    assert.equal(res.statusCode, 200, res.body);
    return new Map((res.json().rates as Row[]).map((r) => [r.currency, r]));
  };

  test('ISRA on 2014-05-30: the 14 representative rates, JPY per 100 and LBP per 10 divided out', async () => {
    const rows = await bank('/v1/bank/ISRA?date=2014-05-30&format=full');
    const expected = { USD: 3.475, GBP: 5.8158, JPY: 0.034188, EUR: 4.7283, AUD: 3.2369, CAD: 3.2083, DKK: 0.6335, NOK: 0.5822, ZAR: 0.3327, SEK: 0.521, CHF: 3.8735, JOD: 4.9046, LBP: 0.0023, EGP: 0.486 };
    assert.deepEqual(Object.fromEntries([...rows.values()].map((r) => [r.currency, r.rate])), expected);
    const isra = sourceByCode('ISRA')!;
    for (const r of rows.values()) assert.equal(r.bank_update, bankUpdate(isra, '2014-05-30'), r.currency);
    assert.match(bankUpdate(isra, '2014-05-30'), /^2014-05-30 13:15:00/);
  });

  test('NABZ on 2026-10-02: the bulletin\'s currencies per one unit, the SDR as XDR', async () => {
    const rows = await bank('/v1/bank/NABZ?date=2026-10-02&format=full');
    const rate = (code: string) => rows.get(code)?.rate;
    // 38 currencies and the 4 bank metals, per troy ounce.
    const codes = 'AED AUD BYN CAD CHF CNY CZK DKK EUR GBP GEL HKD HUF ILS INR JPY KGS KRW KWD KZT MDL NOK NZD PKR PLN QAR RON RSD RUB SAR SEK SGD TMT TRY UAH USD UZS XAG XAU XDR XPD XPT';
    assert.equal([...rows.keys()].sort().join(' '), codes);
    assert.equal(rate('XAU'), 7114.3555);
    assert.equal(rate('USD'), 1.7);
    assert.equal(rate('EUR'), 1.9129);
    assert.equal(rate('GBP'), 2.2458);
    assert.equal(rate('XDR'), 2.3051);
    assert.equal(rate('TRY'), 0.0346);
    assert.equal(rate('JPY'), 0.010769);
    assert.equal(rate('KZT'), 0.00384);
    assert.equal(rate('RUB'), 0.020186);
    assert.equal(rate('KRW'), 0.001253);
    const nabz = sourceByCode('NABZ')!;
    // Dated by the day it takes effect, set the business day before (publishedDayOffset -1).
    for (const r of rows.values()) assert.equal(r.bank_update, bankUpdate(nabz, '2026-10-02'), r.currency);
  });
});
