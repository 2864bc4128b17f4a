import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fixtureDir } from '../../../test/support/fixtures.js';
import { daysIn, planBackfill } from '../../ingest/backfill.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { source } from './pboc.js';

const DIR = fixtureDir('PBOC');
// The recorded payloads (SOURCE.md describes them and is not one).
const FILES = [
  'CcprHisNew-2026-06-01-2026-08-31-p1.json',
  'CcprHisNew-2026-09-01-2026-09-04-p1.json',
];
const SEPTEMBER = readFileSync(new URL(FILES[1]!, DIR));
const PATH = '/ags/ms/cm-u-bk-ccpr/CcprHisNew';
const DIRECT = 'AUD CAD CHF EUR GBP HKD JPY NZD SGD USD'.split(' ');
const INDIRECT = 'AED DKK HUF KRW MOP MXN MYR NOK PLN RUB SAR SEK THB TRY ZAR'.split(' ');

const parseFile = (name: string): Observation[] => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const parse = (body: string) => source.parse({ name: FILES[1]!, body: Buffer.from(body) });
/** "rate/unit direction" of one pair on one day. */
const quoted = (obs: Observation[], date: string, quote: string) => {
  const o = obs.find((x) => x.date === date && x.quote === quote);
  return o && `${o.rate}/${o.unit} ${o.direction}`;
};
const doc = () => JSON.parse(SEPTEMBER.toString('utf8')) as { head: Record<string, unknown>; data: Record<string, unknown>; records: { date: string; values: string[] }[] };

describe('PBOC recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const names = readdirSync(DIR).sort();
    assert.deepEqual(names.filter((f) => source.accepts(f)), FILES);
  });

  test('2026-09-01..04: 25 pairs a day, X/CNY direct (CNY per X) and CNY/X indirect (X per CNY), JPY per 100', () => {
    const obs = parseFile(FILES[1]!);
    assert.equal(obs.length, 4 * 25);
    assert.deepEqual(obs.filter((o) => o.direction === 'direct' && o.date === '2026-09-04').map((o) => o.quote).sort(), DIRECT);
    assert.deepEqual(obs.filter((o) => o.direction === 'indirect' && o.date === '2026-09-04').map((o) => o.quote).sort(), INDIRECT);
    assert.equal(quoted(obs, '2026-09-04', 'USD'), '6.7787/1 direct');
    assert.equal(quoted(obs, '2026-09-04', 'JPY'), '4.3135/100 direct');
    assert.equal(quoted(obs, '2026-09-04', 'HKD'), '0.86458/1 direct');
    assert.equal(quoted(obs, '2026-09-04', 'MYR'), '0.59784/1 indirect');
    assert.equal(quoted(obs, '2026-09-04', 'KRW'), '202.07/1 indirect');
    assert.equal(quoted(obs, '2026-09-04', 'TRY'), '7.17587/1 indirect');
    assert.equal(quoted(obs, '2026-09-01', 'EUR'), '7.8406/1 direct');
    assert.equal(quoted(obs, '2026-09-01', 'AED'), '0.54456/1 indirect');
    assert.equal(quoted(obs, '2026-09-02', 'RUB'), '12.9108/1 indirect');
  });

  test('June to August, page 1 of 2: its 50 trading days, trailing zeros kept', () => {
    const obs = parseFile(FILES[0]!);
    const days = [...new Set(obs.map((o) => o.date))];
    assert.equal(days.length, 50);
    assert.equal(obs.length, 50 * 25);
    assert.equal(days[0], '2026-08-31');
    assert.equal(days.at(-1), '2026-06-23');
    // No weekend: 2026-08-29/30 are not there.
    assert.ok(!days.includes('2026-08-29') && !days.includes('2026-08-30'));
    assert.equal(quoted(obs, '2026-08-31', 'CAD'), '4.8600/1 direct');
    assert.equal(quoted(obs, '2026-08-31', 'KRW'), '204.55/1 indirect');
    assert.equal(quoted(obs, '2026-06-23', 'USD'), '6.8171/1 direct');
    assert.equal(quoted(obs, '2026-06-24', 'RUB'), '10.9740/1 indirect');
  });
});

describe('PBOC edge cases', () => {
  test('an HTML error page (the WAF\'s 403 page) and a truncated payload are ParseErrors', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><body>Service unavailable</body></html>'), ParseError);
    assert.throws(() => source.parse({ name: FILES[1]!, body: SEPTEMBER.subarray(0, SEPTEMBER.length >> 1) }), /is not JSON/);
  });

  test('a missing figure ("---") is left out; a span without a trading day is no publication; a refusal fails', () => {
    const d = doc();
    d.records[0]!.values[1] = '---';
    const obs = parse(JSON.stringify(d));
    assert.equal(obs.length, 99);
    assert.equal(quoted(obs, '2026-09-04', 'EUR'), undefined);
    assert.throws(() => parse(JSON.stringify({ ...doc(), records: [] })), NoPublication);
    const refused = { head: { ...doc().head, rep_code: '201', rep_message: '查询时间跨度不能超过一年' }, data: { ...doc().data, head: [] } };
    assert.throws(() => parse(JSON.stringify(refused)), /was refused: "查询时间跨度不能超过一年"/);
  });

  test('an unknown label or a row out of step with the labels fails', () => {
    const d = doc();
    (d.data.head as string[])[0] = 'USD/HKD';
    assert.throws(() => parse(JSON.stringify(d)), /unknown pair "USD\/HKD"/);
    const short = doc();
    short.records[0]!.values.pop();
    assert.throws(() => parse(JSON.stringify(short)), /2026-09-04: 24 values for 25 pairs/);
    const bad = doc();
    bad.records[0]!.values[0] = '6.77.87';
    assert.throws(() => parse(JSON.stringify(bad)), /USD on 2026-09-04/);
  });
});

describe('PBOC requests', () => {
  const ctx = { base: 'http://127.0.0.1:1' };
  const url = (from: string, to: string) => `http://127.0.0.1:1${PATH}?currency=&startDate=${from}&endDate=${to}&pageNum=1&pageSize=50`;

  test('POSTs of at most 60 days (one page of 50 records at most, never a year), every pair at once', () => {
    assert.deepEqual(source.requests({ from: '2026-09-01', to: '2026-09-04' }, ctx), [{ url: url('2026-09-01', '2026-09-04'), method: 'POST', body: '' }]);
    assert.deepEqual(source.requests({ from: '2026-06-01', to: '2026-08-31' }, ctx).map((r) => r.url), [url('2026-06-01', '2026-07-30'), url('2026-07-31', '2026-08-31')]);
    assert.ok(source.requests({ from: '2026-06-01', to: '2026-08-31' }, ctx).every((r) => source.accepts(r.url)));
    assert.ok(!source.accepts('SOURCE.md'));
    // The whole history, 2006-01-04 on: about six requests a year, not one a day.
    const history = { from: '2006-01-04', to: '2026-09-04' };
    const { plans } = planBackfill([source], history, { sourceUrls: { PBOC: ctx.base }, sourceKeys: {} });
    assert.equal(daysIn(history), 7549);
    // 7549 days in spans of 60: 126 requests.
    assert.deepEqual(plans.map((p) => [p.requests, p.perDay]), [[126, false]]);
  });

  test('round trip through the local feed server', async () => {
    const server = await startFeedServer((path, req) => (req.method === 'POST' && path === `${PATH}?currency=&startDate=2026-09-01&endDate=2026-09-04&pageNum=1&pageSize=50` ? { body: SEPTEMBER, contentType: 'application/json;charset=UTF-8' } : undefined));
    try {
      const payloads = await fetchSource(source, { from: '2026-09-01', to: '2026-09-04' }, { base: server.url }, createHttpClient({ retries: 0 }));
      assert.equal(server.requests.length, 1);
      assert.equal(payloads.length, 1);
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILES[1]!));
    } finally {
      await server.close();
    }
  });
});
