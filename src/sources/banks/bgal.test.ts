// BGAL recorded payloads are grade A (complete VCR recordings, SOURCES-2.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './bgal.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BGAL');

const page = (n: number) => `bpstat-dataset-23e0cdd5-1998-12-28_1998-12-31-page${n}.json`;
const SERIES = 'bpstat-dataset-23e0cdd5-series-180121-page1.json';
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const parse = (doc: unknown) => source.parse({ name: 'datasets/23e0cdd56bddb4ad3016a9c3ad63a539/?lang=EN&page=1', body: Buffer.from(typeof doc === 'string' ? doc : JSON.stringify(doc)) });
const rates = (obs: Observation[], quote: string) => obs.filter((o) => o.quote === quote).map((o) => `${o.date} ${o.rate}`);
const quotes = (obs: Observation[]) => [...new Set(obs.map((o) => o.quote))].sort();

/** A dataset page in the BPstat layout: currencies x dates, every other dimension of one category. */
function dataset(cats: [string, string][], dates: string[], value: unknown[], series = cats): Record<string, unknown> {
  const one = (id: string, label: string) => ({ label: 'x', category: { index: [id], label: { [id]: label } } });
  return {
    version: '2.0', class: 'dataset', id: ['12', '13', '18', '40', 'reference_date'], size: [cats.length, 1, 1, 1, dates.length],
    extension: { num_series: 705, series: series.map(([cat, code], i) => ({ id: 180121 + i, label: `X (${code}) against Escudo - daily`, dimension_category: [{ dimension_id: 13, category_id: 794 }, { dimension_id: 12, category_id: Number(cat) }] })) },
    value,
    dimension: {
      '12': { label: 'Counterparty currency', category: { index: cats.map(([id]) => id), label: {} } },
      '13': one('794', 'Portuguese Escudo'), '18': one('35', 'Banco de Portugal'), '40': one('4263', 'Daily'),
      reference_date: { label: 'Date', category: { index: dates } },
    },
  };
}

describe('BGAL recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [page(1), page(2), page(3), SERIES]);
  });

  test('source is historical: the escudo ended with 1998', () => {
    assert.equal(source.discontinued, '1998-12-31');
    assert.equal(source.currency, 'PTE');
  });

  test('28-31 Dec 1998, three pages: the 24 daily series, each read on the page that lists it', () => {
    const [p1, p2, p3] = [parseFile(page(1)), parseFile(page(2)), parseFile(page(3))];
    assert.deepEqual(quotes(p1), 'CHF ESP GBP IEP ITL NOK SEK USD XEU ZAR'.split(' '));
    assert.deepEqual(quotes(p2), 'CAD CVE DEM DKK FIM FRF GRD JPY MOP NLG'.split(' '));
    assert.deepEqual(quotes(p3), 'ATS AUD BEF BRL'.split(' '));
    for (const obs of [p1, p2, p3]) {
      assert.equal(obs.length, quotes(obs).length * 4);
      assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'direct'));
      assert.deepEqual([...new Set(obs.map((o) => o.date))], ['1998-12-28', '1998-12-29', '1998-12-30', '1998-12-31']);
    }
    assert.deepEqual(rates(p1, 'USD'), ['1998-12-28 172.392', '1998-12-29 171.755', '1998-12-30 171.036', '1998-12-31 171.829']);
    // The ECU (ISO XEU) on 31 Dec 1998 is the escudo's euro conversion rate, 200.482.
    assert.deepEqual(rates(p1, 'XEU').at(-1), '1998-12-31 200.482');
    assert.deepEqual(rates(p1, 'ITL')[0], '1998-12-28 0.10353');
    assert.deepEqual(rates(p1, 'ESP'), ['1998-12-28 1.205', '1998-12-29 1.2051', '1998-12-30 1.205', '1998-12-31 1.2049']);
    assert.deepEqual(rates(p2, 'JPY')[0], '1998-12-28 1.4821');
    assert.deepEqual(rates(p2, 'DEM').at(-1), '1998-12-31 102.505');
    assert.deepEqual(rates(p2, 'NLG')[0], '1998-12-28 90.998');
    // BEF's category is on page 2 too, but its series (and code) only on page 3.
    assert.deepEqual(rates(p3, 'BEF'), ['1998-12-28 4.9708', '1998-12-29 4.9707', '1998-12-30 4.9701', '1998-12-31 4.9698']);
    assert.deepEqual(rates(p3, 'ATS').at(-1), '1998-12-31 14.57');
  });

  test('the series_ids query: 1987-01-02..1998-12-31 for the ten series listed on its first page', () => {
    const obs = parseFile(SERIES);
    assert.deepEqual(quotes(obs), 'CHF ESP GBP IEP ITL NOK SEK USD XEU ZAR'.split(' '));
    assert.equal(obs.length, 10 * 2959);
    const usd = rates(obs, 'USD');
    assert.equal(usd[0], '1987-01-02 144.806');
    assert.equal(usd.at(-1), '1998-12-31 171.829');
    assert.ok(usd.includes('1992-04-06 138.928'));
    assert.ok(usd.includes('1990-10-01 137.35'));
    assert.equal(rates(obs, 'XEU')[0], '1987-01-02 156.666');
    assert.equal(rates(obs, 'ITL')[0], '1987-01-02 0.10831');
    assert.equal(rates(obs, 'ZAR')[0], '1987-01-02 66.777');
  });

  test('requests the three pages of the daily dataset and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    const url = (p: number, from = '2026-03-02', to = '2026-03-06') =>
      `http://127.0.0.1:1/domains/29/datasets/23e0cdd56bddb4ad3016a9c3ad63a539/?dim_cats=40:4263&lang=EN&obs_since=${from}&obs_to=${to}&page=${p}`;
    assert.deepEqual(requests, [1, 2, 3].map((p) => ({ url: url(p) })));
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const server = await startFeedServer((path) => {
      const m = /obs_since=1998-12-28&obs_to=1998-12-31&page=(\d)$/.exec(path);
      return m ? { body: readFileSync(new URL(page(Number(m[1])), DIR)), contentType: 'application/json' } : undefined;
    });
    try {
      const payloads = await fetchSource(source, { from: '1998-12-28', to: '1998-12-31' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.map((p) => source.parse(p)), [parseFile(page(1)), parseFile(page(2)), parseFile(page(3))]);
      assert.equal(server.requests.length, 3);
    } finally {
      await server.close();
    }
  });
});

describe('BGAL edge cases', () => {
  const DATES = ['1998-12-30', '1998-12-31'];

  test('reads the cube in dimension order, skipping nulls and categories without a series', () => {
    const doc = dataset([['826', 'USD'], ['783', 'NLG'], ['2777', 'ECU']], DATES, [171.036, null, 90.982, 90.975, 200.991, 200.482], [['826', 'USD'], ['2777', 'ECU']]);
    assert.deepEqual(parse(doc), [
      { date: '1998-12-30', quote: 'USD', rate: '171.036', unit: 1, direction: 'direct' },
      { date: '1998-12-30', quote: 'XEU', rate: '200.991', unit: 1, direction: 'direct' },
      { date: '1998-12-31', quote: 'XEU', rate: '200.482', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>Server Error (500)</title></head><body></body></html>'), ParseError);
  });

  test('rejects a truncated page and an empty dataset', () => {
    const text = JSON.stringify(dataset([['826', 'USD']], DATES, [171.036, 171.829]));
    assert.throws(() => parse(text.slice(0, text.length / 2)), /not JSON/);
    assert.throws(() => parse(dataset([], DATES, [], [])), /holds no escudo rates/);
    assert.throws(() => parse(dataset([['826', 'USD']], DATES, [171.036])), /value holds 1 figures/);
  });

  test('rejects rates against another currency and series that are not escudo rates', () => {
    const dollars = dataset([['826', 'USD']], DATES, [1, 2]);
    (dollars.dimension as Record<string, unknown>)['13'] = { label: 'x', category: { index: ['795'], label: { '795': 'Euro' } } };
    assert.throws(() => parse(dollars), /not the escudo/);
    const monthly = dataset([['826', 'USD']], DATES, [1, 2]);
    (monthly.extension as { series: { label: string }[] }).series[0]!.label = 'US, Dollars (USD) against Escudo - monthly average';
    assert.throws(() => parse(monthly), /not a daily rate against the escudo/);
    assert.throws(() => parse({ ...dataset([['826', 'USD']], DATES, [1, 2]), version: '1.0' }), /not a JSON-stat 2.0 dataset/);
  });

  test('accepts this dataset only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://bpstat.bportugal.pt/data/v1/domains/29/datasets/0000/?lang=EN'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
