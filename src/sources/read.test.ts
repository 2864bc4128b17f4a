import assert from 'node:assert/strict';
import { test } from 'node:test';
import { utils, write } from '@e965/xlsx';
import { decimalOf, decodeText, failFor, firstSheetRows, fromDmy, isIsoDate, isoCode, isWholeHtml, parseJsonKeepingDigits, parseXml, toDmy, unitOf, wholeHtml, windowDays, xmlParser } from './read.js';
import { ParseError } from './types.js';

const fail = failFor('TEST');

test('parseJsonKeepingDigits keeps trailing zeros of the named fields only', () => {
  const doc = parseJsonKeepingDigits('TEST', 'x', '[{"rate": 2.0700, "scale": 100, "id": 1.50}]', ['rate']) as { rate: string; scale: number; id: number }[];
  assert.deepEqual(doc, [{ rate: '2.0700', scale: 100, id: 1.5 }]);
  assert.throws(() => parseJsonKeepingDigits('TEST', 'x', '<html>', ['rate']), ParseError);
});

test('parseXml rejects truncated XML and keeps values as text', () => {
  const p = xmlParser();
  assert.deepEqual(parseXml('TEST', 'x', '<a v="1.10"><b>2.50</b></a>', p), { a: { v: '1.10', b: '2.50' } });
  assert.throws(() => parseXml('TEST', 'x', '<a><b>2.50</b>', p), /not well-formed XML/);
});

test('decodeText follows a BOM, an XML prolog or a meta charset', () => {
  assert.equal(decodeText(Buffer.from([0xef, 0xbb, 0xbf, 0x41])), 'A');
  const cp1251 = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="windows-1251"?><n>'), Buffer.from([0xc4, 0xee, 0xeb, 0xeb, 0xe0, 0xf0]), Buffer.from('</n>')]);
  assert.match(decodeText(cp1251), /Доллар/);
  const turkish = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="ISO-8859-9"?><n>'), Buffer.from([0xdd, 0xfe]), Buffer.from('</n>')]);
  assert.match(decodeText(turkish), /İş/);
});

test('decimalOf, unitOf and isoCode turn bad values into ParseErrors that say where', () => {
  assert.equal(decimalOf(fail, '24,540', 'EUR'), '24.540');
  assert.equal(decimalOf(fail, 4.9684999999999997, 'MYR'), '4.9685');
  assert.throws(() => decimalOf(fail, 'n/a', 'EUR on 2026-03-02'), /EUR on 2026-03-02: not a number/);
  assert.throws(() => decimalOf(fail, null, 'EUR'), ParseError);
  assert.equal(unitOf(fail, '100', 'JPY'), 100);
  assert.equal(unitOf(fail, '1.00', 'JPY'), 1);
  assert.equal(unitOf(fail, 1000, 'IDR'), 1000);
  assert.throws(() => unitOf(fail, '0', 'JPY'), /bad unit/);
  assert.equal(isoCode(fail, ' usd ', 'row 3'), 'USD');
  assert.throws(() => isoCode(fail, 'US$', 'row 3'), /row 3: bad currency code/);
});

test('windowDays lists calendar days or weekdays; dates convert to and from DD.MM.YYYY', () => {
  assert.deepEqual(windowDays({ from: '2026-03-06', to: '2026-03-09' }), ['2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09']);
  assert.deepEqual(windowDays({ from: '2026-03-06', to: '2026-03-09' }, { weekdaysOnly: true }), ['2026-03-06', '2026-03-09']);
  assert.throws(() => windowDays({ from: 'x', to: '2026-03-09' }), RangeError);
  assert.equal(toDmy('2026-03-05'), '05.03.2026');
  assert.equal(toDmy('2026-03-05', '/'), '05/03/2026');
  assert.equal(fromDmy('05.03.2026'), '2026-03-05');
  assert.equal(fromDmy('5.3.2026'), undefined);
});

test('isIsoDate: a real calendar day written YYYY-MM-DD, nothing else', () => {
  for (const ok of ['2026-04-13', '2024-02-29', '2026-04-13', '1998-12-31']) assert.equal(isIsoDate(ok), true, ok);
  for (const bad of ['', '2026-02-30', '2025-02-29', '2026-4-13', '13.04.2026', '2026-04-13T00:00:00', undefined, 20260413]) assert.equal(isIsoDate(bad), false, String(bad));
});

test('isWholeHtml and wholeHtml: a page must end with </html>', () => {
  assert.equal(isWholeHtml('<html><body>x</body></html>\n'), true);
  assert.equal(isWholeHtml('<html><body><table><tr><td>1.0'), false);
  assert.throws(() => wholeHtml(failFor('TEST'), 'page.html', '<html><body>'), /page\.html is truncated \(no closing <\/html>\)/);
});

test('firstSheetRows: the first sheet\'s cells as published, empty ones null; not a workbook is a ParseError', () => {
  const book = utils.book_new();
  utils.book_append_sheet(book, utils.aoa_to_sheet([['Date', 'Rate'], ['2026/09/01', '89,446.50'], [null, 2.5]]), 'First');
  utils.book_append_sheet(book, utils.aoa_to_sheet([['other']]), 'Second');
  const body = write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
  assert.deepEqual(firstSheetRows('TEST', 'rates.xlsx', body, 'xlsx'), [['Date', 'Rate'], ['2026/09/01', '89,446.50'], [null, 2.5]]);
  assert.throws(() => firstSheetRows('TEST', 'rates.xlsx', Buffer.from('<html></html>'), 'xlsx'), (err: unknown) => err instanceof ParseError && /rates.xlsx is not an XLSX workbook/.test(err.message));
});
