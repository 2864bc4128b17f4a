// AFGB, Da Afghanistan Bank: grade A (complete VCR recording, SOURCES-2.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './afgb.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('AFGB');
const FILE = 'dab-exchange-rates-2026-05-18.html';
const page18May = () => source.parse({ name: FILE, body: readFileSync(new URL(FILE, DIR)) }) as Observation[];
const parsePage = (html: string) => source.parse({ name: 'https://www.dab.gov.af/exchange-rates?field_date_value=2026-03-04', body: Buffer.from(html) }) as Observation[];

const row = (label: string, ...figures: string[]) => `<tr class="odd"><td class="row_1 col_0">${label}</td>${figures.map((f, i) => `<td class="row_1 col_${i + 1}">${f}</td>`).join('')}</tr>`;
const HEAD = '<thead><tr><th class="row_0 col_0">Currency</th><th class="row_0 col_1">Cash (Sell)</th><th class="row_0 col_2">Cash (Buy)</th><th class="row_0 col_3">Transfer (Sell)</th><th class="row_0 col_4">Transfer (Buy)</th></tr></thead>';
/** The page as Drupal renders it: heading, date, the day's table, then the monthly averages. */
const page = (rows: string, day = '<p class="font-weight-light mb-0">Last updated: 4 March 2026</p>') =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8" /><title>Exchange Rates | Da Afghanistan Bank</title></head><body><main role="main">
<h2 class="mb-0">Exchange Rates</h2>${day}
<div class="table-responsive"><table class="table table-striped text-center">${HEAD}<tbody>${rows}</tbody></table></div>
<div class="d-md-flex align-items-end"><div class="mb-2"><h2 class="mb-0">Average Rates</h2></div></div>
<div class="table-responsive"><table class="table table-striped text-center">${HEAD.replace('>Currency<', '>\uFEFFCurrency<')}<tbody>${row('USD$', '64.8335', '64.6335', '64.7835', '64.6835')}</tbody></table></div>
</main></body></html>\n`;
const USD = row('USD$', '71.2000', '70.8000', '71.1000', '70.9000');

describe('AFGB recorded payload', () => {
  test('every recorded file but SOURCE.md is accepted', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('18 May 2026: ten currencies at the transfer midpoint, the rial per 10, averages left out', () => {
    const obs = page18May();
    assert.ok(obs.every((o) => o.date === '2026-05-18' && o.direction === 'direct'));
    const byQuote = Object.fromEntries(obs.map((o) => [o.quote, `${o.rate}/${o.unit}`]));
    assert.deepEqual(byQuote, {
      USD: '63.9767/1',
      EUR: '73.6538/1',
      GBP: '85.2496/1',
      CHF: '81.4886/1',
      INR: '0.7455/1',
      PKR: '0.2212/1',
      IRR: '0.0006/10',
      CNY: '9.6726/1',
      AED: '17.2536/1',
      SAR: '16.6627/1',
    });
  });

  test('requests one optional page per day but Friday and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(
      requests,
      ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05'].map((d) => ({ url: `http://127.0.0.1:1/exchange-rates?field_date_value=${d}`, optional: true })),
    );
    for (const r of requests) assert.ok(source.accepts(r.url), r.url);

    const server = await startFeedServer({ '/exchange-rates?field_date_value=2026-03-04': { body: readFileSync(new URL(FILE, DIR)), contentType: 'text/html; charset=UTF-8' } });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      // The other three days answer 404: optional requests, no payload.
      assert.equal(payloads.length, 1);
      assert.deepEqual(source.parse(payloads[0]!), page18May());
      assert.equal(server.requests.length, 4);
    } finally {
      await server.close();
    }
  });
});

describe('AFGB edge cases', () => {
  test('reads a page of its own making', () => {
    assert.deepEqual(parsePage(page(USD)), [{ date: '2026-03-04', quote: 'USD', rate: '71', unit: 1, direction: 'direct' }]);
  });

  test('a holiday page is no publication', () => {
    const holiday = page('').replace(/<div class="table-responsive"><table[\s\S]*?<\/table><\/div>/, '<div class="view-empty">There were no results.</div>');
    assert.throws(() => parsePage(holiday), NoPublication);
  });

  test('rejects an HTML error page', () => {
    const html = '<!DOCTYPE html><html><head><title>Page not found | Da Afghanistan Bank</title></head><body><h1>Page not found</h1></body></html>';
    assert.throws(() => parsePage(html), (err) => err instanceof ParseError && !(err instanceof NoPublication));
  });

  test('rejects a truncated page', () => {
    const full = page(USD + row('EURO€', '80.1', '79.9', '80.0', '79.95'));
    assert.throws(() => parsePage(full.slice(0, full.indexOf('EURO€'))), /truncated/);
  });

  test('rejects an empty table, unknown labels and pages without a date', () => {
    assert.throws(() => parsePage(page('')), /holds no rates/);
    assert.throws(() => parsePage(page(row('US DOLLAR', '1', '1', '1', '1'))), /unknown currency "US DOLLAR"/);
    assert.throws(() => parsePage(page(USD, '<p>Last updated: yesterday</p>')), /no "Last updated" date/);
    assert.throws(() => parsePage(page(row('USD$', '71.2', '70.8', '-', '70.9'))), /USD transfer sell on 2026-03-04: not a number/);
  });

  test('accepts a day page and the recorded name only', () => {
    assert.ok(source.accepts('https://www.dab.gov.af/exchange-rates?field_date_value=2026-05-18'));
    assert.ok(!source.accepts('https://www.dab.gov.af/ps/exchange-rates'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
