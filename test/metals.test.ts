// Gold, silver, platinum and palladium quoted like currencies (issue 38, D19), on the bundled seed on
// a day BNR's gold is fresh: every rate endpoint with a metal as base and as target, per troy ounce;
// the bank's own figure; provenance with each figure's unit; prices of many digits as plain 8-digit
// decimals in JSON, CSV and NDJSON; and the typed client.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { KursClient } from '../client/src/index.js';
import { GRAMS_PER_TROY_OUNCE } from '../src/currencies/troy-ounce.js';
import { Decimal, toRateText } from '../src/money/decimal.js';
import { testApp, type TestApp } from './helpers.js';

/** BNR's gold of 2026-08-19, <Rate currency="XAU">633.3435</Rate> RON per gram, per troy ounce. */
const BNR_GOLD = '19699.1848586808';
/** BNR's dollar that day, <Rate currency="USD">4.5190</Rate>. */
const BNR_USD = '4.5190';
/** The day after BNR's newest figure: its gold is fresh (D10), the other metals are not. */
const CLOCK = new Date('2026-08-20T12:00:00Z');
const MANY_DIGITS = ['IDR', 'IRR', 'VND'];

/** A JSON body's number tokens after `"CODE":`, as sent. */
const tokens = (body: string): Record<string, string> => Object.fromEntries([...body.matchAll(/"([A-Z]{3})":(-?[\d.eE+-]+)/g)].map((m) => [m[1]!, m[2]!]));
/** Plain decimal digits, at most 8 of them significant (D6): never `1e+9` nor `1.6e-10`. */
const plain8 = (text: string | undefined) => text !== undefined && /^\d+(\.\d+)?$/.test(text) && new Decimal(text).sd() <= 8;

describe('metals quoted like currencies (D19), on the bundled seed', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await testApp({ now: CLOCK, history: true });
    key = (await t.key({ plan: 'business', points: 100_000 })).key;
  });
  after(() => t.close());
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { authorization: key, ...headers } });

  test('/v1/XAU/latest is an ounce of gold in USD, EUR, GBP, JPY and over a hundred more, in plain 8-digit decimals', async () => {
    const res = await get('/v1/XAU/latest');
    assert.equal(res.statusCode, 200);
    const rates = tokens(res.body);
    assert.equal(rates.XAU, '1');
    for (const code of ['USD', 'EUR', 'GBP', 'JPY']) assert.ok(plain8(rates[code]), `${code} ${rates[code]}`);
    assert.ok(Object.keys(rates).length >= 105, `${Object.keys(rates).length} codes`);
    for (const [code, text] of Object.entries(rates)) assert.ok(plain8(text), `${code} ${text}`);
    // An ounce at BNR's own dollar, 4,359 USD: the price of an ounce, not of a gram.
    assert.equal(rates.USD, toRateText(new Decimal(BNR_GOLD).div(BNR_USD)));
    // And the other way round: ounces per dollar, per euro…
    const usd = tokens((await get('/v1/USD/latest')).body);
    assert.ok(plain8(usd.XAU) && new Decimal(usd.XAU!).times(rates.USD!).minus(1).abs().lt('2e-7'), usd.XAU);
  });

  test('/v1/rate/USD/XAU is the reciprocal of /v1/rate/XAU/USD to 8 significant digits', async () => {
    const gold = (await get('/v1/rate/XAU/USD')).json();
    const dollar = (await get('/v1/rate/USD/XAU')).json();
    assert.equal(gold.code, 200);
    assert.equal(dollar.code, 200);
    const [a, b] = [new Decimal(String(gold.rate)), new Decimal(String(dollar.rate))];
    assert.ok(a.sd() <= 8 && b.sd() <= 8);
    assert.ok(a.times(b).minus(1).abs().lt('1.5e-7'), `${a} × ${b}`);
    // Both are the one blended figure, rounded once each way: USD/XAU is the ounces per dollar itself.
    const leg = (await get('/v1/rate/XAU/USD/sources')).json().legs[0];
    assert.equal(String(dollar.rate), String(leg.per_usd));
    assert.equal(gold.last_update, '2026-08-19 11:00:00');
  });

  test('/v1/rate/XAU/USD/sources names each publisher with its published figure, unit and weight', async () => {
    const res = await get('/v1/rate/XAU/USD/sources');
    const body = res.json();
    assert.equal(body.fresh, true);
    const [gold, dollar] = body.legs;
    assert.equal(gold.currency, 'XAU');
    assert.equal(dollar.method, 'pivot');
    const listed = new Map<string, Record<string, unknown>>(gold.sources.map((s: { bank_code: string }) => [s.bank_code, s]));
    // Every publisher of gold in the seed, each with its newest figure.
    assert.deepEqual([...listed.keys()].sort(), ['BCEB', 'BCPA', 'BCRA', 'BOMU', 'CBCE', 'CBRA', 'NBOR', 'NBUA', 'STAN']);
    for (const s of listed.values()) {
      assert.ok(Number.isInteger(s.unit) && (s.unit as number) >= 1, JSON.stringify(s));
      assert.ok((s.weight as number) >= 0 && (s.weight as number) <= 1, JSON.stringify(s));
      assert.ok(new Decimal(String(s.published)).gt(0));
    }
    // BNR: its gram price restated per ounce, unit 1, the whole of today's blend (the others are stale).
    assert.match(res.body, /"bank_code":"NBOR","published":19699\.1848586808,"direction":"direct","unit":1,"date":"2026-08-19"/);
    assert.equal(listed.get('NBOR')!.weight, 1);
    assert.equal(listed.get('STAN')!.excluded, 'stale');
    assert.equal(String(listed.get('NBOR')!.per_usd), toRateText(new Decimal(BNR_USD).div(BNR_GOLD)));
    // The gram price is recoverable, exactly.
    assert.equal(new Decimal(BNR_GOLD).div(GRAMS_PER_TROY_OUNCE).toString(), '633.3435');
  });

  test('/v1/bank/NBOR shows gold per troy ounce: the gram price × 31.1034768, every digit', async () => {
    const direct = await get('/v1/bank/NBOR');
    assert.match(direct.body, /"XAU":19699\.1848586808[,}]/);
    const reciprocal = tokens((await get('/v1/bank/NBOR?reciprocal=true')).body);
    assert.equal(reciprocal.XAU, toRateText(new Decimal(1).div(BNR_GOLD)));
    const series = await get('/v1/bank/NBOR/timeseries?start=2026-08-18&end=2026-08-19&symbols=XAU&format=csv');
    assert.equal(series.body.split('\n').filter((l) => l.endsWith('RON per XAU')).at(-1), `2026-08-19,XAU,${BNR_GOLD},RON per XAU`);
  });

  test('/v1/currencies lists the metals under the entities ISO 4217 gives them', async () => {
    const { currencies } = (await get('/v1/currencies')).json() as { currencies: { country_code: string; country_name: string; currency: string }[] };
    assert.deepEqual(currencies.filter((c) => ['XAG', 'XAU', 'XPD', 'XPT'].includes(c.currency)), [
      { country_code: 'ZZ', country_name: 'ZZ11_Silver', currency: 'XAG' },
      { country_code: 'ZZ', country_name: 'ZZ08_Gold', currency: 'XAU' },
      { country_code: 'ZZ', country_name: 'ZZ09_Palladium', currency: 'XPD' },
      { country_code: 'ZZ', country_name: 'ZZ10_Platinum', currency: 'XPT' },
    ]);
  });

  test('an ounce of gold in rupiah, rials and dong keeps 8 significant digits as plain digits, and a rial is 0.000000000… ounces', async () => {
    const gold = tokens((await get('/v1/XAU/latest')).body);
    for (const code of MANY_DIGITS) assert.ok(plain8(gold[code]) && new Decimal(gold[code]!).gte(1e7), `${code} ${gold[code]}`);
    for (const code of MANY_DIGITS) {
      const res = await get(`/v1/${code}/latest`);
      const text = tokens(res.body).XAU!;
      assert.ok(plain8(text) && text.startsWith('0.0000'), `${code}/XAU ${text}`);
      assert.doesNotMatch(res.body, /\d[eE][+-]?\d/);
      assert.ok(new Decimal(text).times(gold[code]!).minus(1).abs().lt('2e-7'), `${code}: ${text} × ${gold[code]}`);
    }
    // The rupiah is fresh on the day (the rial and the dong are not): a million ounces, exactly.
    const pair = await get('/v1/rate/XAU/IDR?amount=1000000');
    assert.doesNotMatch(pair.body, /\d[eE][+-]?\d/);
    const rupiah = pair.json();
    assert.equal(String(rupiah.rate), gold.IDR);
    assert.equal(new Decimal(String(rupiah.converted)).toString(), new Decimal(gold.IDR!).times(1_000_000).toString());
  });

  test('bulk conversion with a metal as base and as target', async () => {
    const post = (body: object) => t.app.inject({ method: 'POST', url: '/v1/rates/convert', headers: { authorization: key, 'content-type': 'application/json' }, payload: body });
    const res = await post({ base: 'XAU', targets: ['USD', 'IDR', 'XAU', 'XPT'], amount: '2.5' });
    assert.doesNotMatch(res.body, /\d[eE][+-]?\d/);
    const body = res.json();
    // Platinum has no fresh rate on the day (its newest figure is March's): `missing`, as a currency's would be.
    assert.deepEqual(body.missing, ['XPT']);
    assert.equal(body.rates.XAU.converted, 2.5);
    const usd = await get('/v1/rate/XAU/USD');
    assert.equal(new Decimal(String(body.rates.USD.rate)).toString(), new Decimal(String(usd.json().rate)).toString());
    assert.equal(new Decimal(String(body.rates.USD.converted)).toString(), new Decimal(String(usd.json().rate)).times('2.5').toString());
    const ounces = (await post({ base: 'EUR', targets: ['XAU'], amount: 1000 })).json();
    assert.ok(ounces.rates.XAU.converted > 0.2 && ounces.rates.XAU.converted < 0.3, JSON.stringify(ounces));
  });

  test('dated answers, ranges and fluctuation: the same figures, as JSON, CSV and NDJSON', async () => {
    const day = tokens((await get('/v1/XAU/2026-08-19')).body);
    assert.equal(day.USD, toRateText(new Decimal(BNR_GOLD).div(BNR_USD)));
    assert.equal(String((await get('/v1/rate/XAU/USD?date=2026-08-19')).json().rate), day.USD);
    const explained = (await get('/v1/rate/USD/XAU/sources?date=2026-08-19')).json();
    assert.equal(explained.legs[1].sources.find((s: { bank_code: string }) => s.bank_code === 'NBOR').unit, 1);

    const range = '/v1/timeseries/XAU?start=2026-08-10&end=2026-08-19&symbols=USD,IDR';
    const json = (await get(range)).body;
    assert.doesNotMatch(json, /\d[eE][+-]?\d/);
    const rates = (JSON.parse(json) as { rates: Record<string, Record<string, number>> }).rates;
    assert.deepEqual(Object.keys(rates), ['2026-08-10', '2026-08-11', '2026-08-12', '2026-08-13', '2026-08-14', '2026-08-17', '2026-08-18', '2026-08-19']);
    // Each value as the JSON writes it, then the CSV and NDJSON lines must carry the same text.
    const texts = [...json.matchAll(/"(\d{4}-\d{2}-\d{2})":\{([^}]*)\}/g)].flatMap((m) => Object.entries(tokens(m[2]!)).map(([code, text]) => `${m[1]},${code},${text}`));
    assert.equal(texts.length, 16);
    for (const line of texts) assert.ok(plain8(line.split(',')[2]), line);
    const csv = (await get(`${range}&format=csv`)).body.trim().split('\n');
    assert.deepEqual(csv, ['date,currency,rate', ...texts]);
    const ndjson = (await get(range, { accept: 'application/x-ndjson' })).body.trim().split('\n');
    assert.deepEqual(ndjson, texts.map((l) => {
      const [date, code, text] = l.split(',');
      return `{"date":"${date}","base":"XAU","currency":"${code}","rate":${text}}`;
    }));

    const fluctuation = await get('/v1/fluctuation/XAU?start=2026-08-10&end=2026-08-19&symbols=USD,IDR');
    assert.doesNotMatch(fluctuation.body, /\d[eE][+-]?\d/);
    const idr = fluctuation.json().rates.IDR;
    assert.equal(String(idr.start_rate), texts[1]!.split(',')[2]);
    assert.equal(new Decimal(String(idr.change)).toString(), new Decimal(String(idr.end_rate)).minus(String(idr.start_rate)).toString());
  });

  test('the typed client reads metals like currencies, exact digits kept', async () => {
    const baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const client = new KursClient({ baseUrl, apiKey: key });
    const exact = new KursClient({ baseUrl, apiKey: key, exact: true });
    const gold = await exact.latest('xau');
    assert.equal(gold.rates.USD, toRateText(new Decimal(BNR_GOLD).div(BNR_USD)));
    assert.ok(((await exact.latest('IRR')).rates.XAU as string).startsWith('0.0000000'));
    const sources = await client.sources('XAU', 'USD');
    assert.ok(sources.legs[0]!.sources.every((s) => s.unit >= 1));
    assert.ok((await client.currencies()).currencies.some((c) => c.currency === 'XAU' && c.country_code === 'ZZ'));
  });
});
