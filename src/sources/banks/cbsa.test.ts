// Grade A (SOURCES-2.md): complete VCR recordings of the daily page and the history workbook it links.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './cbsa.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import type { Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('CBSA');
const PAGE = 'cbs-daily-exchange-rates-2026-06-03.html';
const BOOK = 'cbs-Historical-Daily-Rates-June032026.xlsx';

const parse = (body: string | Buffer, name = 'daily-exchange-rates') => source.parse({ name, body: Buffer.from(body) }) as Observation[];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const rate = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote)?.rate;

describe('CBSA recorded payloads', () => {
  // The workbook holds 18 years; read it once.
  const book = parseFile(BOOK);

  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [BOOK, PAGE]);
  });

  test('daily page: eight currencies per tala, dated by the workbook it links, CNH left out', () => {
    const obs = parseFile(PAGE);
    assert.deepEqual(obs.map((o) => o.quote), ['USD', 'NZD', 'AUD', 'EUR', 'FJD', 'JPY', 'GBP', 'CNY']);
    assert.ok(obs.every((o) => o.date === '2026-06-03' && o.unit === 1 && o.direction === 'indirect'));
    assert.equal(rate(obs, '2026-06-03', 'USD'), '0.36983');
    assert.equal(rate(obs, '2026-06-03', 'JPY'), '59.1373');
    assert.equal(rate(obs, '2026-06-03', 'EUR'), '0.31797');
    assert.equal(rate(obs, '2026-06-03', 'CNY'), '2.50144');
    // The page and the workbook's last row are the same figures.
    for (const o of obs) assert.equal(rate(book, o.date, o.quote), o.rate, o.quote);
  });

  test('workbook: 2008-01-03 to 2026-06-03, per tala, CNY from 2016 and CNH left out', () => {
    const dates = [...new Set(book.map((o) => o.date))].sort();
    assert.equal(dates[0], '2008-01-03');
    assert.equal(dates.at(-1), '2026-06-03');
    assert.equal(dates.length, 4595);
    assert.ok(book.every((o) => o.unit === 1 && o.direction === 'indirect'));
    assert.deepEqual([...new Set(book.map((o) => o.quote))].sort(), ['AUD', 'CNY', 'EUR', 'FJD', 'GBP', 'JPY', 'NZD', 'USD']);
    assert.equal(new Set(book.map((o) => `${o.date} ${o.quote}`)).size, book.length);
    // Cells hold doubles written to 17 digits (0.39257999999999998, 42.952269999999999): shortest text.
    assert.equal(rate(book, '2008-01-03', 'USD'), '0.39258');
    assert.equal(rate(book, '2008-01-03', 'JPY'), '42.95227');
    assert.equal(rate(book, '2008-01-03', 'GBP'), '0.19886');
    // 2009–2012 label the columns US/TALA, YEN/TALA…: the same foreign units per tala.
    assert.equal(rate(book, '2009-01-05', 'USD'), '0.34554');
    assert.equal(rate(book, '2009-01-05', 'JPY'), '32.2248');
    assert.equal(rate(book, '2026-06-03', 'GBP'), '0.27456');
    assert.equal(rate(book, '2026-02-16', 'USD'), '0.37023');
    // A formula result stored as 0.3705939799875908 keeps 15 significant digits.
    assert.equal(rate(book, '2023-12-28', 'USD'), '0.370593979987591');
    assert.equal(rate(book, '2016-01-04', 'CNY'), '2.5035');
    assert.equal(rate(book, '2015-12-31', 'CNY'), undefined);
  });

  test('workbook: mistyped dates are left out, not guessed', () => {
    // Between 11 and 13 February 2026 a row dated 12 January repeats with other figures (USD 0.37157);
    // 12 January keeps its own row, 12 February stays empty.
    assert.equal(rate(book, '2026-01-12', 'USD'), '0.35933');
    assert.equal(rate(book, '2026-02-11', 'USD'), '0.37034');
    assert.equal(rate(book, '2026-02-12', 'USD'), undefined);
    assert.equal(rate(book, '2026-02-13', 'USD'), '0.37024');
    // Sheets 2013 and 2014 end June with a copy of 2015-06-30; the 2015 sheet's row is the one kept.
    assert.equal(book.filter((o) => o.date === '2015-06-30' && o.quote === 'USD').length, 1);
    assert.equal(rate(book, '2015-06-30', 'USD'), '0.38996');
  });

  test('follows the daily page to the history workbook it links, which holds the page\'s figures too', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const base = 'http://127.0.0.1:1';
    assert.deepEqual(source.requests(window, { base, key: 'k' }), [{ url: `${base}/daily-exchange-rates`, follow: true }]);
    const page = { name: 'page', url: `${base}/daily-exchange-rates`, body: readFileSync(new URL(PAGE, DIR)) };
    const requests = source.follow!(page, window, { base });
    assert.deepEqual(requests, [{ url: `${base}/media/Historical-Daily-Rates-June032026.xlsx` }]);
    assert.ok(source.accepts(requests[0]!.url));
    assert.throws(() => source.follow!({ ...page, body: Buffer.from('<html><body>Units of Foreign Currency per ST1.00</body></html>') }, window, { base }), /links no Historical-Daily-Rates workbook/);

    const server = await startFeedServer({
      '/daily-exchange-rates': { body: readFileSync(new URL(PAGE, DIR)), contentType: 'text/html; charset=UTF-8' },
      '/media/Historical-Daily-Rates-June032026.xlsx': { body: readFileSync(new URL(BOOK, DIR)) },
    });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(server.requests.map((r) => r.url), ['/daily-exchange-rates', '/media/Historical-Daily-Rates-June032026.xlsx']);
      const obs = payloads.flatMap((p) => source.parse(p) as Observation[]);
      assert.deepEqual(obs, parseFile(BOOK));
      // Nothing is lost by not reading the page: its figures are the workbook's last day.
      for (const o of parseFile(PAGE)) assert.deepEqual(obs.find((x) => x.date === o.date && x.quote === o.quote), o);
    } finally {
      await server.close();
    }
  });
});

describe('CBSA edge cases', () => {
  const LINK = '<a href="/media/Historical-Daily-Rates-June032026.xlsx" target="_blank"><span>Historical Daily Rates.</span></a>';
  const PAGE_OF = (rows: string, link = LINK) =>
    `<!doctype html><html><body><main><p>Please note that these are indicative rates only but not for market use. Units of Foreign Currency per ST1.00:</p>${link}<table><thead class="svelte-abnbdg"><tr class="header-row"><th>Currency</th><th>SAT</th></tr><!--[-->${rows}<!--]--></thead></table></main></body></html>`;
  const ROW = (name: string, figure: string) => `<tr class="svelte-abnbdg"><td class="svelte-abnbdg">${name}</td><td class="svelte-abnbdg">${figure}</td></tr>`;

  /** A workbook laid out like the bank's: month banners and DATE headers in column B. */
  function workbook(sheets: Record<string, unknown[][]>): Buffer {
    const book = XLSX.utils.book_new();
    // aoa_to_sheet honours `origin` (it is sheet_add_aoa on a new sheet); SheetJS's typings omit it.
    for (const [name, rows] of Object.entries(sheets)) XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows, { origin: 'B1' } as XLSX.AOA2SheetOpts), name);
    return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
  }
  const HEADER = ['DATE', 'TALA/USD', 'TALA/YEN', 'TALA/CNH'];

  test('reads a page whose workbook link is written with spaces', () => {
    const link = '<a href="/media/Historical Daily Rates June 03 2026.xlsx">Historical Daily Rates.</a>';
    assert.deepEqual(parse(PAGE_OF(ROW('Japanese Yen', '59.1373'), link)), [{ date: '2026-06-03', quote: 'JPY', rate: '59.1373', unit: 1, direction: 'indirect' }]);
  });

  test('reads a workbook: banners, headers, n/a cells, averages and a mistyped date', () => {
    const book = workbook({
      '2026': [
        ['JANUARY'],
        HEADER,
        [46034, 0.35933, 'n/a', 2.50659],
        ['Jan', 0.36, 56.9, 2.5],
        [null],
        ['FEBRUARY'],
        HEADER,
        [46034, 0.37157, 56.78824, 2.5665],
        [46066, 0.37024, 56.59074, 2.55494],
      ],
    });
    assert.deepEqual(parse(book, 'Historical-Daily-Rates-June032026.xlsx'), [
      { date: '2026-01-12', quote: 'USD', rate: '0.35933', unit: 1, direction: 'indirect' },
      { date: '2026-02-13', quote: 'USD', rate: '0.37024', unit: 1, direction: 'indirect' },
      { date: '2026-02-13', quote: 'JPY', rate: '56.59074', unit: 1, direction: 'indirect' },
    ]);
    assert.throws(() => parse(workbook({ '2026': [['JANUARY'], ['DATE', 'TALA/XYZ'], [46034, 1]] })), /unknown column "TALA\/XYZ"/);
    assert.throws(() => parse(workbook({ '2026': [['JANUARY'], HEADER, [46034, '0,35933']] })), /USD on 2026-01-12 is "0,35933"/);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!doctype html><html><head><title>500</title></head><body><h1>Internal Error</h1></body></html>'), /does not say "Units of Foreign Currency per ST1.00"/);
  });

  test('rejects a truncated page and a truncated workbook', () => {
    const page = PAGE_OF(ROW('Euro', '0.31797'));
    assert.throws(() => parse(page.slice(0, page.indexOf('<a href'))), /links no dated Historical-Daily-Rates workbook/);
    const book = workbook({ '2026': [['JANUARY'], HEADER, [46034, 0.35933, 56.73447, 2.50659]] });
    assert.throws(() => parse(book.subarray(0, 100)), /truncated workbook/);
    assert.throws(() => parse(book.subarray(0, book.length - 30)), /truncated workbook/);
    // A whole archive that is no workbook.
    assert.throws(() => parse(Buffer.concat([book.subarray(0, 4), Buffer.alloc(40), book.subarray(-22)])), /not a readable workbook/);
  });

  test('rejects an empty table, an unknown currency and an empty workbook', () => {
    assert.throws(() => parse(PAGE_OF('')), /holds no rates/);
    assert.throws(() => parse(PAGE_OF(ROW('Tongan Paanga', '0.8'))), /unknown currency "Tongan Paanga"/);
    assert.throws(() => parse(workbook({ '2026': [['JANUARY'], HEADER] })), /holds no rates/);
  });

  test('accepts the page and the workbook under either spelling', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://cbs.gov.ws/media/Historical-Daily-Rates-June032026.xlsx'));
    assert.ok(source.accepts('https://cbs.gov.ws/media/Historical%20Daily%20Rates%20June%2003%202026.xlsx'));
    assert.ok(!source.accepts('https://cbs.gov.ws/monetary-policy'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
