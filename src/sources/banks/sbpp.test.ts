// State Bank of Pakistan. Recorded payloads grade A (SOURCES-2.md): complete recordings with the
// server's own headers.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { utils, write, type CellObject } from '@e965/xlsx';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './sbpp.js';
import { type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('SBPP');
const MONTH = 'sbp-BFER_Daily-2026-07-22.xlsx';
const ARCHIVE = 'sbp-BFER_Daily_Arch-2026-07-22.xlsx';

const parseBody = (body: Buffer | string) => source.parse({ name: source.feedUrl, body: Buffer.from(body) }) as Observation[];
const parsed = new Map<string, Observation[]>();
// The archive takes seconds to read: each file is read once.
const parseFile = (name: string) => parsed.get(name) ?? parsed.set(name, source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[]).get(name)!;
const day = (obs: Observation[], date: string, quotes: string[]) => quotes.map((q) => `${q} ${obs.find((o) => o.date === date && o.quote === q)?.rate}`).join(', ');

const CCY = 'AED AUD BHD CAD CHF CNY DKK EUR GBP HKD JPY KWD MYR NOK NZD OMR QAR SAR SEK SGD THB TRY USD'.split(' ');

describe('SBPP recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [MONTH, ARCHIVE]);
  });

  test('month file, April 2026: 22 business days of 23 currencies, six decimals, names with typos', () => {
    const obs = parseFile(MONTH);
    const dates = [...new Set(obs.map((o) => o.date))];
    assert.equal(dates.length, 22);
    assert.equal(dates[0], '2026-04-01');
    assert.equal(dates.at(-1), '2026-04-30');
    assert.ok(!dates.includes('2026-04-04') && !dates.includes('2026-04-05'));
    assert.equal(obs.length, 22 * 23);
    assert.deepEqual([...new Set(obs.map((o) => o.quote))].sort(), CCY);
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'direct'));
    // "Japnese Yen", "Singaporian Dollar", "Thai Bhat" rows.
    assert.equal(day(obs, '2026-04-01', ['AUD', 'JPY', 'SGD', 'THB', 'USD', 'EUR']), 'AUD 192.929678, JPY 1.759259, SGD 217.257667, THB 8.574767, USD 279.351786, EUR 323.030686');
    assert.equal(day(obs, '2026-04-14', ['BHD', 'KWD', 'GBP', 'TRY']), 'BHD 739.022450, KWD 910.193433, GBP 377.205134, TRY 6.263613');
  });

  test('archive: 3,190 business days from 2013-07-02 to 2026-06-30, four decimals as shown', () => {
    const obs = parseFile(ARCHIVE);
    const dates = [...new Set(obs.map((o) => o.date))];
    assert.equal(dates.length, 3190);
    assert.equal(dates[0], '2013-07-02');
    assert.equal(dates.at(-1), '2026-06-30');
    assert.equal(obs.length, 3190 * 23);
    assert.deepEqual([...new Set(obs.map((o) => o.quote))].sort(), CCY);
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'direct'));
    // " Newzealand"/"New Zealand Dollar", " U.A.E."/"U.A.E. Dirham", "Swedish Krone" rows; 14.9100 keeps its zeros.
    assert.equal(day(obs, '2013-07-02', ['AUD', 'NZD', 'AED', 'SEK', 'TRY', 'USD', 'EUR']), 'AUD 91.4712, NZD 77.6396, AED 27.0779, SEK 14.9100, TRY 51.7043, USD 99.4401, EUR 129.7487');
    assert.equal(day(obs, '2013-07-16', ['JPY', 'GBP']), 'JPY 1.0044, GBP 151.3511');
  });
});

/** A wide workbook laid out as SBP's: titles, Country | Currency | dates, one row per currency. */
function workbook(heading: unknown[], rows: unknown[][]): Buffer {
  const ws = utils.aoa_to_sheet([['State Bank of Pakistan'], ["Daily Average Banks' Floating Exchange Rates"], ['Pak Rupees per Currency Unit'], ['Country', 'Currency', ...heading], ...rows, [], ['Contact person:', 'Rizwan Ahmad, Senior Joint Director']]);
  for (const [ref, cell] of Object.entries(ws)) {
    if (!ref.startsWith('!') && (cell as CellObject).t === 'n') (cell as CellObject).z = utils.decode_cell(ref).r === 3 ? 'd-mmm-yy' : '0.0000';
  }
  const wb = utils.book_new();
  utils.book_append_sheet(wb, ws, 'Sheet2');
  return write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

describe('SBPP edge cases', () => {
  // 46113 = 1 April 2026, 46114 = 2 April 2026.
  const DATES = [46113, 46114];
  const USD = [' U.S.A.', 'U.S. Dollar', 279.351786, 279.3232];

  test('reads the figures as shown per date column and skips empty cells', () => {
    assert.deepEqual(parseBody(workbook(DATES, [USD, [' Japan', 'Japnese Yen', 1.759259]])), [
      { date: '2026-04-01', quote: 'USD', rate: '279.3518', unit: 1, direction: 'direct' },
      { date: '2026-04-02', quote: 'USD', rate: '279.3232', unit: 1, direction: 'direct' },
      { date: '2026-04-01', quote: 'JPY', rate: '1.7593', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parseBody('<!DOCTYPE html><html><head><title>404 | State Bank of Pakistan</title></head><body></body></html>'), /not an XLSX workbook/);
  });

  test('rejects a truncated workbook', () => {
    const whole = workbook(DATES, [USD]);
    assert.throws(() => parseBody(whole.subarray(0, whole.length >> 1)), /truncated workbook/);
  });

  test('rejects an empty table, unknown names and headings that are not dates', () => {
    assert.throws(() => parseBody(workbook(DATES, [])), /holds no rates/);
    assert.throws(() => parseBody(workbook(DATES, [[' Mars', 'Martian Dollar', 1, 2]])), /unknown currency name "Martian Dollar"/);
    assert.throws(() => parseBody(workbook([46113, 'Average'], [USD])), /column heading "Average" is not a date/);
    assert.throws(() => parseBody(workbook(DATES, [[' U.S.A.', 'U.S. Dollar', 279.351786, 'n.a.']])), /USD on 2026-04-02: not a number/);
  });

  test('accepts the two workbooks only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://www.sbp.org.pk/assets/document/BFER_Daily_Arch.xlsx'));
    assert.ok(!source.accepts('https://www.sbp.org.pk/ecodata/Exchange_Rate_Arch.xlsx'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('SBPP requests', () => {
  test('the archive, then the month file, whatever the window', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/BFER_Daily_Arch.xlsx' }, { url: 'http://127.0.0.1:1/BFER_Daily.xlsx' }]);
    assert.deepEqual(
      source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: source.baseUrl }).map((r) => r.url),
      ['https://www.sbp.org.pk/assets/document/BFER_Daily_Arch.xlsx', source.feedUrl],
    );
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url));
  });

  test('round trip through a local feed server', async () => {
    const server = await startFeedServer({
      '/BFER_Daily_Arch.xlsx': { body: readFileSync(new URL(ARCHIVE, DIR)) },
      '/BFER_Daily.xlsx': { body: readFileSync(new URL(MONTH, DIR)) },
    });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 2);
      assert.deepEqual(source.parse(payloads[1]!), parseFile(MONTH));
      assert.deepEqual(source.parse(payloads[0]!), parseFile(ARCHIVE));
    } finally {
      await server.close();
    }
  });
});
