// Reserve Bank of Malawi. Recorded payload grade A (SOURCES-2.md): a complete recording with the
// server's own headers.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './rbma.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('RBMA');
const FILE = 'rbm-ExchangeRatesFilter-2024-01-02_2024-01-05.html';

const parse = (body: string) => source.parse({ name: source.feedUrl, body: Buffer.from(body) }) as Observation[];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const at = (obs: Observation[], date: string, quote: string) => obs.find((x) => x.date === date && x.quote === quote)?.rate;

const CCY = 'AED ARS AUD BWP CAD CHF CNY DKK ETB EUR GBP HKD IDR INR JPY KES KRW KWD LKR MGA MYR MZN NOK NZD PHP PKR SAR SEK SGD THB TRY TZS USD XDR ZAR ZMW'.split(' ');

describe('RBMA recorded payload', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('2-5 January 2024: four days of 36 currencies, Middle column, CMD and IEP left out', () => {
    const obs = parseFile(FILE);
    assert.deepEqual([...new Set(obs.map((o) => o.date))].sort(), ['2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05']);
    assert.equal(obs.length, 4 * 36);
    for (const date of ['2024-01-02', '2024-01-05']) assert.deepEqual(obs.filter((o) => o.date === date).map((o) => o.quote).sort(), CCY);
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'direct'));
    assert.equal(at(obs, '2024-01-02', 'AED'), '458.3832');
    assert.equal(at(obs, '2024-01-04', 'USD'), '1683.3663');
    assert.equal(at(obs, '2024-01-02', 'EUR'), '1912.8024');
    assert.equal(at(obs, '2024-01-02', 'XDR'), '2258.5213');
    assert.equal(at(obs, '2024-01-05', 'JPY'), '11.6142');
    assert.equal(at(obs, '2024-01-02', 'ZAR'), '94.7898');
    // Printed 65.3100: trailing zeros kept.
    assert.equal(at(obs, '2024-01-05', 'ZMW'), '65.3100');
  });
});

describe('RBMA edge cases', () => {
  const row = (ccy: string, middle: string, day = 'Jan 02') =>
    `<tr><td><strong>\r\n ${ccy}\r\n </strong></td><td>1</td><td>${middle}</td><td>2</td><td style="color: #2670a2;"><span style=''>${day}&nbsp;&nbsp;</span><span style=''>2024</span></td></tr>`;
  const fragment = (rows: string) =>
    `<div>\r\n<h4>Exchange Rates<span class="date pull-right" id="exchangeRateDate">From 02-January-2024 to 02-January-2024 </span></h4>\r\n<table id="exchange-rates" class="table" style="display: none"><thead><tr><th>Currency</th><th>Buying</th><th>Middle</th><th>Selling</th><th>Date</th></tr></thead><tbody>${rows}</tbody></table>\r\n</div>\r\n<script type="text/javascript">var onSuccess = function (data) {};</script>`;

  test('reads the Middle column and the no-break-spaced date', () => {
    assert.deepEqual(parse(fragment(row('USD', '1683.3663') + row('CMD', '1683.3663'))), [{ date: '2024-01-02', quote: 'USD', rate: '1683.3663', unit: 1, direction: 'direct' }]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>The resource cannot be found.</title></head><body><h1>Server Error</h1></body></html>'), ParseError);
  });

  test('rejects a truncated fragment', () => {
    const whole = fragment(row('USD', '1683.3663') + row('EUR', '1912.8024'));
    assert.throws(() => parse(whole.slice(0, whole.indexOf('EUR'))), /truncated/);
  });

  test('an empty table is a window without business days', () => {
    assert.throws(() => parse(fragment('')), NoPublication);
    assert.throws(() => parse(fragment(row('IEP', '1201.7178'))), /only rows that are not rates/);
  });

  test('rejects rows and headers it cannot read', () => {
    assert.throws(() => parse(fragment(row('USD', 'n/a'))), /USD middle on 2024-01-02: not a number/);
    assert.throws(() => parse(fragment(row('US Dollar', '1683.3663'))), /bad currency code/);
    assert.throws(() => parse(fragment(row('USD', '1683.3663', '02/01'))), /bad date/);
    assert.throws(() => parse(fragment(row('USD', '1')).replace('<th>Middle</th>', '<th>Mid</th>')), /columns are/);
  });

  test('accepts the filter endpoint only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.rbm.mw/Statistics/MajorRates'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('RBMA requests', () => {
  test('one form post for the window, dates as mm/dd/yyyy', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [
      {
        url: 'http://127.0.0.1:1/Statistics/ExchangeRatesFilter/',
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'RateTypes=&StartDate=03%2F02%2F2026&EndDate=03%2F06%2F2026',
      },
    ]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url));
  });

  test('round trip through a local feed server', async () => {
    const server = await startFeedServer({ '/Statistics/ExchangeRatesFilter/': { body: readFileSync(new URL(FILE, DIR)), contentType: 'text/html; charset=utf-8' } });
    try {
      const payloads = await fetchSource(source, { from: '2024-01-02', to: '2024-01-05' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 1);
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILE));
      // The same body as the recorded request.
      assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url} ${r.body}`), ['POST /Statistics/ExchangeRatesFilter/ RateTypes=&StartDate=01%2F02%2F2024&EndDate=01%2F05%2F2024']);
    } finally {
      await server.close();
    }
  });
});
