import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './stan.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('STAN');

const FILE = 'Official_exchange_rate-page-2026-05-22.html';
const parse = (body: string) => source.parse({ name: source.feedUrl, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
/** "date rate/unit table", so one assertion covers all of it. */
const quoted = (obs: Observation[], quote: string) => {
  const o = obs.find((x) => x.quote === quote);
  return o && `${o.date} ${o.rate}/${o.unit} ${o.table}`;
};

describe('STAN recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('page of 22.05.2026: 15 main rates of that day, 4 weekly ones of 15.05.2026, ALL per unit', () => {
    const obs = parseFile(FILE);
    assert.deepEqual(
      obs.filter((o) => o.table === 'main').map((o) => o.quote),
      'USD EUR GBP CHF JPY AUD CAD SEK NOK DKK XDR XAU XAG CNY TRY'.split(' '),
    );
    assert.deepEqual(obs.filter((o) => o.table === 'weekly').map((o) => o.quote), ['HUF', 'RUB', 'CZK', 'MKD']);
    assert.equal(obs.length, 19);
    assert.ok(obs.every((o) => o.direction === 'direct'));
    assert.ok(obs.every((o) => o.date === (o.table === 'main' ? '2026-05-22' : '2026-05-15')));
    // Trailing zeros as printed; the bid/ask averages (USD 81.80/82.64) are not what is kept.
    assert.equal(quoted(obs, 'USD'), '2026-05-22 82.24/1 main');
    assert.equal(quoted(obs, 'EUR'), '2026-05-22 95.40/1 main');
    assert.equal(quoted(obs, 'GBP'), '2026-05-22 110.38/1 main');
    assert.equal(quoted(obs, 'TRY'), '2026-05-22 1.80/1 main');
    assert.equal(quoted(obs, 'CNY'), '2026-05-22 12.10/1 main');
    // "Japanese Yen (100)" in the name; HUF and RUB per 100 without a word said.
    assert.equal(quoted(obs, 'JPY'), '2026-05-22 51.68/100 main');
    assert.equal(quoted(obs, 'HUF'), '2026-05-15 26.47/100 weekly');
    assert.equal(quoted(obs, 'RUB'), '2026-05-15 111.96/100 weekly');
    assert.equal(quoted(obs, 'CZK'), '2026-05-15 3.92/1 weekly');
    assert.equal(quoted(obs, 'MKD'), '2026-05-15 1.55/1 weekly');
    // SDR under its ISO code; metals per troy ounce; CNH (not ISO 4217) left out.
    assert.equal(quoted(obs, 'XDR'), '2026-05-22 112.40/1 main');
    assert.equal(quoted(obs, 'XAU'), '2026-05-22 371473.97/1 main');
    // 4,517 USD at the bank's own dollar (82.24): the price of an ounce (D19).
    assert.equal((371473.97 / 82.24).toFixed(0), '4517');
    assert.equal(quoted(obs, 'XAG'), '2026-05-22 6223.96/1 main');
    assert.equal(quoted(obs, 'SDR'), undefined);
    assert.equal(quoted(obs, 'CNH'), undefined);
  });

  test('requests the latest page and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/Markets/Official_exchange_rate/' }]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const server = await startFeedServer({ '/Markets/Official_exchange_rate/': { body: readFileSync(new URL(FILE, DIR)), contentType: 'text/html; charset=UTF-8' } });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p)), parseFile(FILE));
      assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url}`), ['GET /Markets/Official_exchange_rate/']);
    } finally {
      await server.close();
    }
  });
});

describe('STAN edge cases', () => {
  const tableHtml = (date: string, head: string, rows: string) => `
<div class="mb-2"><span class="font-weight-normal">Last update:</span>&nbsp;<span class="text-primary font-size-table"><b>${date}</b>&nbsp;&nbsp;<em><b>12:05:11</b></em></span></div>
<TABLE class="table table-sm" cellSpacing="0" cellPadding="3" border="1">
<thead class="thead-light"><TR><th colspan="3">${head}</th><th class="text-right" colspan="2">Albanian Lek per  Foreign Currency Unit</th ></TR></thead>
${rows}
</TABLE>`;
  const row = (name: string, code: string, rate: string) =>
    `<TR><TD nowrap>${name}</TD><TD nowrap>${code}</TD><td align="right" nowrap>${rate}</td><td align="right" nowrap>+0.01</td><td align="center" class="arrow-up"><i class="fa fa-arrow-up"></i></td></TR>`;
  const page = (...tables: string[]) => `<!DOCTYPE html><html lang="en"><head><title>Official exchange rate</title></head><body><div id="MainContentWrapper"><h1>Official exchange rate</h1><p><div>${tables.join('\n<br/>\n')}</div></p></div></body>\n</html>`;
  const MAIN = tableHtml('25.05.2026', 'Main Currency', row('US Dollar', 'USD', '82.30') + row('Japanese Yen   (100)', 'JPY', '51.70'));

  test('reads a page written inline', () => {
    assert.deepEqual(parse(page(MAIN)), [
      { date: '2026-05-25', quote: 'USD', rate: '82.30', unit: 1, direction: 'direct', table: 'main' },
      { date: '2026-05-25', quote: 'JPY', rate: '51.70', unit: 100, direction: 'direct', table: 'main' },
    ]);
  });

  test('rejects an HTML error page', () => {
    const html = '<!DOCTYPE html><html><head><title>404 - Page not found</title></head><body><h1>Page not found</h1></body></html>';
    assert.throws(() => parse(html), /no exchange-rate table/);
  });

  test('rejects a truncated page, even one cut between rows', () => {
    const full = page(MAIN);
    assert.throws(() => parse(full.slice(0, full.indexOf('<TR><TD nowrap>Japanese'))), /truncated/);
    assert.throws(() => parse(full.slice(0, -10)), ParseError);
  });

  test('rejects an empty table, a table without its date and a malformed row', () => {
    assert.throws(() => parse(page(tableHtml('25.05.2026', 'Main Currency', ''))), /main table of 2026-05-25 holds no rates/);
    assert.throws(() => parse(page(MAIN.replace(/Last update:/, 'Updated:'))), /no "Last update/);
    assert.throws(() => parse(page(tableHtml('25.05.2026', 'Main Currency', row('US Dollar', 'US Dollar', '82.30')))), /not \[name, code, rate\]/);
    assert.throws(() => parse(page(tableHtml('25.05.2026', 'Main Currency', row('US Dollar', 'USD', '82,30x')))), /bad USD rate/);
  });

  test('accepts the rate page, not its XLSX archive', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.bankofalbania.org/Markets/Official_exchange_rate/Exchage_rate_archive/'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
