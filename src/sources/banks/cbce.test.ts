// CBCE payloads are grade A (SOURCES-2.md): complete recordings.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './cbce.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('CBCE');
const RESULTS = 'cbsl-exrates_results-2026-05-22.html';
const FORM = 'cbsl-exrates-form.html';

const parse = (body: string) => source.parse({ name: 'exrates_results.php', body: Buffer.from(body) }) as Observation[];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const rate = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote)?.rate;

describe('CBCE recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FORM, RESULTS]);
  });

  test('results for 2025-05-15..19: 55 tables of three days, LKR per 1 unit', () => {
    const obs = parseFile(RESULTS);
    assert.deepEqual([...new Set(obs.map((o) => o.date))], ['2025-05-19', '2025-05-16', '2025-05-15']);
    assert.equal(obs.length, 55 * 3);
    const quotes = [...new Set(obs.map((o) => o.quote))];
    assert.equal(quotes.length, 55);
    for (const q of ['AUD', 'CNH', 'CNY', 'XAU', 'IRR', 'MMK', 'ZMW', 'USD']) assert.ok(quotes.includes(q), q);
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'direct'));
    assert.equal(rate(obs, '2025-05-19', 'USD'), '298.8165');
    assert.equal(rate(obs, '2025-05-15', 'EUR'), '334.2487');
    assert.equal(rate(obs, '2025-05-16', 'AUD'), '191.2256');
    assert.equal(rate(obs, '2025-05-19', 'JPY'), '2.0596');
    assert.equal(rate(obs, '2025-05-19', 'VND'), '0.0115');
    assert.equal(rate(obs, '2025-05-16', 'KWD'), '971.5861');
    // Gold per troy ounce: 3,164 USD at the bank's own dollar of the day (298.6897), unit 1 (D19).
    assert.equal(rate(obs, '2025-05-15', 'XAU'), '945076.6125');
    assert.equal(rate(obs, '2025-05-15', 'USD'), '298.6897');
    assert.equal((945076.6125 / 298.6897).toFixed(0), '3164');
  });

  test('the selection form is a valid answer without rates', () => {
    assert.throws(() => parseFile(FORM), (err) => err instanceof NoPublication && /selection form/.test(err.message));
  });

  test('requests one POST of the form for the window and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.equal(requests.length, 1);
    const [request] = requests;
    assert.equal(request!.url, 'http://127.0.0.1:1/exrates_results.php');
    assert.equal(request!.method, 'POST');
    assert.deepEqual(request!.headers, { 'content-type': 'application/x-www-form-urlencoded' });
    // The recorded request body starts the same way (SOURCE.md).
    assert.ok(
      request!.body!.startsWith(
        'lookupPage=lookup_daily_exchange_rates.php&rangeType=dates&txtStart=2026-03-02&txtEnd=2026-03-06&chk_cur%5B%5D=AUD%7EAustralian+Dollar&chk_cur%5B%5D=BHD%7EBahrain+Dinar&',
      ),
    );
    const form = new URLSearchParams(request!.body);
    assert.equal(form.getAll('chk_cur[]').length, 55);
    assert.ok(form.getAll('chk_cur[]').includes('MYR~Malaysia  Ringgit'));
    assert.equal(form.get('submit_button'), 'Submit');
    assert.equal(source.requests(window, { base: source.baseUrl })[0]!.url, source.feedUrl);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const server = await startFeedServer({ '/exrates_results.php': { body: readFileSync(new URL(RESULTS, DIR)), contentType: 'text/html; charset=UTF-8' } });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p) as Observation[]), parseFile(RESULTS));
      assert.equal(server.requests[0]!.method, 'POST');
      assert.equal(server.requests[0]!.body, request!.body);
    } finally {
      await server.close();
    }
  });
});

describe('CBCE edge cases', () => {
  const table = (code: string, rows: string) =>
    `<h2 id="LOOKUPS_IEXE0101"> ${code} </h2><div class="table-responsive"></div><div class="table-responsive"><table class="table table-bordered table-striped table-hover rates sortable series"><thead><tr class="odd">\t<th class="header headerSortDown">Date</th>\t<th class="header">1  ${code}  -&gt; LKR</th>\t<th class="header">1 LKR -&gt;  ${code} </th></tr></thead><tbody>${rows}</tbody></table>`;
  const row = (date: string, rate: string, inverse: string) => `<tr class="odd"><td> ${date} </td><td> ${rate} </td><td> ${inverse} </td></tr>`;
  const page = (tables: string) => `<!DOCTYPE html>\n<html lang="en">\n<head>\n  <title>Exchnage Rates</title>\n</head>\n<body>\n<form name="form" action="" method="post">${tables}</form>\n</body>\n</html>`;

  test('reads the LKR-per-unit column, not the rounded inverse', () => {
    assert.deepEqual(parse(page(table('USD', row('2026-03-05', '299.1250', '0.0033')))), [
      { date: '2026-03-05', quote: 'USD', rate: '299.1250', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>403 Forbidden</title></head><body><h1>Forbidden</h1></body></html>'), /holds no "1 XXX -> LKR" tables/);
  });

  test('rejects a truncated payload', () => {
    const full = page(table('USD', row('2026-03-05', '299.1250', '0.0033') + row('2026-03-04', '299.0012', '0.0033')));
    assert.throws(() => parse(full.slice(0, full.indexOf('299.0012'))), ParseError);
  });

  test('an empty table is a range without publications', () => {
    assert.throws(() => parse(page(table('USD', '') + table('EUR', ''))), (err) => err instanceof NoPublication);
  });

  test('rejects bad dates and rates', () => {
    assert.throws(() => parse(page(table('USD', row('05/03/2026', '299.1250', '0.0033')))), /USD: bad date/);
    assert.throws(() => parse(page(table('USD', row('2026-03-05', 'N/A', '0.0033')))), /USD on 2026-03-05: not a number/);
  });

  test('accepts the results and the form page only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://www.cbsl.gov.lk/cbsl_custom/exrates/exrates.php'));
    assert.ok(!source.accepts('https://www.cbsl.gov.lk/cbsl_custom/exrates/javascript/zebra_datepicker.js'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
