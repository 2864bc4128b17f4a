import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { utils, write } from '@e965/xlsx';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './cbeg.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('CBEG');

const FILE = 'GetHistoricalData-response.xlsx';
const NAME = 'https://www.cbe.org.eg/api/statistics/GetHistoricalData';
const parse = (body: Buffer | string) => source.parse({ name: NAME, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
/** "rate per unit", so one assertion covers both. */
const quoted = (obs: Observation[], date: string, quote: string) => {
  const o = obs.find((x) => x.date === date && x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};

const CCY = 'AED AUD BHD CAD CHF CNY DKK EUR GBP JOD JPY KWD NOK OMR QAR SAR SEK USD'.split(' ');
// Sunday to Thursday: 3 and 4 April 2026 are the Egyptian weekend.
const DAYS = ['2026-04-01', '2026-04-02', '2026-04-05', '2026-04-06', '2026-04-07', '2026-04-08', '2026-04-09'];

/** An XLSX laid out as the CBE writes it: an empty title row, the column header, then data rows. */
function xlsx(...rows: unknown[][]): Buffer {
  const book = utils.book_new();
  utils.book_append_sheet(book, utils.aoa_to_sheet([[''], ['Date', 'Currency', 'Buy', 'Sell'], ...rows]), 'Official Exchange Rates');
  return write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

describe('CBEG recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('1–9 April 2026: 7 working days × 18 currencies, EGP per unit', () => {
    const obs = parseFile(FILE);
    assert.equal(obs.length, 7 * 18);
    assert.deepEqual([...new Set(obs.map((o) => o.date))].sort(), DAYS);
    for (const date of DAYS) assert.deepEqual(obs.filter((o) => o.date === date).map((o) => o.quote).sort(), CCY, date);
    assert.ok(obs.every((o) => o.direction === 'direct' && o.unit === (o.quote === 'JPY' ? 100 : 1)));
  });

  test('the rate is the exact midpoint of buy and sell', () => {
    const obs = parseFile(FILE);
    // Buy 53.0734, sell 53.2067.
    assert.equal(quoted(obs, '2026-04-09', 'USD'), '53.14005/1');
    // Buy 53.2558, sell 53.396 (shown as 53.3960).
    assert.equal(quoted(obs, '2026-04-08', 'USD'), '53.3259/1');
    // Buy 62.1685, sell 62.3407.
    assert.equal(quoted(obs, '2026-04-01', 'EUR'), '62.2546/1');
    // "Japanese Yen 100": buy 33.4068, sell 33.4928 per 100 yen.
    assert.equal(quoted(obs, '2026-04-09', 'JPY'), '33.4498/100');
    // Buy 178.0065, sell 178.5206.
    assert.equal(quoted(obs, '2026-04-07', 'KWD'), '178.26355/1');
    // Buy 7.7900, sell 7.8118.
    assert.equal(quoted(obs, '2026-04-01', 'CNY'), '7.8009/1');
  });

  test('reads the historical-data page, posts its form back with the token and cookie, reads the answer', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const PAGE = '/en/economic-research/statistics/cbe-exchange-rates/historical-data';
    const base = 'http://127.0.0.1:1';
    assert.deepEqual(source.requests(window, { base, key: 'k' }), [{ url: `${base}${PAGE}`, follow: true }]);
    const formPage = readFileSync(new URL('./testdata/CBEG-form.html', import.meta.url));
    const requests = source.follow!({ name: `${base}${PAGE}`, url: `${base}${PAGE}`, body: formPage, cookie: '.AspNetCore.Antiforgery.x=af1' }, window, { base });
    const names = ['US Dollar', 'Euro', 'Pound Sterling', 'Canadian Dollar', 'Danish Krone', 'Norwegian Krone', 'Swedish Krona', 'Swiss Franc', 'Japanese Yen 100', 'Saudi Riyal', 'Kuwaiti Dinar', 'UAE Dirham', 'Australian Dollar', 'Bahraini Dinar', 'Omani Riyal', 'Qatari Riyal', 'Jordanian Dinar', 'Chinese Yuan'];
    const body = [
      '__RequestVerificationToken=CfDJ8test-antiforgery-token-CBEG',
      'DataSourceId=19CFFDDBFF494350A5E9C6A4397FC7DF',
      'FallbackUrl=%2Fen%2Feconomic-research%2Fstatistics%2Fcbe-exchange-rates%2Fhistorical-data',
      'LanguageName=en',
      'FromDateRaw=02%2F03%2F2026',
      'ToDateRaw=06%2F03%2F2026',
      ...names.map((n) => `SelectedSelectOptions=${n.replaceAll(' ', '+')}`),
      'SubmitAction=2',
    ].join('&');
    assert.deepEqual(requests, [
      {
        url: `${base}/api/statistics/GetHistoricalData`,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', referer: `${base}${PAGE}`, cookie: '.AspNetCore.Antiforgery.x=af1' },
        body,
      },
    ]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);
    assert.throws(() => source.follow!({ name: 'p', url: `${base}${PAGE}`, body: Buffer.from('<html><body>Access denied</body></html>') }, window, { base }), /anti-forgery token/);

    const server = await startFeedServer((path, req) =>
      path === PAGE
        ? { body: formPage, contentType: 'text/html; charset=utf-8', headers: { 'set-cookie': '.AspNetCore.Antiforgery.x=af2; path=/; samesite=strict; httponly' } }
        : // Like the bank: no token matching the cookie, no workbook.
          new URLSearchParams(req.body).get('__RequestVerificationToken') && req.headers.cookie === '.AspNetCore.Antiforgery.x=af2'
          ? { body: readFileSync(new URL(FILE, DIR)) }
          : { status: 400, body: 'Bad Request' },
    );
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p)), parseFile(FILE));
      assert.deepEqual(server.requests.map((r) => [r.method, r.url, r.body]), [['GET', PAGE, ''], ['POST', '/api/statistics/GetHistoricalData', body]]);
    } finally {
      await server.close();
    }
  });
});

describe('CBEG edge cases', () => {
  test('reads an XLSX written inline', () => {
    assert.deepEqual(parse(xlsx([46122, 'US Dollar', 53.1, 53.25], [46122, 'Japanese Yen 100', 33.4, 33.5])), [
      { date: '2026-04-10', quote: 'USD', rate: '53.175', unit: 1, direction: 'direct' },
      { date: '2026-04-10', quote: 'JPY', rate: '33.45', unit: 100, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    const html = '<!DOCTYPE html><html><head><title>Request Rejected</title></head><body>The requested URL was rejected. Please consult with your administrator.<br><br>Your support ID is: 1234567890</body></html>';
    assert.throws(() => parse(html), /not an XLSX workbook/);
  });

  test("says when the page is the firewall's refusal (HTTP 200, \"Request Rejected\")", () => {
    assert.throws(() => parse('<html><head><title>Request Rejected</title></head><body>The requested URL was rejected.</body></html>'), /firewall answered "Request Rejected"/);
  });

  test('rejects a truncated payload', () => {
    const full = xlsx([46122, 'US Dollar', 53.1, 53.25]);
    assert.throws(() => parse(full.subarray(0, full.length - 100)), /truncated workbook/);
  });

  test('rejects an empty table, a sheet without the header, and bad rows', () => {
    assert.throws(() => parse(xlsx()), /holds no rates/);
    const book = utils.book_new();
    utils.book_append_sheet(book, utils.aoa_to_sheet([['Error'], ['No data']]), 'Sheet1');
    assert.throws(() => parse(write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer), /no Date \| Currency \| Buy \| Sell header/);
    assert.throws(() => parse(xlsx([46122, 'Libyan Dinar', 11.1, 11.2])), /unknown currency "Libyan Dinar"/);
    assert.throws(() => parse(xlsx(['10/04/2026', 'US Dollar', 53.1, 53.25])), /bad date cell/);
    assert.throws(() => parse(xlsx([46122, 'US Dollar', 53.1, null])), /no USD sell rate/);
    assert.throws(() => parse(xlsx([46122, 'US Dollar', 'n/a', 53.25])), /bad USD buy rate/);
  });

  test('a sheet with the header and no rows (a window of weekends) is no publication', () => {
    assert.throws(() => parse(xlsx()), NoPublication);
  });

  test('accepts the historical-data endpoint only', () => {
    assert.ok(source.accepts(`${source.baseUrl}/api/statistics/GetHistoricalData`));
    assert.ok(!source.accepts(source.feedUrl));
    assert.ok(!source.accepts(`${source.baseUrl}/api/statistics/GetHistoricalDataPage`));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
