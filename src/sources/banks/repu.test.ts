import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fixtureDir } from '../../../test/support/fixtures.js';
import { planBackfill } from '../../ingest/backfill.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { source } from './repu.js';

const DIR = fixtureDir('REPU');
const CCY_2018 = 'AUD CAD CHF DJF DKK EUR GBP HKD INR JPY MUR NOK NZD SEK SGD USD XDR ZAR'.split(' ');
const CCY_2026 = [...CCY_2018, 'CNY'].sort();
// The recorded payloads (SOURCE.md describes them and is not one): one per currency and range.
const FILES = [
  ...CCY_2018.map((c) => `cours_mid_en_ar_filter-${c}-2018-01-02-2018-01-05.json`),
  ...CCY_2026.map((c) => `cours_mid_en_ar_filter-${c}-2026-09-21-2026-09-23.json`),
].sort();
const PATH = '/admin/wp-json/bfm/cours_mid_en_ar_filter';

const parseFile = (name: string): Observation[] => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const parse = (body: string, name = `https://www.banky-foibe.mg${PATH}?dateFilterDebut=2026%2F09%2F21&dateFilterFin=2026%2F09%2F23&filterData=EUR`) => source.parse({ name, body: Buffer.from(body) });
const rates = (name: string) => Object.fromEntries(parseFile(name).map((o) => [o.date, o.rate]));
const answer = (coursMid: unknown, grapheData: unknown = []) => JSON.stringify({ code: 'cours-de-mid-en-ar-filter', message: 'Cours de Mid en Ariary entre deux dates', data: { status: 200, data: { coursMid, coursMidMax: [], coursMidMin: [], grapheData } } });

describe('REPU recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const names = readdirSync(DIR).sort();
    assert.deepEqual(names.filter((f) => source.accepts(f)), FILES);
  });

  test('every file: its currency (from its name), MGA per 1 unit, French "4 983,29" read as 4983.29, oldest first', () => {
    for (const name of FILES) {
      const currency = /-([A-Z]{3})-/.exec(name)![1];
      const obs = parseFile(name);
      const days = name.includes('2018') ? ['2018-01-02', '2018-01-03', '2018-01-04', '2018-01-05'] : ['2026-09-21', '2026-09-22', '2026-09-23'];
      assert.deepEqual(obs.map((o) => `${o.date} ${o.quote} ${o.unit} ${o.direction}`), days.map((d) => `${d} ${currency} 1 direct`), name);
    }
  });

  test('exact figures as published', () => {
    assert.deepEqual(rates('cours_mid_en_ar_filter-EUR-2026-09-21-2026-09-23.json'), { '2026-09-21': '4984.87', '2026-09-22': '4994.66', '2026-09-23': '4983.29' });
    assert.deepEqual(rates('cours_mid_en_ar_filter-USD-2026-09-21-2026-09-23.json'), { '2026-09-21': '4375.16', '2026-09-22': '4381.82', '2026-09-23': '4391.53' });
    // Trailing zeros stay: "3 125,00".
    assert.equal(rates('cours_mid_en_ar_filter-CAD-2026-09-21-2026-09-23.json')['2026-09-21'], '3125.00');
    // JPY, INR, DJF per 1 unit too.
    assert.equal(rates('cours_mid_en_ar_filter-JPY-2026-09-21-2026-09-23.json')['2026-09-23'], '27.81');
    assert.equal(rates('cours_mid_en_ar_filter-DJF-2018-01-02-2018-01-05.json')['2018-01-02'], '18.20');
    assert.equal(rates('cours_mid_en_ar_filter-XDR-2018-01-02-2018-01-05.json')['2018-01-05'], '4604.84');
    assert.equal(rates('cours_mid_en_ar_filter-CNY-2026-09-21-2026-09-23.json')['2026-09-22'], '653.99');
    assert.equal(rates('cours_mid_en_ar_filter-EUR-2018-01-02-2018-01-05.json')['2018-01-05'], '3884.16');
  });
});

describe('REPU edge cases', () => {
  test('an HTML error page, a truncated payload and a name without its currency are ParseErrors', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><body>Service unavailable</body></html>'), ParseError);
    const body = readFileSync(new URL(FILES[0]!, DIR));
    assert.throws(() => source.parse({ name: FILES[0]!, body: body.subarray(0, body.length >> 1) }), /is not JSON/);
    assert.throws(() => source.parse({ name: `https://www.banky-foibe.mg${PATH}`, body }), /does not say which currency/);
  });

  test('a range without a business day (coursMid `[]`) is no publication', () => {
    assert.throws(() => parse(answer([])), NoPublication);
    assert.throws(() => parse(answer({})), NoPublication);
  });

  test('the two copies of each figure must agree; a bad date or figure fails', () => {
    assert.deepEqual(parse(answer({ '2026-09-23': '4 983,29' }, { '2026-09-23': '4983.29' })), [{ date: '2026-09-23', quote: 'EUR', rate: '4983.29', unit: 1, direction: 'direct' }]);
    assert.throws(() => parse(answer({ '2026-09-23': '4 983,29' }, { '2026-09-23': '4938.29' })), /EUR on 2026-09-23: coursMid "4 983,29" is not grapheData "4938.29"/);
    assert.throws(() => parse(answer({ '23/09/2026': '4 983,29' })), /bad date/);
    assert.throws(() => parse(answer({ '2026-09-23': 'n/d' })), /EUR coursMid on 2026-09-23/);
    assert.throws(() => parse(JSON.stringify({ code: 'rest_no_route', message: 'No route', data: { status: 404 } })), /has no coursMid/);
  });
});

describe('REPU requests', () => {
  const ctx = { base: 'http://127.0.0.1:1' };

  test('one POST per currency for the window, with the Origin and Referer of the bank\'s page; backfill plans 19', () => {
    const requests = source.requests({ from: '2026-09-21', to: '2026-09-23' }, ctx);
    assert.equal(requests.length, 19);
    assert.deepEqual(requests.map((r) => new URLSearchParams(r.body).get('filterData')).sort(), CCY_2026);
    const eur = requests.find((r) => r.body?.endsWith('filterData=EUR'))!;
    // The recorded request's form body, field for field.
    assert.equal(eur.body, 'dateFilterDebut=2026%2F09%2F21&dateFilterFin=2026%2F09%2F23&filterData=EUR');
    assert.equal(eur.url, `http://127.0.0.1:1${PATH}?${eur.body}`);
    assert.equal(eur.method, 'POST');
    assert.deepEqual(eur.headers, { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8', origin: 'https://www.banky-foibe.mg', referer: 'https://www.banky-foibe.mg/taux-reference' });
    assert.ok(requests.every((r) => source.accepts(r.url)));
    const { plans } = planBackfill([source], { from: '2018-01-02', to: '2026-09-23' }, { sourceUrls: { REPU: ctx.base }, sourceKeys: {} });
    assert.deepEqual(plans.map((p) => [p.requests, p.perDay]), [[19, false]]);
  });

  test('round trip through the local feed server: each currency\'s answer read as that currency', async () => {
    const server = await startFeedServer((url, req) => {
      const currency = new URLSearchParams(req.body).get('filterData');
      if (req.method !== 'POST' || !url.startsWith(`${PATH}?`) || req.headers.origin !== 'https://www.banky-foibe.mg') return { status: 403, body: 'forbidden' };
      return { body: readFileSync(new URL(`cours_mid_en_ar_filter-${currency}-2026-09-21-2026-09-23.json`, DIR)), contentType: 'application/json; charset=UTF-8' };
    });
    try {
      const payloads = await fetchSource(source, { from: '2026-09-21', to: '2026-09-23' }, { base: server.url }, createHttpClient({ retries: 0 }));
      assert.equal(server.requests.length, 19);
      assert.ok(server.requests.every((r) => r.headers.referer === 'https://www.banky-foibe.mg/taux-reference'));
      const obs = payloads.flatMap((p) => source.parse(p));
      assert.deepEqual([...new Set(obs.map((o) => o.quote))].sort(), CCY_2026);
      assert.deepEqual(obs.filter((o) => o.quote === 'GBP').map((o) => o.rate), ['5860.31', '5854.77', '5831.73']);
    } finally {
      await server.close();
    }
  });
});
