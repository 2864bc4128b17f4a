import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './bnln.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BNLN');
const MONDAY = 'currencies-date-2026-03-02.json';
const TUESDAY = 'currencies-date-2026-03-03.json';

const parse = (body: string) => source.parse({ name: 'https://nbg.gov.ge/gw/api/ct/monetarypolicy/currencies/?date=2026-03-06', body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const quoted = (obs: Observation[], quote: string) => {
  const o = obs.find((x) => x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};

const CCY = 'AED AMD AUD AZN BRL BYN CAD CHF CNY CZK DKK EGP EUR GBP HKD HUF ILS INR IRR ISK JPY KGS KRW KWD KZT MDL NOK NZD PLN QAR RON RSD RUB SEK SGD TJS TMT TRY UAH USD UZS ZAR'.split(' ');
const UNITS = { AED: 10, AMD: 1000, HUF: 100, INR: 100, IRR: 10000, JPY: 100, KRW: 1000, UZS: 1000, USD: 1, EUR: 1 };

describe('BNLN recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [MONDAY, TUESDAY]);
  });

  test('asked for Monday 2 March: the set valid from Saturday 28 February, 42 currencies', () => {
    const obs = parseFile(MONDAY);
    assert.deepEqual([...new Set(obs.map((o) => o.date))], ['2026-02-28']);
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY);
    assert.ok(obs.every((o) => o.direction === 'direct'));
    for (const [quote, unit] of Object.entries(UNITS)) assert.equal(obs.find((o) => o.quote === quote)?.unit, unit, quote);
    assert.equal(quoted(obs, 'USD'), '2.6759/1');
    assert.equal(quoted(obs, 'EUR'), '3.1581/1');
    // rateFormated and the JSON number 7.0960 agree, trailing zero included.
    assert.equal(quoted(obs, 'AMD'), '7.0960/1000');
    assert.equal(quoted(obs, 'UZS'), '0.2200/1000');
    assert.equal(quoted(obs, 'IRR'), '0.0204/10000');
    assert.equal(quoted(obs, 'JPY'), '1.7157/100');
    assert.equal(quoted(obs, 'RUB'), '3.4619/100');
    assert.equal(quoted(obs, 'KWD'), '8.7277/1');
  });

  test('asked for Tuesday 3 March: the set valid from that day', () => {
    const obs = parseFile(TUESDAY);
    assert.deepEqual([...new Set(obs.map((o) => o.date))], ['2026-03-03']);
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY);
    assert.equal(quoted(obs, 'USD'), '2.6922/1');
    assert.equal(quoted(obs, 'EUR'), '3.1606/1');
    assert.equal(quoted(obs, 'AMD'), '7.1407/1000');
    assert.equal(quoted(obs, 'IRR'), '0.0205/10000');
    assert.equal(quoted(obs, 'JPY'), '1.7162/100');
    assert.equal(quoted(obs, 'UZS'), '0.2209/1000');
  });
});

describe('BNLN edge cases', () => {
  const row = (code: string, quantity: number, formatted: string, rate: number) =>
    `{"code":"${code}","quantity":${quantity},"rateFormated":"${formatted}","diffFormated":"0.0010","rate":${rate},"name":"x","diff":-0.0010,"date":"2026-03-05T17:01:03.120Z","validFromDate":"2026-03-06T00:00:00.000Z"}`;
  const set = (rows: string) => `[{"date":"2026-03-06T00:00:00.000Z","currencies":[${rows}]}]`;

  test('takes the published text, falling back to the number', () => {
    assert.deepEqual(parse(set(row('AMD', 1000, '7.1500', 7.15))), [{ date: '2026-03-06', quote: 'AMD', rate: '7.1500', unit: 1000, direction: 'direct' }]);
    const numberOnly = set('{"code":"USD","quantity":1,"rate":2.7010,"date":"2026-03-05T17:01:03.120Z"}');
    assert.deepEqual(parse(numberOnly), [{ date: '2026-03-06', quote: 'USD', rate: '2.7010', unit: 1, direction: 'direct' }]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    const full = set(`${row('USD', 1, '2.7010', 2.701)},${row('EUR', 1, '3.1700', 3.17)}`);
    assert.throws(() => parse(full.slice(0, full.indexOf('"EUR"') + 10)), /not JSON/);
  });

  test('rejects empty tables', () => {
    assert.throws(() => parse('[]'), /holds no rates/);
    assert.throws(() => parse(set('')), /no rates for 2026-03-06/);
    assert.throws(() => parse('{"message":"Not Found"}'), /not an array/);
  });

  test('rejects bad rows', () => {
    assert.throws(() => parse(set(row('USD', 0, '2.7010', 2.701))), /bad USD quantity/);
    assert.throws(() => parse(set(row('USD', 1, '2.70.10', 2.701))), /bad USD rate/);
    assert.throws(() => parse(set(row('$$$', 1, '2.7010', 2.701))), /bad currency/);
    assert.throws(() => parse(set(row('USD', 1, '2.7010', 2.701)).replace('"2026-03-06T00:00:00.000Z","currencies"', '"06.03.2026","currencies"')), /bad date/);
  });

  test('accepts the NBG currencies API only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://nbg.gov.ge/gw/api/ct/monetarypolicy/currencies/?date=2026-03-02&currencies=USD,EUR'));
    assert.ok(!source.accepts('https://nbg.gov.ge/gw/api/ct/monetarypolicy/interest-rates/'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('BNLN requests', () => {
  const servers: { close(): Promise<void> }[] = [];
  after(() => Promise.all(servers.map((s) => s.close())));

  test('one request per calendar day of the window', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(
      requests.map((r) => r.url),
      ['02', '03', '04', '05', '06'].map((d) => `http://127.0.0.1:1/gw/api/ct/monetarypolicy/currencies/?date=2026-03-${d}`),
    );
    assert.ok(requests.every((r) => r.method === undefined && source.accepts(r.name ?? r.url)));
    // Across a month end, and a one-day window.
    assert.deepEqual(source.requests({ from: '2026-02-27', to: '2026-03-01' }, { base: 'b' }).map((r) => r.url.slice(-10)), ['2026-02-27', '2026-02-28', '2026-03-01']);
    assert.equal(source.requests({ from: '2026-03-02', to: '2026-03-02' }, { base: 'b' }).length, 1);
  });

  test('round trip through a local feed server', async () => {
    const json = (name: string) => ({ body: readFileSync(new URL(name, DIR)), contentType: 'application/json; charset=utf-8' });
    // Monday's recorded answer at its exact URL; the recorded Tuesday answer for every other day.
    const server = await startFeedServer({ '/gw/api/ct/monetarypolicy/currencies/?date=2026-03-02': json(MONDAY), '/gw/api/ct/monetarypolicy/currencies/': json(TUESDAY) });
    servers.push(server);
    const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
    assert.equal(payloads.length, 5);
    assert.deepEqual(source.parse(payloads[0]!), parseFile(MONDAY));
    for (const payload of payloads.slice(1)) assert.deepEqual(source.parse(payload), parseFile(TUESDAY));
    assert.equal(server.requests[4]!.url, '/gw/api/ct/monetarypolicy/currencies/?date=2026-03-06');
  });
});
