import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fixtureDir } from '../../../test/support/fixtures.js';
import { planBackfill } from '../../ingest/backfill.js';
import { Decimal } from '../../money/decimal.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { source } from './cbbs.js';

const DIR = fixtureDir('CBBS');
// The recorded payloads (SOURCE.md describes them and is not one).
const FILES = [
  'GetJson-01-06-2025.json',
  'GetJson-09-25-2026.json',
  'GetJsonForPeriod-1998-01-06-1998-01-08.json',
  'GetJsonForPeriod-2025-01-05-2025-01-06-404.json',
  'GetJsonForPeriod-2026-09-24-2026-09-26.json',
];
// The 404 answer to a range without a list (Sunday-Monday).
const NO_RATES: readonly string[] = ['GetJsonForPeriod-2025-01-05-2025-01-06-404.json'];
const PATH = '/CurrencyExchange/GetJsonForPeriod';

const parse = (body: string) => source.parse({ name: 'GetJson?date=x', body: Buffer.from(body) });
const parseFile = (name: string): Observation[] => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
/** "rate/unit" of one currency on one day. */
const quoted = (obs: Observation[], date: string, quote: string) => {
  const o = obs.find((x) => x.date === date && x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};
const CCY_2026 = 'AUD CAD CHF CNY CZK DKK EUR GBP HUF JPY NOK RSD RUB SEK TRY USD XDR'.split(' ');
const ROW = { Country: 'USA', NumCode: '840', AlphaCode: 'USD', Units: '1', Buy: '1.716319', Middle: '1.720621', Sell: '1.724923', Star: null };

describe('CBBS recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const names = readdirSync(DIR).sort();
    assert.deepEqual(names.filter((f) => source.accepts(f)), FILES);
  });

  test('every recorded payload parses to rates in the contract, or is a listed answer without rates', () => {
    for (const name of FILES) {
      if (NO_RATES.includes(name)) {
        assert.throws(() => parseFile(name), NoPublication, name);
        continue;
      }
      const obs = parseFile(name);
      assert.ok(obs.length > 0, name);
      for (const o of obs) assert.match(`${o.date} ${o.quote} ${o.rate} ${o.unit}`, /^\d{4}-\d{2}-\d{2} [A-Z]{3} \d+(\.\d+)? (1|100)$/, name);
    }
  });

  test('the period export of 2026-09-24..26: three lists (Thursday to Saturday), 17 middle rates each, BAM per Units', () => {
    const obs = parseFile('GetJsonForPeriod-2026-09-24-2026-09-26.json');
    for (const date of ['2026-09-24', '2026-09-25', '2026-09-26']) assert.deepEqual(obs.filter((o) => o.date === date).map((o) => o.quote).sort(), CCY_2026, date);
    assert.ok(obs.every((o) => o.direction === 'direct'));
    assert.equal(quoted(obs, '2026-09-25', 'EUR'), '1.95583/1');
    assert.equal(quoted(obs, '2026-09-25', 'USD'), '1.720621/1');
    assert.equal(quoted(obs, '2026-09-24', 'JPY'), '1.085366/100');
    assert.equal(quoted(obs, '2026-09-26', 'HUF'), '0.535433/100');
    assert.equal(quoted(obs, '2026-09-26', 'RSD'), '1.664776/100');
    // The SDR has a Middle and no Buy or Sell.
    assert.equal(quoted(obs, '2026-09-25', 'XDR'), '2.33354/1');
  });

  test('GetJson pads to six decimals: its 2026-09-25 list is the period export\'s, value for value', () => {
    const one = parseFile('GetJson-09-25-2026.json');
    const period = parseFile('GetJsonForPeriod-2026-09-24-2026-09-26.json').filter((o) => o.date === '2026-09-25');
    assert.equal(quoted(one, '2026-09-25', 'EUR'), '1.955830/1');
    assert.equal(quoted(one, '2026-09-25', 'XDR'), '2.333540/1');
    const value = (obs: Observation[]) => obs.map((o) => `${o.quote} ${new Decimal(o.rate).toString()}/${o.unit}`).sort();
    assert.deepEqual(value(one), value(period));
  });

  test('GetJson asked for Monday 2025-01-06 answers the list in force: Saturday 2025-01-04\'s', () => {
    const obs = parseFile('GetJson-01-06-2025.json');
    assert.deepEqual([...new Set(obs.map((o) => o.date))], ['2025-01-04']);
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY_2026);
    assert.equal(quoted(obs, '2025-01-04', 'USD'), '1.899048/1');
    assert.equal(quoted(obs, '2025-01-04', 'JPY'), '1.209019/100');
    assert.equal(quoted(obs, '2025-01-04', 'GBP'), '2.356620/1');
  });

  test('1998: pre-euro currencies per 100, the ECU (XBA) as XEU, the peseta (ESB) as ESP, empty KWD left out', () => {
    const obs = parseFile('GetJsonForPeriod-1998-01-06-1998-01-08.json');
    for (const date of ['1998-01-06', '1998-01-08']) assert.equal(obs.filter((o) => o.date === date).length, 22, date);
    assert.ok(!obs.some((o) => ['KWD', 'XBA', 'ESB'].includes(o.quote)));
    assert.equal(quoted(obs, '1998-01-06', 'XEU'), '1.97509972/1');
    assert.equal(quoted(obs, '1998-01-08', 'XEU'), '1.97558683/1');
    assert.equal(quoted(obs, '1998-01-06', 'ESP'), '1.18233618/100');
    // The mark at par: 100 KM per 100 DEM.
    assert.equal(quoted(obs, '1998-01-06', 'DEM'), '100/100');
    assert.equal(quoted(obs, '1998-01-06', 'USD'), '1.80310541/1');
    assert.equal(quoted(obs, '1998-01-08', 'ITL'), '0.10255242/100');
    assert.equal(quoted(obs, '1998-01-08', 'CHF'), '123.24521422/100');
  });

  test('the 404 answer of a range without a list, "Problem with export", is no publication', () => {
    assert.throws(() => parseFile('GetJsonForPeriod-2025-01-05-2025-01-06-404.json'), NoPublication);
  });
});

describe('CBBS edge cases', () => {
  test('an HTML error page and a truncated payload are ParseErrors', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><body>Service unavailable</body></html>'), ParseError);
    const body = readFileSync(new URL('GetJson-09-25-2026.json', DIR));
    assert.throws(() => source.parse({ name: 'GetJson-09-25-2026.json', body: body.subarray(0, body.length >> 1) }), /is not JSON/);
  });

  test('rejects an empty list, a bad date, a bad unit, a row without its middle rate', () => {
    const list = (items: object[], date = '2026-09-25T00:00:00') => JSON.stringify({ CurrencyExchangeItems: items, Date: date, Comments: [], Number: 189 });
    assert.deepEqual(parse(list([ROW])), [{ date: '2026-09-25', quote: 'USD', rate: '1.720621', unit: 1, direction: 'direct' }]);
    assert.throws(() => parse('[]'), /holds no rates/);
    assert.throws(() => parse(list([])), /holds no rates/);
    assert.throws(() => parse(list([ROW], '25.09.2026')), /bad list Date/);
    assert.throws(() => parse(list([{ ...ROW, Units: '0' }])), /USD Units on 2026-09-25/);
    assert.throws(() => parse(list([{ ...ROW, Middle: '' }])), /USD Middle on 2026-09-25/);
    assert.throws(() => parse(JSON.stringify({ Date: '2026-09-25T00:00:00' })), /without CurrencyExchangeItems/);
  });
});

describe('CBBS requests', () => {
  const ctx = { base: 'http://127.0.0.1:1' };

  test('a range per calendar year, reaching the day after the window (today\'s list is tomorrow\'s), 404 meaning no list', () => {
    assert.deepEqual(source.requests({ from: '2026-09-20', to: '2026-09-25' }, ctx), [{ url: `http://127.0.0.1:1${PATH}?dateFrom=2026-09-20&dateTo=2026-09-26`, optional: true }]);
    assert.deepEqual(source.requests({ from: '2025-12-20', to: '2025-12-31' }, ctx).map((r) => r.url), [
      `http://127.0.0.1:1${PATH}?dateFrom=2025-12-20&dateTo=2025-12-31`,
      `http://127.0.0.1:1${PATH}?dateFrom=2026-01-01&dateTo=2026-01-01`,
    ]);
    const history = source.requests({ from: '1998-01-06', to: '2026-09-25' }, ctx);
    assert.equal(history.length, 29);
    assert.equal(history[0]!.url, `http://127.0.0.1:1${PATH}?dateFrom=1998-01-06&dateTo=1998-12-31`);
    assert.ok(history.every((r) => r.optional === true && source.accepts(r.url)));
    const { plans } = planBackfill([source], { from: '1998-01-06', to: '2026-09-25' }, { sourceUrls: { CBBS: ctx.base }, sourceKeys: {} });
    assert.deepEqual(plans.map((p) => [p.requests, p.perDay]), [[29, false]]);
    assert.ok(source.accepts('https://www.cbbh.ba/CurrencyExchange/GetJson?date=09/25/2026%2000:00:00'));
    assert.ok(!source.accepts('SOURCE.md'));
  });

  test('round trip through the local feed server: the lists, and a Sunday-Monday range\'s 404 skipped', async () => {
    const server = await startFeedServer((url) => {
      if (url === `${PATH}?dateFrom=2026-09-24&dateTo=2026-09-26`) return { body: readFileSync(new URL('GetJsonForPeriod-2026-09-24-2026-09-26.json', DIR)), contentType: 'application/json; charset=utf-8' };
      if (url === `${PATH}?dateFrom=2025-01-05&dateTo=2025-01-06`) return { status: 404, body: readFileSync(new URL('GetJsonForPeriod-2025-01-05-2025-01-06-404.json', DIR)), contentType: 'application/json; charset=utf-8' };
      return undefined;
    });
    try {
      const http = createHttpClient({ retries: 0 });
      const payloads = await fetchSource(source, { from: '2026-09-24', to: '2026-09-25' }, { base: server.url }, http);
      assert.equal(payloads.length, 1);
      assert.deepEqual(source.parse(payloads[0]!), parseFile('GetJsonForPeriod-2026-09-24-2026-09-26.json'));
      assert.deepEqual(await fetchSource(source, { from: '2025-01-05', to: '2025-01-05' }, { base: server.url }, http), []);
      assert.deepEqual(server.requests.map((r) => r.url), [`${PATH}?dateFrom=2026-09-24&dateTo=2026-09-26`, `${PATH}?dateFrom=2025-01-05&dateTo=2025-01-06`]);
    } finally {
      await server.close();
    }
  });
});
