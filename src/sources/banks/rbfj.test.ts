// Reserve Bank of Fiji. Recorded payloads grade A (SOURCES-2.md): complete recordings with the
// server's own headers (the original workbook and hub page, not the later trimmed cassette).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { utils, write, type CellObject } from '@e965/xlsx';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './rbfj.js';
import { NoPublication, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('RBFJ');
const BOOK = 'rbf-8.8-Exchange-Rates-Daily-9.xlsx';
const HUB = 'rbf-economic-and-financial-statistics-2026-05-24.html';
const LINKED = 'https://www.rbf.gov.fj/wp-content/uploads/2026/05/8.8-Exchange-Rates-Daily-9.xlsx';

const parseBody = (body: Buffer | string, name = LINKED) => source.parse({ name, body: Buffer.from(body) }) as Observation[];
// The recorded workbook takes seconds to read: read it once.
let recorded: Observation[] | undefined;
const parseBook = () => (recorded ??= source.parse({ name: BOOK, body: readFileSync(new URL(BOOK, DIR)) }) as Observation[]);
const day = (obs: Observation[], date: string) =>
  obs
    .filter((o) => o.date === date)
    .map((o) => `${o.quote} ${o.rate}`)
    .join(', ');

describe('RBFJ recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [BOOK, HUB]);
  });

  test('the daily workbook: 6,371 business days from 2001-01-02 to 2026-05-22, foreign units per FJD', () => {
    const obs = parseBook();
    const dates = [...new Set(obs.map((o) => o.date))];
    assert.equal(dates.length, 6371);
    assert.equal(dates[0], '2001-01-02');
    assert.equal(dates.at(-1), '2026-05-22');
    assert.equal(obs.length, 6371 * 8);
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'indirect'));
    // Labels SDR STG YEN CHF A$ NZ$ US$ EURO; figures as shown ("$0.3532"), not the doubles behind them.
    assert.equal(day(obs, '2001-01-02'), 'XDR 0.3532, GBP 0.3078, JPY 52.66, CHF 0.7414, AUD 0.8238, NZD 1.0381, USD 0.4602, EUR 0.4887');
    assert.equal(day(obs, '2026-05-12'), 'XDR 0.3294, GBP 0.3338, JPY 70.96, CHF 0.3525, AUD 0.6270, NZD 0.7628, USD 0.4531, EUR 0.3855');
    assert.equal(day(obs, '2026-05-22'), 'XDR 0.3294, GBP 0.3351, JPY 71.58, CHF 0.3541, AUD 0.6296, NZD 0.7663, USD 0.4502, EUR 0.3875');
  });

  test('the hub page holds no rates but names the current workbook', () => {
    const body = readFileSync(new URL(HUB, DIR));
    assert.throws(() => source.parse({ name: HUB, body }), (err: unknown) => err instanceof NoPublication && err.message.endsWith(`the daily workbook is at ${LINKED}`));
  });
});

/** A workbook laid out as RBF's: two title rows, padded labels, "$"-formatted figures. */
function workbook(rows: unknown[][], labels = ['     SDR', '    YEN', 'US$'], sheet = 'Exchange Rates'): Buffer {
  const ws = utils.aoa_to_sheet([['DAILY EXCHANGE RATES'], ['(RBF Mid-Rate Per Fiji Dollar)'], ['Period', ...labels], ...rows]);
  for (const [ref, cell] of Object.entries(ws)) {
    if (!ref.startsWith('!') && (cell as CellObject).t === 'n') (cell as CellObject).z = ref.startsWith('A') ? 'dd mmm yy' : ref.startsWith('C') ? '"$"0.00' : '"$"0.0000';
  }
  const wb = utils.book_new();
  utils.book_append_sheet(wb, ws, sheet);
  utils.book_append_sheet(wb, utils.aoa_to_sheet([]), 'Sheet1');
  return write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

describe('RBFJ edge cases', () => {
  // 46164 = 22 May 2026.
  const DAY = [46164, 0.329404, 71.58, 0.45];

  test('reads the figures as shown, labels mapped to ISO codes', () => {
    assert.deepEqual(parseBody(workbook([DAY])), [
      { date: '2026-05-22', quote: 'XDR', rate: '0.3294', unit: 1, direction: 'indirect' },
      { date: '2026-05-22', quote: 'JPY', rate: '71.58', unit: 1, direction: 'indirect' },
      { date: '2026-05-22', quote: 'USD', rate: '0.4500', unit: 1, direction: 'indirect' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parseBody('<!DOCTYPE html><html><head><title>Page not found - Reserve Bank of Fiji</title></head><body></body></html>'), /neither the workbook nor the statistics hub/);
  });

  test('rejects a truncated workbook and a truncated hub', () => {
    const whole = workbook([DAY]);
    assert.throws(() => parseBody(whole.subarray(0, whole.length >> 1)), /truncated workbook/);
    const hub = `<html><body><p><a href="${LINKED}">8.8 Exchange Rates &#8211; Daily</a></p></body></html>\n`;
    assert.throws(() => parseBody(hub, source.feedUrl), NoPublication);
    assert.throws(() => parseBody(hub.slice(0, hub.indexOf('</p>')), source.feedUrl), /neither the workbook nor/);
  });

  test('rejects an empty table, a missing sheet, an unknown label and a missing figure', () => {
    assert.throws(() => parseBody(workbook([])), /holds no rates/);
    assert.throws(() => parseBody(workbook([DAY], undefined, 'Rates')), /has no sheet "Exchange Rates"/);
    assert.throws(() => parseBody(workbook([DAY], ['SDR', 'RMB', 'US$'])), /unknown currency label "RMB"/);
    assert.throws(() => parseBody(workbook([[46164, 0.3294, 'n/a', 0.45]])), /JPY on 2026-05-22: not a number/);
  });

  test('accepts the workbook and the hub only', () => {
    assert.ok(source.accepts(LINKED));
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.rbf.gov.fj/wp-content/uploads/2026/05/8.7-Exchange-Rates-Monthly.xlsx'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('RBFJ requests', () => {
  const base = 'http://127.0.0.1:1';
  test('the statistics hub to follow, whatever the window', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base, key: 'k' });
    assert.deepEqual(requests, [{ url: `${base}/statistics/economic-and-financial-statistics/`, follow: true }]);
  });

  test('follows the recorded hub to the workbook it links, moved onto the base URL', () => {
    const page = { name: 'hub', url: `${base}/statistics/economic-and-financial-statistics/`, body: readFileSync(new URL(HUB, DIR)) };
    const requests = source.follow!(page, { from: '2026-03-02', to: '2026-03-06' }, { base });
    assert.deepEqual(requests, [{ url: `${base}/wp-content/uploads/2026/05/8.8-Exchange-Rates-Daily-9.xlsx` }]);
    assert.ok(source.accepts(requests[0]!.url));
  });

  test('a hub without the workbook link is an error, not an empty fetch', () => {
    const page = { name: 'hub', url: `${base}/statistics/economic-and-financial-statistics/`, body: Buffer.from('<html><body><a href="/x.pdf">x</a></body></html>') };
    assert.throws(() => source.follow!(page, { from: '2026-03-02', to: '2026-03-06' }, { base }), /links no 8\.8-Exchange-Rates-Daily workbook/);
  });

  test('round trip through a local feed server: the hub, then the workbook it links', async () => {
    const hub = readFileSync(new URL(HUB, DIR));
    const book = readFileSync(new URL(BOOK, DIR));
    const server = await startFeedServer({
      '/statistics/economic-and-financial-statistics/': { body: hub, contentType: 'text/html; charset=UTF-8' },
      '/wp-content/uploads/2026/05/8.8-Exchange-Rates-Daily-9.xlsx': { body: book },
    });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(server.requests.map((r) => r.url), ['/statistics/economic-and-financial-statistics/', '/wp-content/uploads/2026/05/8.8-Exchange-Rates-Daily-9.xlsx']);
      assert.equal(payloads.length, 1);
      assert.equal(payloads[0]!.name, `${server.url}/wp-content/uploads/2026/05/8.8-Exchange-Rates-Daily-9.xlsx`);
      assert.ok(payloads[0]!.body.equals(book));
      assert.ok(source.accepts(payloads[0]!.name));
    } finally {
      await server.close();
    }
  });
});
