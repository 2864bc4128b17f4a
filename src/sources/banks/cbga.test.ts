// CBGA payloads are grade A (SOURCES-2.md): complete recordings.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './cbga.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('CBGA');
const file = (ccy: string) => `cbg-indicative-exchange-rates-${ccy}-2026-05-24.json`;

const parse = (body: string, name = 'ajax/indicative-exchange-rates/USD') => source.parse({ name, body: Buffer.from(body) }) as Observation[];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const on = (obs: Observation[], date: string) => {
  const o = obs.find((x) => x.date === date);
  return o && `${o.quote} ${o.rate}/${o.unit}`;
};

describe('CBGA recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), ['EUR', 'JPY', 'USD', 'XDR', 'XOF'].map(file));
  });

  test('USD and EUR: the archive since 2000-01-07, days whose repeats disagree left out', () => {
    const usd = parseFile(file('USD'));
    // 1,778 pairs on 1,771 days, 6 of which carry two different figures.
    assert.equal(usd.length, 1765);
    assert.ok(usd.every((o) => o.quote === 'USD' && o.unit === 1 && o.direction === 'direct'));
    assert.equal(on(usd, '2026-05-22'), 'USD 72.39/1');
    assert.equal(on(usd, '2000-01-07'), 'USD 11.56/1');
    const eur = parseFile(file('EUR'));
    assert.equal(eur.length, 1760);
    assert.equal(on(eur, '2026-05-22'), 'EUR 86.28/1');
    assert.equal(on(eur, '2000-01-07'), 'EUR 12.07/1');
    // Published twice that day, as 51.91 and as 43.41.
    assert.equal(on(eur, '2015-08-27'), undefined);
  });

  test('JPY per 100 and XOF per 5,000, though the payload never says so', () => {
    const jpy = parseFile(file('JPY'));
    assert.equal(jpy.length, 833);
    assert.ok(jpy.every((o) => o.unit === 100));
    assert.equal(on(jpy, '2026-05-22'), 'JPY 45.47/100');
    assert.equal(on(jpy, '2007-01-05'), 'JPY 23.53/100');
    const xof = parseFile(file('XOF'));
    assert.equal(xof.length, 1485);
    assert.ok(xof.every((o) => o.unit === 5000));
    assert.equal(on(xof, '2026-05-22'), 'XOF 646.22/5000');
    assert.equal(on(xof, '2005-01-07'), 'XOF 279.33/5000');
  });

  test('XDR: a day repeated with the same figure is kept once', () => {
    const xdr = parseFile(file('XDR'));
    assert.equal(xdr.length, 738);
    assert.equal(on(xdr, '2026-05-22'), 'XDR 98.9/1');
    assert.equal(on(xdr, '2026-05-19'), 'XDR 100.64/1');
    assert.equal(xdr.filter((o) => o.date === '2026-05-19').length, 1);
    assert.equal(on(xdr, '2019-11-18'), 'XDR 70.28/1');
  });

  test('requests every series and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.equal(requests.length, 31);
    assert.deepEqual(requests[0], { url: 'http://127.0.0.1:1/indicative-exchange-rates/USD' });
    assert.ok(requests.some((r) => r.url.endsWith('/XOF')) && requests.some((r) => r.url.endsWith('/SLL')));
    assert.ok(!requests.some((r) => r.url.endsWith('/DKK')));
    assert.equal(source.requests(window, { base: source.baseUrl })[0]!.url, source.feedUrl);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const served = ['USD', 'EUR', 'JPY', 'XDR', 'XOF'];
    const server = await startFeedServer((path) => {
      const ccy = /^\/indicative-exchange-rates\/([A-Z]{3})$/.exec(path)?.[1];
      return ccy && served.includes(ccy) ? { body: readFileSync(new URL(file(ccy), DIR)), contentType: 'application/json' } : { body: '[]' };
    });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 31);
      const read = payloads.filter((p) => served.some((c) => p.name.endsWith(`/${c}`)));
      assert.deepEqual(read.flatMap((p) => source.parse(p) as Observation[]), ['USD', 'EUR', 'XOF', 'JPY', 'XDR'].flatMap((c) => parseFile(file(c))));
    } finally {
      await server.close();
    }
  });
});

describe('CBGA edge cases', () => {
  test('dates each figure by its midnight-UTC time and keeps the series code from the name', () => {
    assert.deepEqual(parse('[[1772668800000,72.4],[1772582400000,72.35]]', 'ajax/indicative-exchange-rates/NOK'), [
      { date: '2026-03-05', quote: 'NOK', rate: '72.4', unit: 100, direction: 'direct' },
      { date: '2026-03-04', quote: 'NOK', rate: '72.35', unit: 100, direction: 'direct' },
    ]);
    // GNF rounded to two decimals can reach 0: that day has no figure.
    assert.deepEqual(parse('[[1772668800000,0],[1772582400000,0.01]]', 'ajax/indicative-exchange-rates/GNF').map((o) => o.date), ['2026-03-04']);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>Page not found | Central Bank of The Gambia</title></head><body></body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    assert.throws(() => parse('[[1772668800000,72.4],[1772582400000,72.3'), /not JSON/);
  });

  test('rejects an empty series, bad pairs and series it does not read', () => {
    assert.throws(() => parse('[]'), /holds no rates/);
    assert.throws(() => parse('{"error":"not found"}'), /not an array/);
    assert.throws(() => parse('[[1772668800000]]'), /not a \[time, rate\] pair/);
    assert.throws(() => parse('[[1772668800123,72.4]]'), /bad time/);
    assert.throws(() => parse('[[1772668800000,"n/a"]]'), /USD on 2026-03-05: not a number/);
    assert.throws(() => parse('[[1772668800000,1]]', 'ajax/indicative-exchange-rates/DKK'), /names no series/);
  });

  test('accepts the listed series only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://www.cbg.gm/ajax/indicative-exchange-rates/SLL'));
    assert.ok(!source.accepts('https://www.cbg.gm/ajax/indicative-exchange-rates/DKK'));
    assert.ok(!source.accepts('https://www.cbg.gm/indicative-exchange-rates-latest'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
