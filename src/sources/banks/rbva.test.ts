// Reserve Bank of Vanuatu. Recorded payload grade A (SOURCES-2.md): a complete recording with the
// server's own headers.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './rbva.js';
import { type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('RBVA');
const FILE = 'rbv-exchange-rates-limit100000-2026-05-24.html';

const parse = (body: string) => source.parse({ name: source.feedUrl, body: Buffer.from(body) }) as Observation[];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const day = (obs: Observation[], date: string) =>
  obs
    .filter((o) => o.date === date)
    .map((o) => `${o.quote} ${o.rate}`)
    .join(', ');

describe('RBVA recorded payload', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('the whole list: 186 business days from 26 Aug 2025 to 22 May 2026, six currencies each', () => {
    const obs = parseFile(FILE);
    const dates = [...new Set(obs.map((o) => o.date))];
    assert.equal(dates.length, 186);
    assert.equal(dates[0], '2026-05-22');
    assert.equal(dates.at(-1), '2025-08-26');
    assert.equal(obs.length, 186 * 6);
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'direct'));
    // Newest rows say "22 May 2026" or "4 May 2026", the oldest "01-Sep-25".
    assert.equal(day(obs, '2026-05-22'), 'USD 116.28, JPY 0.7316, NZD 68.37, GBP 156.19, AUD 83.16, EUR 135.14');
    assert.equal(day(obs, '2026-05-04'), 'USD 115.78, JPY 0.7388, NZD 68.32, GBP 157.50, AUD 83.57, EUR 136.01');
    assert.equal(day(obs, '2025-12-31'), 'USD 119.43, JPY 0.7634, NZD 69.17, GBP 160.85, AUD 79.97, EUR 140.29');
    assert.equal(day(obs, '2025-09-01'), 'USD 118.34, JPY 0.8050, NZD 69.75, GBP 159.81, AUD 77.47, EUR 138.41');
    assert.equal(day(obs, '2025-08-26'), 'USD 119.06, JPY 0.8058, NZD 69.63, GBP 160.23, AUD 77.17, EUR 138.33');
  });
});

describe('RBVA edge cases', () => {
  const HEAD = ['Date', 'USD', 'JPY'].map((h) => `<th class="heading fabrik_ordercell"><span>${h}</span></th>`).join('') + '<th class="heading fabrik_select" style="display:none;"><span><input type="checkbox" name="checkAll" /></span></th>';
  const row = (date: string, usd: string, jpy: string) =>
    `<tr id="list_1_com_fabrik_1_row_1" class="fabrik_row oddRow0"><td class="exchange_rates___date">\n\t\t\t${date}\t\t</td><td class="exchange_rates___usd decimal">${usd}</td><td class="exchange_rates___jpy decimal">${jpy}</td><td class="fabrik_select fabrik_element" style="display:none;"><input type="checkbox" /></td></tr>`;
  const page = (rows: string) =>
    `<!DOCTYPE html>\n<html lang="en-gb"><head><title>Exchange Rates</title></head><body><table class="table" id="list_1_com_fabrik_1"><thead><tr class="fabrik___heading">${HEAD}</tr></thead><tbody class="fabrik_groupdata"><tr class="groupDataMsg" style="display:none"><td class="emptyDataMessage" colspan="4">No records</td></tr>${rows}</tbody></table></body>\n</html>\n`;

  test('reads both date forms and the columns by their headings', () => {
    assert.deepEqual(parse(page(row('9 May 2026', '115.55', '0.7392') + row('01-Sep-25', '118.34', '0.8050'))), [
      { date: '2026-05-09', quote: 'USD', rate: '115.55', unit: 1, direction: 'direct' },
      { date: '2026-05-09', quote: 'JPY', rate: '0.7392', unit: 1, direction: 'direct' },
      { date: '2025-09-01', quote: 'USD', rate: '118.34', unit: 1, direction: 'direct' },
      { date: '2025-09-01', quote: 'JPY', rate: '0.8050', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html>\n<html><head><title>404 - Page not found</title></head><body><h1>404</h1></body></html>'), /has no Fabrik rate list/);
  });

  test('rejects a truncated page', () => {
    const whole = page(row('22 May 2026', '116.28', '0.7316') + row('21 May 2026', '116.31', '0.7322'));
    assert.throws(() => parse(whole.slice(0, whole.indexOf('21 May'))), /truncated/);
  });

  test('rejects an empty list', () => {
    assert.throws(() => parse(page('')), /holds no rates/);
  });

  test('rejects rows and headings it cannot read', () => {
    assert.throws(() => parse(page(row('22 May 2026', '', '0.7316'))), /USD on 2026-05-22: not a number/);
    assert.throws(() => parse(page(row('2026/05/22', '116.28', '0.7316'))), /bad date/);
    assert.throws(() => parse(page(row('22 May 2026', '116.28', '0.7316')).replace('<span>JPY</span>', '<span>Japanese Yen</span>')), /bad currency code/);
    assert.throws(() => parse(page(row('22 May 2026', '116.28', '0.7316').replace(/<td class="exchange_rates___jpy.*?<\/td>/, ''))), /has 3 cells, the headings 4/);
  });

  test('accepts the exchange-rate list only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.rbv.gov.vu/index.php/en/'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('RBVA requests', () => {
  test('the whole list, whatever the window', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/index.php/en/exchange-rates?limit1=100000' }]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url));
  });

  test('round trip through a local feed server', async () => {
    const server = await startFeedServer({ '/index.php/en/exchange-rates?limit1=100000': { body: readFileSync(new URL(FILE, DIR)), contentType: 'text/html; charset=utf-8' } });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 1);
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILE));
    } finally {
      await server.close();
    }
  });
});
