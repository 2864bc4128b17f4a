import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './indo.js';
import { ParseError } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('INDO');
const FILE = 'transaksi-bi-AED-2026-03-02_2026-03-05.html';
const PATH = '/en/statistik/informasi-kurs/transaksi-bi/default.aspx';
const FIELD = 'ctl00$PlaceHolderMain$g_6c89d4ad_107f_437d_bd54_8fda17b556bf$ctl00$';

const parse = (body: string) => source.parse({ name: `https://www.bi.go.id${PATH}#USD`, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });

describe('INDO recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('AED, 2-5 March 2026: the mid of sell and buy, IDR per 1 AED', () => {
    const obs = parseFile(FILE);
    // Sell/Buy as printed: 4,627.79/4,580.24, 4,616.19/4,569.51, 4,611.30/4,563.55, 4,592.29/4,545.11.
    assert.deepEqual(obs, [
      { date: '2026-03-05', quote: 'AED', rate: '4604.015', unit: 1, direction: 'direct' },
      { date: '2026-03-04', quote: 'AED', rate: '4592.85', unit: 1, direction: 'direct' },
      { date: '2026-03-03', quote: 'AED', rate: '4587.425', unit: 1, direction: 'direct' },
      { date: '2026-03-02', quote: 'AED', rate: '4568.7', unit: 1, direction: 'direct' },
    ]);
  });
});

describe('INDO edge cases', () => {
  const page = (ccy: string, rows: string, table = true) => `\r\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\r
<html dir="ltr" lang="en-US"><head><title>Foreign Exchange Rates</title></head><body><form method="post" action="./default.aspx">
<div id="ctl00_PlaceHolderMain_g_6c89d4ad_107f_437d_bd54_8fda17b556bf_ctl00_kursTable1"><div style="text-align: center; font-weight: bold;">
<span id="ctl00_PlaceHolderMain_g_6c89d4ad_107f_437d_bd54_8fda17b556bf_ctl00_Label10">EXCHANGE RATES ON TRANSACTION</span><br />
<span id="ctl00_PlaceHolderMain_g_6c89d4ad_107f_437d_bd54_8fda17b556bf_ctl00_lblKursTransaksiKTBI2" class="font-weight-bold">CURRENCIES ${ccy}  </span>
${table ? `<table class="table table-striped table-no-bordered table-lg" cellspacing="0" rules="all" border="1" id="ctl00_PlaceHolderMain_g_6c89d4ad_107f_437d_bd54_8fda17b556bf_ctl00_gvSearchResult2" style="border-collapse:collapse;">
\t\t\t\t<tr>
\t\t\t\t\t<th class="borderLeft" scope="col">Value</th><th class="borderLeft" scope="col">Sell</th><th scope="col">Buy</th><th scope="col">Date</th>
\t\t\t\t</tr>${rows}
\t\t\t</table>` : ''}
</div></div></form></body>\r\n</html>\r\n`;
  const row = (value: string, sell: string, buy: string, date: string) =>
    `<tr>\n\t\t\t\t\t<td>${value}</td><td>${sell}</td><td>${buy}</td><td>${date}</td>\n\t\t\t\t</tr>`;

  test('keeps the Value multiplier and averages exactly', () => {
    const obs = parse(page('JPY', row('100.00', '10,624.34', '10,517.39', '5 Mar 2026') + row('100.00', '10,600.00', '10,500.00', '12 Dec 2025')));
    assert.deepEqual(obs, [
      { date: '2026-03-05', quote: 'JPY', rate: '10570.865', unit: 100, direction: 'direct' },
      { date: '2025-12-12', quote: 'JPY', rate: '10550', unit: 100, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page and a search without results', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>Error</title></head><body>Sorry, something went wrong</body></html>'), ParseError);
    assert.throws(() => parse(page('USD', '', false)), /has no result table/);
  });

  test('rejects a truncated page', () => {
    const full = page('USD', row('1.00', '16,972.00', '16,802.00', '5 Mar 2026') + row('1.00', '16,950.00', '16,780.00', '4 Mar 2026'));
    assert.throws(() => parse(full.slice(0, full.indexOf('4 Mar 2026'))), /truncated/);
  });

  test('rejects an empty table and malformed rows', () => {
    assert.throws(() => parse(page('USD', '')), /holds no rates/);
    assert.throws(() => parse(page('USD', row('1.00', '16.972,00', '16.802,00', '5 Mar 2026'))), /bad USD Sell/);
    assert.throws(() => parse(page('USD', row('1.00', '16,972.00', '16,802.00', '05-03-2026'))), /bad date/);
    assert.throws(() => parse(page('USD', row('0.50', '16,972.00', '16,802.00', '5 Mar 2026'))), /bad USD Value/);
  });

  test('accepts the transaction-rate page only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts(`https://www.bi.go.id${PATH}#AED`));
    assert.ok(!source.accepts('https://www.bi.go.id/en/statistik/informasi-kurs/jisdor/default.aspx'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('INDO requests', () => {
  const FORM = readFileSync(new URL('./testdata/INDO-form.html', import.meta.url));
  const base = 'http://127.0.0.1:1';
  const formPage = { name: `${base}${PATH}`, url: `${base}${PATH}`, body: FORM, cookie: 'ASP.NET_SessionId=s1' };

  test('first the form page, to be followed', () => {
    assert.deepEqual(source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base, key: 'k' }), [{ url: `${base}${PATH}`, follow: true }]);
  });

  test('follows the form page with one postback per currency carrying its tokens and cookie', () => {
    const requests = source.follow!(formPage, { from: '2026-03-02', to: '2026-03-06' }, { base });
    assert.equal(requests.length, 25);
    const [first] = requests;
    assert.deepEqual({ ...first, body: undefined }, {
      url: `${base}${PATH}`,
      name: `${base}${PATH}#AED`,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', referer: `${base}${PATH}`, cookie: 'ASP.NET_SessionId=s1' },
      body: undefined,
    });
    const form = new URLSearchParams(first!.body);
    assert.equal(form.get('__VIEWSTATE'), '/wEPDwUBMA9kFgJmD2QWAg-test-viewstate-INDO');
    assert.equal(form.get('__EVENTVALIDATION'), '/wEdAAvM6kKh-test-eventvalidation-INDO');
    assert.equal(form.get('__REQUESTDIGEST'), '0xTEST0DIGEST0INDO,23 Nov 2026 03:00:00 -0000');
    assert.equal(form.get(`${FIELD}ddlmatauang1`), 'AED  ');
    assert.equal(form.get(`${FIELD}txtFrom`), '02-Mar-2026');
    assert.equal(form.get(`${FIELD}txtTo`), '06-Mar-2026');
    assert.equal(form.get(`${FIELD}btnSearch1`), 'Search');
    // The hidden source field is the page's own, filled in, not sent twice.
    assert.deepEqual(form.getAll(`${FIELD}hidSourceID`), ['ctl00_PlaceHolderMain_g_6c89d4ad_107f_437d_bd54_8fda17b556bf_ctl00_btnSearch1']);
    assert.deepEqual(requests.map((r) => r.name!.split('#')[1]).slice(-3), ['THB', 'USD', 'VND']);
    assert.ok(requests.every((r) => source.accepts(r.name ?? r.url) && !r.follow));
  });

  test('refuses to follow a page without the form tokens', () => {
    const error = { ...formPage, body: Buffer.from('<!DOCTYPE html><html><body>Sorry, something went wrong</body></html>') };
    assert.throws(() => source.follow!(error, { from: '2026-03-02', to: '2026-03-06' }, { base }), /not the transaction-rate form/);
  });

  test('round trip through the local feed server: GET the form, then post it back', async () => {
    const body = readFileSync(new URL(FILE, DIR));
    const server = await startFeedServer((_path, req) =>
      req.method === 'GET'
        ? { body: FORM, contentType: 'text/html; charset=utf-8', headers: { 'set-cookie': 'ASP.NET_SessionId=abc; path=/; HttpOnly' } }
        : // Like the bank, a postback without the page's ViewState or session gets an error page.
          new URLSearchParams(req.body).get('__VIEWSTATE') && req.headers.cookie === 'ASP.NET_SessionId=abc'
          ? { body, contentType: 'text/html; charset=utf-8' }
          : { status: 403, body: 'no session' },
    );
    try {
      const window = { from: '2026-03-02', to: '2026-03-06' };
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 25);
      assert.deepEqual(server.requests.map((r) => r.method), ['GET', ...Array(25).fill('POST')]);
      assert.equal(new URLSearchParams(server.requests[1]!.body).get(`${FIELD}ddlmatauang1`), 'AED  ');
      assert.equal(payloads[0]!.name, `${server.url}${PATH}#AED`);
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILE));
    } finally {
      await server.close();
    }
  });
});
