// Grade A (SOURCES-2.md): complete VCR recordings of the page (GET) and of a form post for one day.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './ncam.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('NCAM');
const POSTED = 'nbc-exchange_rate-2026-05-18.html';
const FORM = 'nbc-exchange_rate-form.html';

const parse = (body: string) => source.parse({ name: 'english/economic_research/exchange_rate.php?exdate=2026-05-18', body: Buffer.from(body) }) as Observation[];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const perUnit = (obs: Observation[], quote: string) => {
  const o = obs.find((x) => x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};

// The 28 table rows less CNH, plus the USD headline.
const CURRENCIES = 'AED AUD CAD CHF CNY DKK EUR GBP HKD IDR INR JPY KRW LAK MMK MYR NGN NZD PHP SAR SEK SGD THB TWD USD VND XDR ZAR'.split(' ');

describe('NCAM recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [POSTED, FORM]);
  });

  test('posted day 2026-05-18: USD from the headline, the table as Average per Unit', () => {
    const obs = parseFile(POSTED);
    assert.deepEqual(obs.map((o) => o.quote).sort(), CURRENCIES);
    assert.ok(obs.every((o) => o.date === '2026-05-18' && o.direction === 'direct'));
    assert.equal(perUnit(obs, 'USD'), '4014/1');
    assert.equal(perUnit(obs, 'AUD'), '2888.50/1');
    assert.equal(perUnit(obs, 'IDR'), '231.00/1000');
    assert.equal(perUnit(obs, 'JPY'), '2545.50/100');
    assert.equal(perUnit(obs, 'KRW'), '269.00/100');
    assert.equal(perUnit(obs, 'LAK'), '185.00/1000');
    assert.equal(perUnit(obs, 'THB'), '123.50/1');
    assert.equal(perUnit(obs, 'VND'), '153.00/1000');
    // SDR in the table.
    assert.equal(perUnit(obs, 'XDR'), '5535.50/1');
  });

  test('the form page shows the next business day, 2026-05-25, already on Friday the 22nd', () => {
    const obs = parseFile(FORM);
    assert.deepEqual(obs.map((o) => o.quote).sort(), CURRENCIES);
    assert.ok(obs.every((o) => o.date === '2026-05-25'));
    assert.equal(perUnit(obs, 'USD'), '4025/1');
    assert.equal(perUnit(obs, 'AUD'), '2889.50/1');
    assert.equal(perUnit(obs, 'IDR'), '228.50/1000');
    assert.equal(perUnit(obs, 'PHP'), '6558.50/100');
    assert.equal(perUnit(obs, 'XDR'), '5528.50/1');
    assert.equal(perUnit(obs, 'SAR'), '1078.00/1');
    assert.deepEqual([...new Set(obs.map((o) => o.unit))].sort((a, b) => a - b), [1, 100, 1000]);
  });

  test('visits the form page before each business day, then posts it with that page\'s token and cookie', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const url = 'http://127.0.0.1:1/english/economic_research/exchange_rate.php';
    const days = ['02', '03', '04', '05', '06'].map((d) => `2026-03-${d}`);
    assert.deepEqual(
      source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' }),
      days.map((day) => ({ url, follow: true, name: `${url}?exdate=${day}` })),
    );
    const formPage = { name: `${url}?exdate=2026-03-04`, url, body: readFileSync(new URL(FORM, DIR)), cookie: 'PHPSESSID=p1' };
    // The token as the recorded page carries it, in the order the recorded post sent the fields.
    assert.deepEqual(source.follow!(formPage, window, { base: 'http://127.0.0.1:1' }), [
      {
        url,
        name: `${url}?exdate=2026-03-04`,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', referer: url, cookie: 'PHPSESSID=p1' },
        body: 'exdate=2026-03-04&tk=72hrRQfXOMayjp%2Ftt7BTMjX6Euwzifl4QK%2FbVHUhfPo%3D&view=View',
      },
    ]);
    for (const r of source.requests(window, { base: 'http://127.0.0.1:1' })) assert.ok(source.accepts(r.name ?? r.url), r.url);
    assert.throws(() => source.follow!({ ...formPage, body: Buffer.from('<html><body>403</body></html>') }, window, { base: 'http://127.0.0.1:1' }), /no exchange-rate form with its tk token/);
    assert.throws(() => source.follow!({ ...formPage, name: url }, window, { base: 'http://127.0.0.1:1' }), /names no day/);

    // Like the bank, the server issues a new token and session with every page and takes each token
    // once, from that session only: a window of five days is five page visits and five posts.
    const RECORDED_TK = '72hrRQfXOMayjp/tt7BTMjX6Euwzifl4QK/bVHUhfPo=';
    const issued = new Map<string, string>();
    const server = await startFeedServer((_path, req) => {
      if (req.method === 'GET') {
        const n = issued.size + 1;
        issued.set(`PHPSESSID=s${n}`, `token-${n}`);
        const body = readFileSync(new URL(FORM, DIR), 'latin1').replace(RECORDED_TK, `token-${n}`);
        return { body, contentType: 'text/html', headers: { 'set-cookie': `PHPSESSID=s${n}; path=/` } };
      }
      const tk = new URLSearchParams(req.body).get('tk');
      if (tk === null || issued.get(req.headers.cookie ?? '') !== tk) return { status: 403, body: 'bad token' };
      issued.set(req.headers.cookie!, 'used');
      return { body: readFileSync(new URL(POSTED, DIR)), contentType: 'text/html' };
    });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 5);
      for (const p of payloads) assert.deepEqual(source.parse(p), parseFile(POSTED));
      assert.deepEqual(server.requests.map((r) => r.method), ['GET', 'POST', 'GET', 'POST', 'GET', 'POST', 'GET', 'POST', 'GET', 'POST']);
      const posts = server.requests.filter((r) => r.method === 'POST').map((r) => new URLSearchParams(r.body));
      assert.deepEqual(posts.map((f) => [f.get('exdate'), f.get('tk')]), days.map((day, i) => [day, `token-${i + 1}`]));
    } finally {
      await server.close();
    }
  });
});

describe('NCAM edge cases', () => {
  const HEAD = `<!DOCTYPE html>\r\n<html>\r\n<head><title>Exchange Rate</title></head>\r\n<body>\r\n<form method="POST" id="fm-ex"><table>\r\n<tr><td> Exchange Rate on : <font color="#FF3300">2026-05-18</font> <br></td></tr>\r\n<tr><td><br> Official Exchange Rate : <font color="#FF3300">4014</font> KHR / USD</td></tr>\r\n</table></form>\r\n`;
  const TABLE = (rows: string) =>
    `<table cellspacing="0" cellpadding="0" width="100%" class="tbl-responsive">\r\n<tr bgcolor="#983D3A"><td>Currency</td><td>Symbol</td><td>Unit</td><td>Bid</td><td>Ask</td><td>Average</td></tr>\r\n${rows}</table>\r\n</body></html>`;
  const ROW = (symbol: string, unit: string, average: string) => `<tr><td>Name</td><td align='center'>${symbol}</td><td align='center'>${unit}</td><td align='right'>1</td><td align='right'>2</td><td align='right'>${average}</td></tr>\r\n`;

  test('reads a minimal page', () => {
    assert.deepEqual(parse(HEAD + TABLE(ROW('VND/KHR', '1000', '153.00'))), [
      { date: '2026-05-18', quote: 'USD', rate: '4014', unit: 1, direction: 'direct' },
      { date: '2026-05-18', quote: 'VND', rate: '153.00', unit: 1000, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<html><head><title>403 Forbidden</title></head><body><center><h1>403 Forbidden</h1></center><hr><center>CloudFront</center></body></html>'), /no "Exchange Rate on/);
  });

  test('rejects a truncated page', () => {
    assert.throws(() => parse(HEAD.slice(0, HEAD.indexOf('Official'))), /no "Official Exchange Rate/);
    const full = HEAD + TABLE(ROW('VND/KHR', '1000', '153.00'));
    assert.throws(() => parse(full.slice(0, full.indexOf("<td align='right'>1</td>"))), ParseError);
  });

  test('rejects an empty table; a day without data is no publication', () => {
    assert.throws(() => parse(HEAD + TABLE('')), /holds no rates/);
    assert.throws(() => parse(HEAD + TABLE(ROW('CNH/KHR', '1', '593.00'))), /holds no rates/);
    assert.throws(() => parse(HEAD + '<p>There is no data available.</p></body></html>'), NoPublication);
    assert.throws(() => parse(HEAD + '</body></html>'), /has no rate table/);
    assert.throws(() => parse(HEAD + TABLE(ROW('JPY/KHR', 'hundred', '2545.50'))), ParseError);
  });

  test('accepts the page and the recorded pages only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.nbc.gov.kh/download_files/economic_research/off_ex_rate_eng/oer_18-05-26.pdf'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
