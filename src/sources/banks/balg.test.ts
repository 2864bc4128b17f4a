// BALG, Bank of Algeria: grade B (the hub page is a complete recording, A; the workbook was trimmed
// upstream to April 2026, B; the lower grade counts, SOURCES-2.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { utils, write } from '@e965/xlsx';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './balg.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BALG');
const BOOK = 'boa-Cotation-DZD-2000-2026-journalier-TRIMMED.xlsx';
const HUB = 'boa-donnees-historiques-2026-05-22.html';
const workbook = () => source.parse({ name: BOOK, body: readFileSync(new URL(BOOK, DIR)) }) as Observation[];
const LIVE = 'https://www.bank-of-algeria.dz/stoodroa/2026/05/Cotation-DZD-2000-2026-journalier.xlsx';
const parseBody = (body: Buffer) => source.parse({ name: LIVE, body }) as Observation[];
const at = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote);

/** A workbook laid out like the bank's: per sheet a title in A2, a header in B4, then [date, rate] rows. */
function xlsx(sheets: Record<string, { title: string; rows: (number | null)[][] }>): Buffer {
  const book = utils.book_new();
  for (const [name, { title, rows }] of Object.entries(sheets)) {
    const sheet = utils.aoa_to_sheet([[null, null], [title, null], [null, null], [null, title.replace(/^100 /, '').replace('EURO', 'EUR')], ...rows]);
    utils.book_append_sheet(book, sheet, name);
  }
  return write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}
// 46113 is 1 April 2026 in Excel's day count.
const APRIL = { 'JPY - DZD': { title: '100 JPY / DZD', rows: [[46113, 83.5474], [null, null], [46114, 83.2742]] }, 'EURO - DZD': { title: 'EURO / DZD', rows: [[46113, 153.6719]] } };

describe('BALG recorded payloads', () => {
  test('every recorded file but SOURCE.md is accepted', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [BOOK, HUB]);
  });

  test('the workbook: April 2026, 22 business days of 16 currencies (the MRO sheet is empty)', () => {
    const obs = workbook();
    const days = [...new Set(obs.map((o) => o.date))].sort();
    assert.equal(days.length, 22);
    assert.equal(days[0], '2026-04-01');
    assert.equal(days.at(-1), '2026-04-30');
    assert.equal(obs.length, 22 * 16);
    assert.deepEqual(
      [...new Set(obs.map((o) => o.quote))].sort(),
      ['AED', 'CAD', 'CHF', 'CNY', 'DKK', 'EUR', 'GBP', 'JPY', 'KWD', 'LYD', 'MAD', 'NOK', 'SAR', 'SEK', 'TND', 'USD'],
    );
    assert.ok(obs.every((o) => o.direction === 'direct' && o.unit === (o.quote === 'JPY' ? 100 : 1)));
    assert.equal(at(obs, '2026-04-01', 'AED')?.rate, '36.1395');
    assert.equal(at(obs, '2026-04-01', 'EUR')?.rate, '153.6719');
    assert.equal(at(obs, '2026-04-02', 'EUR')?.rate, '153.286');
    assert.deepEqual(at(obs, '2026-04-01', 'JPY'), { date: '2026-04-01', quote: 'JPY', rate: '83.5474', unit: 100, direction: 'direct' });
    assert.equal(at(obs, '2026-04-30', 'USD')?.rate, '132.5429');
    assert.equal(at(obs, '2026-04-30', 'KWD')?.rate, '432.0877');
    assert.equal(at(obs, '2026-04-30', 'CNY')?.rate, '19.3956');
  });

  test('the hub page links the workbook and holds no rates: no publication', () => {
    assert.throws(() => source.parse({ name: HUB, body: readFileSync(new URL(HUB, DIR)) }), NoPublication);
  });

  test('follows the hub page to the daily workbook it links, on the base URL', () => {
    const base = 'http://127.0.0.1:1';
    const window = { from: '2026-03-02', to: '2026-03-06' };
    assert.deepEqual(source.requests(window, { base, key: 'k' }), [{ url: `${base}/donnees-historiques/`, follow: true }]);
    const page = { name: 'hub', url: `${base}/donnees-historiques/`, body: readFileSync(new URL(HUB, DIR)) };
    // The hub links four workbooks (annual averages, end of period, the 2022 daily one): the consolidated daily one only.
    assert.deepEqual(source.follow!(page, window, { base }), [{ url: `${base}/stoodroa/2026/05/Cotation-DZD-2000-2026-journalier.xlsx` }]);
    assert.ok(source.accepts(`${base}/stoodroa/2026/05/Cotation-DZD-2000-2026-journalier.xlsx`));
    const bare = { ...page, body: Buffer.from('<html><body><a href="/stoodroa/2022/05/taux-de-change-journalier.xlsx">x</a></body></html>') };
    assert.throws(() => source.follow!(bare, window, { base }), /links no Cotation-DZD-2000/);
  });

  test('a workbook renamed with a prefix (after 2026-10-02; its new name is not known) is still found and fetched', async () => {
    // The recorded hub with the daily workbook's name given a prefix: an example of the form, not the real name.
    const renamed = '/stoodroa/2026/11/BA-Cotation-DZD-2000-2026-journalier.xlsx';
    const hub = readFileSync(new URL(HUB, DIR), 'utf8').replace('/stoodroa/2026/05/Cotation-DZD-2000-2026-journalier.xlsx', renamed);
    assert.ok(!hub.includes('/Cotation-DZD-2000-2026-journalier.xlsx'));
    const server = await startFeedServer({
      '/donnees-historiques/': { body: hub, contentType: 'text/html; charset=UTF-8' },
      [renamed]: { body: readFileSync(new URL(BOOK, DIR)) },
    });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(server.requests.map((r) => r.url), ['/donnees-historiques/', renamed]);
      assert.ok(source.accepts(payloads[0]!.name), payloads[0]!.name);
      assert.deepEqual(source.parse(payloads[0]!), workbook());
    } finally {
      await server.close();
    }
  });

  test('round trip through a local feed server: the hub, then the workbook', async () => {
    const server = await startFeedServer({
      '/donnees-historiques/': { body: readFileSync(new URL(HUB, DIR)), contentType: 'text/html; charset=UTF-8' },
      '/stoodroa/2026/05/Cotation-DZD-2000-2026-journalier.xlsx': { body: readFileSync(new URL(BOOK, DIR)) },
    });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(server.requests.map((r) => r.url), ['/donnees-historiques/', '/stoodroa/2026/05/Cotation-DZD-2000-2026-journalier.xlsx']);
      assert.equal(payloads.length, 1);
      assert.deepEqual(source.parse(payloads[0]!), workbook());
    } finally {
      await server.close();
    }
  });
});

describe('BALG edge cases', () => {
  test('reads the title unit and the euro label, skips blank rows', () => {
    assert.deepEqual(parseBody(xlsx(APRIL)), [
      { date: '2026-04-01', quote: 'JPY', rate: '83.5474', unit: 100, direction: 'direct' },
      { date: '2026-04-02', quote: 'JPY', rate: '83.2742', unit: 100, direction: 'direct' },
      { date: '2026-04-01', quote: 'EUR', rate: '153.6719', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    const html = Buffer.from('<!DOCTYPE html><html><head><title>Page non trouvée – Banque d’Algérie</title></head><body></body></html>');
    assert.throws(() => parseBody(html), /is not an XLSX workbook/);
    assert.throws(() => source.parse({ name: 'https://www.bank-of-algeria.dz/donnees-historiques/', body: html }), (err) => err instanceof ParseError && !(err instanceof NoPublication));
  });

  test('rejects a truncated workbook', () => {
    const full = xlsx(APRIL);
    assert.throws(() => parseBody(full.subarray(0, Math.floor(full.length / 2))), ParseError);
  });

  test('rejects an empty workbook, a sheet without a title and a rate without a date', () => {
    assert.throws(() => parseBody(xlsx({ 'USD - DZD': { title: 'USD / DZD', rows: [] } })), /holds no rates/);
    assert.throws(() => parseBody(xlsx({ 'USD - DZD': { title: 'Cours du dinar', rows: [[46113, 132.7275]] } })), /has no "CCY \/ DZD" title/);
    assert.throws(() => parseBody(xlsx({ 'USD - DZD': { title: 'USD / DZD', rows: [[null, 132.7275]] } })), /a rate without a date/);
  });

  test('accepts the workbook, its recorded copy and the hub page only', () => {
    assert.ok(source.accepts(LIVE));
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.bank-of-algeria.dz/stoodroa/2026/01/Cours-moyens-annuels-1994-2025.xlsx'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
