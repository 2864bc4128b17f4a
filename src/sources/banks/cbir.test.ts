// CBIR payloads are grade A (SOURCES-2.md): complete recordings (the original workbook, not the
// trimmed re-write that replaced it upstream).
import * as XLSX from '@e965/xlsx';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './cbir.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('CBIR');
const BOOK = 'cbi-exchange-rates-file-177909880482668.xlsx';
const PAGE = 'cbi-page-144-2026-05-22.html';

const parse = (body: Buffer | string) => source.parse({ name: 'static/uploads/up/file-1.xlsx', body: Buffer.from(body) }) as Observation[];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const rate = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote)?.rate;

describe('CBIR recorded payloads', () => {
  // Reading the 1.7 MB workbook takes seconds: once for the tests that only look.
  let book: Observation[] = [];

  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [BOOK, PAGE]);
    book = parseFile(BOOK);
  });

  test('the workbook: 2009 and 2013 to 2026-05-17, IQD per 1 unit, the midpoint of buy and sell', () => {
    const years = [...new Set(book.map((o) => o.date.slice(0, 4)))];
    assert.deepEqual(years, ['2009', ...Array.from({ length: 14 }, (_, i) => String(2013 + i))]);
    assert.equal(book.map((o) => o.date).sort().at(-1), '2026-05-17');
    assert.ok(book.every((o) => o.unit === 1 && o.direction === 'direct'));
    assert.deepEqual(
      [...new Set(book.filter((o) => o.date.startsWith('2026')).map((o) => o.quote))].sort(),
      ['AED', 'AUD', 'CAD', 'CHF', 'CNY', 'DKK', 'EUR', 'GBP', 'INR', 'JOD', 'JPY', 'NOK', 'OMR', 'QAR', 'SAR', 'SEK', 'TRY', 'USD', 'XDR'],
    );
    // Sunday 4 January 2026: USD 1300 / 1310 (Sell 2 1320 left aside), EUR 1523.73 / 1532.451,
    // JPY 8.29 / 8.354, SDR 1778.972 / 1792.656.
    assert.equal(rate(book, '2026-01-04', 'USD'), '1305');
    assert.equal(rate(book, '2026-01-04', 'EUR'), '1528.0905');
    assert.equal(rate(book, '2026-01-04', 'JPY'), '8.322');
    assert.equal(rate(book, '2026-01-04', 'XDR'), '1785.814');
    // 1 February 2026 under the "Feb.2026" label: EUR 1549.47 / 1561.389.
    assert.equal(rate(book, '2026-02-01', 'EUR'), '1555.4295');
    // New Year's Day is a holiday row with a note and no figures.
    assert.equal(rate(book, '2026-01-01', 'USD'), undefined);
    // 2013-01-02 GBP is stored with float noise (1899.1635431999998 / 1900.1135999999999).
    assert.equal(rate(book, '2013-01-02', 'GBP'), '1899.6385716');
  });

  test('older sheets: codes under Arabic names, figures typed as text, no gold', () => {
    // 1 April 2009: EUR 1549.007 / 1549.782; 9 September 2009 is typed as text: 1698.224 / 1699.074.
    assert.equal(rate(book, '2009-04-01', 'EUR'), '1549.3945');
    assert.equal(rate(book, '2009-09-09', 'EUR'), '1698.649');
    assert.ok(book.some((o) => o.date.startsWith('2009') && o.quote === 'CHF'));
    assert.ok(!book.some((o) => o.quote === 'XAU' || o.quote === 'GOL'));
    // A sell cell typed "`1546.349" is no figure: EUR is missing that day, USD is not.
    assert.equal(rate(book, '2014-08-21', 'EUR'), undefined);
    assert.ok(rate(book, '2014-08-21', 'USD'));
  });

  test('sheets 2010 to 2012 repeat the figures of 2009 and are left out', () => {
    assert.ok(!book.some((o) => o.date >= '2010' && o.date < '2013'));
  });

  test('the page that links the workbooks is a valid answer without rates', () => {
    assert.throws(() => parseFile(PAGE), (err) => err instanceof NoPublication && /file-177909880482668\.xlsx/.test(err.message));
  });

  test('follows page 144 to the daily workbook it links, then reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const base = 'http://127.0.0.1:1';
    assert.deepEqual(source.requests(window, { base, key: 'k' }), [{ url: `${base}/page/144`, follow: true }]);
    const page = { name: 'page', url: `${base}/page/144`, body: readFileSync(new URL(PAGE, DIR)) };
    // Three workbooks are linked; the daily one is the link that mentions gold.
    assert.deepEqual(source.follow!(page, window, { base }), [{ url: `${base}/static/uploads/up/file-177909880482668.xlsx` }]);
    const bare = { ...page, body: Buffer.from('<html><body><a href="https://cbi.iq/static/uploads/up/file-1.xlsx">USD</a></body></html>') };
    assert.throws(() => source.follow!(bare, window, { base }), /links no daily-rates workbook/);

    const server = await startFeedServer({
      '/page/144': { body: readFileSync(new URL(PAGE, DIR)), contentType: 'text/html; charset=UTF-8' },
      '/static/uploads/up/file-177909880482668.xlsx': { body: readFileSync(new URL(BOOK, DIR)) },
    });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(server.requests.map((r) => r.url), ['/page/144', '/static/uploads/up/file-177909880482668.xlsx']);
      assert.ok(payloads.every((p) => source.accepts(p.name)));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p) as Observation[]), book);
    } finally {
      await server.close();
    }
  });
});

describe('CBIR edge cases', () => {
  /** A sheet in the workbook's layout: title rows, labels over Buy/Sell/Sell 2 groups, month blocks. */
  const workbook = (days: (string | number | null)[][]) => {
    const sheet = XLSX.utils.aoa_to_sheet([
      ['أسعار صرف الدينار العراقي اليومية تجاه العملات الرئيسية والذهب  (بيع ، شراء )'],
      ['Daily Exchange Rate for Iraqi Dinar Per Major Currencies and Gold (buy, sell)'],
      ['Date', 'الدولار الأمريكي USD ', null, null, 'اليورو الأوربي EUR', null, null, 'الذهب للاونسة '],
      [null, null, null, null, null, null, null, 'Gold'],
      [2026, '  Buy      ID            ', ' Sell         ID      ', ' Sell         ID 2      ', '  Buy      ID            ', ' Sell         ID      ', ' Sell         ID 2      '],
      [2026],
      ...days,
    ]);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, '2026');
    return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
  };

  test('reads a sheet: holiday notes, zeros, month labels and Average rows', () => {
    const obs = parse(
      workbook([
        [1, null, 'اعياد رأس السنة الميلادية '],
        [4, 1300, 1310, 1320, 1523.73, 1532.451, 1547.172, 5628857],
        [5, 1300, 1310, 1320, 0, 0, 0],
        ['Average', 1300, 1310, 1320, 1523.73, 1532.451, 1547.172],
        ['Feb.2026'],
        ['2', 1300, 1310, 1320, '1549.47', 1561.389, 1573.308],
      ]),
    );
    assert.deepEqual(
      obs.map((o) => `${o.date} ${o.quote} ${o.rate}`),
      ['2026-01-04 USD 1305', '2026-01-04 EUR 1528.0905', '2026-01-05 USD 1305', '2026-02-02 USD 1305', '2026-02-02 EUR 1555.4295'],
    );
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>'), /not an XLSX workbook/);
  });

  test('rejects a truncated payload', () => {
    const full = workbook([[4, 1300, 1310, 1320, 1523.73, 1532.451, 1547.172]]);
    assert.throws(() => parse(full.subarray(0, full.length - 400)), ParseError);
  });

  test('rejects an empty table and a day that does not exist', () => {
    assert.throws(() => parse(workbook([[1], [2], [3]])), /holds no rates/);
    assert.throws(() => parse(workbook([['Feb.2026'], [30, 1300, 1310, 1320]])), /figures on 2026-02-30, which is not a day/);
  });

  test('accepts the workbooks and page 144 only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://cbi.iq/static/uploads/up/file-177909880482668.xlsx'));
    assert.ok(source.accepts('https://cbi.iq/page/144'));
    assert.ok(!source.accepts('https://cbi.iq/page/145'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
