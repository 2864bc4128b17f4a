// CBLR payloads are grade A (SOURCES-2.md): a complete recording.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './cblr.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('CBLR');
const FILE = 'cbl-buying-selling-rates-2026-05-24.html';

const parse = (body: string) => source.parse({ name: 'research/buying-selling-rates?page=0', body: Buffer.from(body) }) as Observation[];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const rate = (obs: Observation[], date: string) => obs.find((o) => o.date === date)?.rate;

describe('CBLR recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('page 0: 31 days from 2026-05-23 back to 2026-04-11, the midpoint of buying and selling', () => {
    const obs = parseFile(FILE);
    assert.equal(obs.length, 31);
    assert.equal(obs[0]!.date, '2026-05-23');
    assert.equal(obs.at(-1)!.date, '2026-04-11');
    assert.ok(obs.every((o) => o.quote === 'USD' && o.unit === 1 && o.direction === 'direct'));
    // Saturdays are published, Sundays are not.
    assert.ok(obs.some((o) => o.date === '2026-05-16'));
    assert.ok(!obs.some((o) => o.date === '2026-05-17'));
    // L$182.0819 and L$183.9653 per US$1.00.
    assert.equal(rate(obs, '2026-05-23'), '183.0236');
    // L$182.0951 and L$184.0141.
    assert.equal(rate(obs, '2026-05-18'), '183.0546');
    // L$182.1161 and L$183.9991.
    assert.equal(rate(obs, '2026-05-21'), '183.0576');
    // L$183.2605 and L$185.3188: the midpoint keeps the half digit.
    assert.equal(rate(obs, '2026-04-11'), '184.28965');
  });

  test('requests the first pages that reach back to the window and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/buying-selling-rates?page=0' }]);
    assert.deepEqual(source.requests({ from: '2026-01-01', to: '2026-03-06' }, { base: source.baseUrl }).map((r) => r.url), [
      'https://www.cbl.org.lr/research/buying-selling-rates?page=0',
      'https://www.cbl.org.lr/research/buying-selling-rates?page=1',
      'https://www.cbl.org.lr/research/buying-selling-rates?page=2',
    ]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const server = await startFeedServer({ '/buying-selling-rates?page=0': { body: readFileSync(new URL(FILE, DIR)), contentType: 'text/html; charset=UTF-8' } });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p) as Observation[]), parseFile(FILE));
    } finally {
      await server.close();
    }
  });
});

describe('CBLR edge cases', () => {
  const row = (iso: string, buy: string, sell: string) => `<tr>
    <td class="press-release-home-css views-field views-field-field-content-post-date" headers="view-field-content-post-date-table-column"><div>
      <time datetime="${iso}T12:00:00Z">Thursday, March 5, 2026</time>
    </div></td>
    <td headers="view-field-buying-us-table-column" class="views-field views-field-field-buying-us">${buy}          </td>
    <td headers="view-field-selling-us-table-column" class="views-field views-field-field-selling-us">${sell}          </td>
  </tr>`;
  const page = (rows: string) => `<!DOCTYPE html><html lang="en"><body><div class="view-content">
<table class="table table-striped table-hover cols-3"><thead><tr>
  <th id="view-field-content-post-date-table-column" class="views-field views-field-field-content-post-date" scope="col">Date</th>
  <th id="view-field-buying-us-table-column" class="views-field views-field-field-buying-us" scope="col">Buying</th>
  <th id="view-field-selling-us-table-column" class="views-field views-field-field-selling-us" scope="col">Selling</th>
</tr></thead><tbody>${rows}</tbody></table></div></body></html>`;

  test('reads a row and takes the exact midpoint', () => {
    assert.deepEqual(parse(page(row('2026-03-05', 'L$ 190.10 / US$1.00', 'L$192.00/US$1'))), [
      { date: '2026-03-05', quote: 'USD', rate: '191.05', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>Page not found | Central Bank of Liberia</title></head><body><h1>Page not found</h1></body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    const full = page(row('2026-03-05', 'L$190.10/US$1.00', 'L$192.00/US$1.00'));
    assert.throws(() => parse(full.slice(0, full.indexOf('L$192.00'))), ParseError);
  });

  test('rejects an empty table and cells of another shape', () => {
    assert.throws(() => parse(page('')), /holds no rates table/);
    assert.throws(() => parse(page(row('2026-03-05', 'L$190.10/US$100', 'L$192.00/US$100'))), /buying rate on 2026-03-05: .* is not "L\$…\/US\$1.00"/);
    assert.throws(() => parse(page(row('05.03.2026', 'L$190.10/US$1.00', 'L$192.00/US$1.00'))), /row 1 has no date/);
  });

  test('accepts the rates table only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://www.cbl.org.lr/research/buying-selling-rates?page=3'));
    assert.ok(!source.accepts('https://www.cbl.org.lr/research/monetary-policy-statements'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
