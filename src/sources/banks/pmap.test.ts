import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { utils, write } from '@e965/xlsx';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fixtureDir } from '../../../test/support/fixtures.js';
import { planBackfill } from '../../ingest/backfill.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { source } from './pmap.js';

const DIR = fixtureDir('PMAP');
// The recorded payloads (SOURCE.md describes them and is not one). The export form beside them,
// currency-export-form.html, is a step (follow), not a payload.
const FILES = [
  'pma-currencies-ar-2026-09-01-2026-09-08.xlsx',
];
const BOOK = readFileSync(new URL(FILES[0]!, DIR));
const FORM = readFileSync(new URL('currency-export-form.html', DIR));
const PATH = '/ar/webtools/currency/export';
const HEADER = ['التاريخ', 'العملة', 'الشراء', 'البيع', 'الوسطي'];
const INDIRECT = 'AED BHD CAD CHF CNY DKK EGP ILS JOD JPY KWD LBP NOK QAR SAR SEK TRY'.split(' ');
const DIRECT = 'AUD EUR GBP XAG XAU'.split(' ');

const all = (): Observation[] => source.parse({ name: FILES[0]!, body: BOOK });
/** "rate direction" of one currency on one day. */
const quoted = (obs: Observation[], date: string, quote: string) => {
  const o = obs.find((x) => x.date === date && x.quote === quote);
  return o && `${o.rate} ${o.direction}`;
};
/** A workbook of the export's shape holding `rows` under its header. */
const book = (rows: string[][]) => {
  const wb = utils.book_new();
  utils.book_append_sheet(wb, utils.aoa_to_sheet([HEADER, ...rows]), 'Worksheet');
  return source.parse({ name: FILES[0]!, body: write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer });
};
const page = (body: Buffer | string, cookie?: string) => ({ name: `https://wcur.pma.ps${PATH}`, url: `https://wcur.pma.ps${PATH}`, body: Buffer.from(body), ...(cookie ? { cookie } : {}) });

describe('PMAP recorded payloads', () => {
  test('the workbook is accepted, the form page and SOURCE.md are not', () => {
    const names = readdirSync(DIR).sort();
    assert.deepEqual(names.filter((f) => source.accepts(f)), FILES);
  });

  test('six working days (Sunday to Thursday), the 22 pairs against USD, each in its own direction', () => {
    const obs = all();
    assert.deepEqual([...new Set(obs.map((o) => o.date))], ['2026-09-01', '2026-09-02', '2026-09-03', '2026-09-06', '2026-09-07', '2026-09-08']);
    assert.equal(obs.length, 6 * 22);
    const on = obs.filter((o) => o.date === '2026-09-01');
    assert.deepEqual(on.filter((o) => o.direction === 'indirect').map((o) => o.quote).sort(), INDIRECT);
    assert.deepEqual(on.filter((o) => o.direction === 'direct').map((o) => o.quote).sort(), DIRECT);
    assert.ok(obs.every((o) => o.unit === 1));
  });

  test('the published mid, exactly: USD/xxx as xxx per USD, xxx/USD as USD per xxx, metals per troy ounce', () => {
    const obs = all();
    assert.equal(quoted(obs, '2026-09-01', 'ILS'), '2.9924 indirect');
    assert.equal(quoted(obs, '2026-09-01', 'JOD'), '0.709 indirect');
    assert.equal(quoted(obs, '2026-09-01', 'GBP'), '1.3547 direct');
    assert.equal(quoted(obs, '2026-09-01', 'EUR'), '1.1608 direct');
    assert.equal(quoted(obs, '2026-09-01', 'JPY'), '159.89 indirect');
    assert.equal(quoted(obs, '2026-09-01', 'AED'), '3.673 indirect');
    // Buy 89,446.50 and sell 89,800.00 with separators; the mid without.
    assert.equal(quoted(obs, '2026-09-01', 'LBP'), '89623.25 indirect');
    assert.equal(quoted(obs, '2026-09-01', 'XAU'), '4435.18 direct');
    assert.equal(quoted(obs, '2026-09-02', 'XAG'), '64.11 direct');
    // USD/LBP's mid equals its sell rate on 2026-09-06: as published.
    assert.equal(quoted(obs, '2026-09-06', 'LBP'), '89587 indirect');
    assert.equal(quoted(obs, '2026-09-08', 'JPY'), '153.53 indirect');
  });
});

describe('PMAP edge cases', () => {
  test('an HTML error page and a truncated workbook are ParseErrors', () => {
    assert.throws(() => source.parse({ name: FILES[0]!, body: Buffer.from('<!DOCTYPE html><html><body>Service unavailable</body></html>') }), ParseError);
    assert.throws(() => source.parse({ name: FILES[0]!, body: BOOK.subarray(0, BOOK.length >> 1) }), /truncated workbook/);
  });

  test('the header alone is no publication; pairs against the shekel alone are left out', () => {
    assert.throws(() => book([]), NoPublication);
    assert.deepEqual(book([['2026/09/01', 'JOD/ILS', '4.2117', '4.2294', '4.2206'], ['2026/09/01', 'USD/ILS', '2.9903', '2.9944', '2.9924']]), [{ date: '2026-09-01', quote: 'ILS', rate: '2.9924', unit: 1, direction: 'indirect' }]);
    assert.throws(() => book([['2026/09/01', 'EUR/ILS', '3.4711', '3.4759', '3.4736']]), /holds no pair against USD/);
  });

  test('rejects another header, a bad date or pair, and a mid outside buy and sell', () => {
    const row = ['2026/09/01', 'USD/LBP', '89,446.50', '89,800.00', '89623.25'];
    assert.throws(() => source.parse({ name: FILES[0]!, body: write(Object.assign(utils.book_new(), { SheetNames: ['S'], Sheets: { S: utils.aoa_to_sheet([['Date', 'Pair', 'Buy', 'Sell', 'Mid'], row]) } }), { type: 'buffer', bookType: 'xlsx' }) as Buffer }), /has no التاريخ/);
    assert.throws(() => book([['01/09/2026', ...row.slice(1)]]), /bad date cell/);
    assert.throws(() => book([['2026/09/01', 'USDLBP', ...row.slice(2)]]), /bad pair "USDLBP"/);
    assert.throws(() => book([[...row.slice(0, 4), '89900']]), /USD\/LBP on 2026-09-01: mid 89900 is not between buy 89446.5 and sell 89800/);
    // A figure in another format reads as another number: the mid check catches it.
    assert.throws(() => book([[...row.slice(0, 3), '89.800,00', row[4]!]]), /mid 89623.25 is not between buy 89446.5 and sell 89.8/);
    assert.throws(() => book([[...row.slice(0, 2), 'n/a', ...row.slice(3)]]), /USD\/LBP buy on 2026-09-01: not a number/);
  });
});

describe('PMAP requests', () => {
  const ctx = { base: 'http://127.0.0.1:1' };

  test('the export form first, for any window; backfill plans one fetch', () => {
    assert.deepEqual(source.requests({ from: '2020-09-01', to: '2026-09-08' }, ctx), [{ url: `http://127.0.0.1:1${PATH}`, follow: true }]);
    const { plans } = planBackfill([source], { from: '2020-09-01', to: '2026-09-08' }, { sourceUrls: { PMAP: ctx.base }, sourceKeys: {} });
    assert.deepEqual(plans.map((p) => [p.requests, p.perDay]), [[1, false]]);
  });

  test('the recorded form page posts back the recorded request: its session field, the window, its cookie', () => {
    const [post, ...rest] = source.follow!(page(FORM, 'PHPSESSID=abc123'), { from: '2026-09-01', to: '2026-09-08' }, { base: 'https://wcur.pma.ps' });
    assert.deepEqual(rest, []);
    assert.equal(post!.url, `https://wcur.pma.ps${PATH}`);
    assert.equal(post!.method, 'POST');
    // The recorded POST's body, byte for byte.
    assert.equal(post!.body, 'alUxYVk1TC80KzVQcXZtdEUyREtudz09=NEx1U21pRWRmZG80SmR4blZodlVhdz09&from=2026-09-01&to=2026-09-08');
    assert.deepEqual(post!.headers, { 'content-type': 'application/x-www-form-urlencoded', referer: `https://wcur.pma.ps${PATH}`, cookie: 'PHPSESSID=abc123' });
    assert.ok(source.accepts(post!.url));
  });

  test('a page that is not the form is an error', () => {
    const window = { from: '2026-09-01', to: '2026-09-08' };
    assert.throws(() => source.follow!(page('<!DOCTYPE html><html><body>Service unavailable</body></html>'), window, ctx), /is not the export form/);
    assert.throws(() => source.follow!(page(FORM.toString('utf8').replace(' value="NEx1U21pRWRmZG80SmR4blZodlVhdz09"', '')), window, ctx), /is not the export form/);
    assert.throws(() => source.follow!(page(BOOK), window, ctx), /is not the export form/);
  });

  test('round trip through the local feed server: a fresh session field and cookie for every fetch', async () => {
    let session = 0;
    const token = () => `field${session}`;
    const server = await startFeedServer((url, req) => {
      if (url !== PATH) return undefined;
      if (req.method === 'GET') {
        session++;
        const form = FORM.toString('utf8').replace('name="alUxYVk1TC80KzVQcXZtdEUyREtudz09" value="NEx1U21pRWRmZG80SmR4blZodlVhdz09"', `name="${token()}" value="value${session}"`);
        return { body: form, contentType: 'text/html; charset=UTF-8', headers: { 'set-cookie': `PHPSESSID=s${session}; path=/` } };
      }
      const ok = req.body === `${token()}=value${session}&from=2026-09-01&to=2026-09-08` && req.headers.cookie === `PHPSESSID=s${session}`;
      return ok ? { body: BOOK, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } : { status: 403, body: 'session expired' };
    });
    try {
      const http = createHttpClient({ retries: 0 });
      for (let i = 0; i < 2; i++) {
        const payloads = await fetchSource(source, { from: '2026-09-01', to: '2026-09-08' }, { base: server.url }, http);
        assert.equal(payloads.length, 1);
        assert.deepEqual(source.parse(payloads[0]!), all());
      }
      assert.deepEqual(server.requests.map((r) => `${r.method} ${r.headers.cookie ?? '-'}`), ['GET -', 'POST PHPSESSID=s1', 'GET -', 'POST PHPSESSID=s2']);
    } finally {
      await server.close();
    }
  });
});
