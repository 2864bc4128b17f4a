import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './masg.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('MASG');
const FILE = 'msb-ExchangeRates-export.csv';
const PATH = '/statistics/msb/ExchangeRates.aspx';
const FORM = 'ctl00$ContentPlaceHolder1$';

const parse = (body: string) => source.parse({ name: `https://eservices.mas.gov.sg${PATH}`, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const quoted = (obs: Observation[], date: string, quote: string) => {
  const o = obs.find((x) => x.date === date && x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};

const CCY = 'AED AUD CAD CHF CNY EUR GBP HKD IDR INR JPY KRW MYR NZD PHP QAR SAR THB TWD USD VND'.split(' ');

describe('MASG recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('March 2026: 22 days of 21 currencies, per 1 or per 100 as the column headers say', () => {
    const obs = parseFile(FILE);
    const dates = [...new Set(obs.map((o) => o.date))];
    assert.equal(dates.length, 22);
    assert.equal(dates[0], '2026-03-02');
    assert.equal(dates.at(-1), '2026-03-31');
    assert.ok(!dates.includes('2026-03-07'));
    assert.equal(obs.length, 22 * 21);
    assert.deepEqual(obs.filter((o) => o.date === '2026-03-31').map((o) => o.quote).sort(), CCY);
    assert.ok(obs.every((o) => o.direction === 'direct'));
    assert.ok(obs.every((o) => o.unit === (['EUR', 'GBP', 'USD'].includes(o.quote) ? 1 : 100)));
    // Published digits, trailing zeros included.
    assert.equal(quoted(obs, '2026-03-02', 'EUR'), '1.4940/1');
    assert.equal(quoted(obs, '2026-03-02', 'GBP'), '1.7043/1');
    assert.equal(quoted(obs, '2026-03-02', 'AUD'), '90.10/100');
    assert.equal(quoted(obs, '2026-03-02', 'IDR'), '0.007529/100');
    assert.equal(quoted(obs, '2026-03-02', 'JPY'), '0.8107/100');
    assert.equal(quoted(obs, '2026-03-02', 'VND'), '0.004843/100');
    assert.equal(quoted(obs, '2026-03-13', 'QAR'), '35.08/100');
    assert.equal(quoted(obs, '2026-03-13', 'CHF'), '162.59/100');
    assert.equal(quoted(obs, '2026-03-31', 'USD'), '1.2913/1');
    assert.equal(quoted(obs, '2026-03-31', 'THB'), '3.9208/100');
  });
});

describe('MASG edge cases', () => {
  const HEAD = 'MAS: Financial Database - Exchange Rates\n\nExchange Rates (Daily)\nDec 2025 to Jan 2026\n\n\n' +
    'End of Period,,,S$ Per Unit of US Dollar,S$ Per 100 Units of Japanese Yen\n';
  const FOOT = '\n"* Yearly, monthly and weekly figures are end period values."\n"* Daily figures are values as of noon."';
  const ROWS = '2025,Dec,31,1.2850,0.8201\n2026,Jan,02,1.2861,\n,,5,1.2870,0.8190\n';

  test('carries year and month down and skips blank cells', () => {
    assert.deepEqual(parse(HEAD + ROWS + FOOT), [
      { date: '2025-12-31', quote: 'USD', rate: '1.2850', unit: 1, direction: 'direct' },
      { date: '2025-12-31', quote: 'JPY', rate: '0.8201', unit: 100, direction: 'direct' },
      { date: '2026-01-02', quote: 'USD', rate: '1.2861', unit: 1, direction: 'direct' },
      { date: '2026-01-05', quote: 'USD', rate: '1.2870', unit: 1, direction: 'direct' },
      { date: '2026-01-05', quote: 'JPY', rate: '0.8190', unit: 100, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html>\r\n<html><head><title>Runtime Error</title></head><body><h1>Server Error in \'/statistics\' Application.</h1></body></html>'), ParseError);
  });

  test('rejects a truncated export, even one cut between rows', () => {
    const full = HEAD + ROWS + FOOT;
    assert.throws(() => parse(full.slice(0, full.indexOf('1.2870') + 3)), /line 10 has 4 cells/);
    assert.throws(() => parse(HEAD + ROWS), /truncated/);
  });

  test('rejects an empty table, other frequencies and unknown columns', () => {
    assert.throws(() => parse(HEAD + FOOT), /holds no rates/);
    assert.throws(() => parse(HEAD.replace('(Daily)', '(Monthly)') + ROWS + FOOT), /not the daily/);
    assert.throws(() => parse(HEAD.replace('Japanese Yen', 'Brunei Dollar') + ROWS + FOOT), /unknown column/);
    assert.throws(() => parse(HEAD + ROWS.replace('0.8201', 'n.a.') + FOOT), /bad JPY figure/);
  });

  test('accepts the exchange-rate export only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://eservices.mas.gov.sg/statistics/msb/InterestRates.aspx'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('MASG requests', () => {
  const FORM_PAGE = readFileSync(new URL('./testdata/MASG-form.html', import.meta.url));
  const base = 'http://127.0.0.1:1';
  const formPage = { name: `${base}${PATH}`, url: `${base}${PATH}`, body: FORM_PAGE, cookie: 'ASP.NET_SessionId=m1' };

  test('first the form page, to be followed', () => {
    assert.deepEqual(source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base, key: 'k' }), [{ url: `${base}${PATH}`, follow: true }]);
  });

  test('follows the form with one postback per calendar year, daily, every currency ticked, tokens and cookie kept', () => {
    const requests = source.follow!(formPage, { from: '2026-03-02', to: '2026-03-06' }, { base });
    assert.equal(requests.length, 1);
    const [r] = requests;
    assert.deepEqual({ ...r, body: undefined }, {
      url: `${base}${PATH}`,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', referer: `${base}${PATH}`, cookie: 'ASP.NET_SessionId=m1' },
      body: undefined,
    });
    const form = new URLSearchParams(r!.body);
    assert.equal(form.get('__VIEWSTATE'), '/wEPDwUKLTEzNjQ2-test-viewstate-MASG');
    assert.equal(form.get('__EVENTVALIDATION'), '/wEdAFSK3fWJ-test-eventvalidation-MASG');
    assert.deepEqual(
      ['StartYearDropDownList', 'StartMonthDropDownList', 'EndYearDropDownList', 'EndMonthDropDownList', 'FrequencyDropDownList', 'DownloadButton'].map((f) => form.get(FORM + f)),
      ['2026', '3', '2026', '3', 'D', 'Download'],
    );
    // The page's 3 per-unit and 18 per-100 boxes; the Display button is not pressed.
    assert.equal([...form.keys()].filter((k) => k.includes('CheckBoxList$')).length, 21);
    assert.equal(form.get(`${FORM}DisplayButton`), null);
    assert.ok(requests.every((x) => source.accepts(x.name ?? x.url)));
    const years = source.follow!(formPage, { from: '2024-11-15', to: '2026-02-01' }, { base: 'http://h' }).map((x) => {
      const f = new URLSearchParams(x.body);
      return `${f.get(`${FORM}StartYearDropDownList`)}-${f.get(`${FORM}StartMonthDropDownList`)}..${f.get(`${FORM}EndYearDropDownList`)}-${f.get(`${FORM}EndMonthDropDownList`)}`;
    });
    assert.deepEqual(years, ['2024-11..2024-12', '2025-1..2025-12', '2026-1..2026-2']);
  });

  test('refuses to follow a page without the form', () => {
    const error = { ...formPage, body: Buffer.from('<html><body>Service Unavailable</body></html>') };
    assert.throws(() => source.follow!(error, { from: '2026-03-02', to: '2026-03-06' }, { base }), /not the exchange-rate form/);
  });

  test('round trip through the local feed server: GET the form, then post it back', async () => {
    const body = readFileSync(new URL(FILE, DIR));
    const server = await startFeedServer((_path, req) =>
      req.method === 'GET'
        ? { body: FORM_PAGE, contentType: 'text/html; charset=utf-8', headers: { 'set-cookie': 'ASP.NET_SessionId=xyz; path=/; HttpOnly' } }
        : new URLSearchParams(req.body).get('__EVENTVALIDATION') && req.headers.cookie === 'ASP.NET_SessionId=xyz'
          ? { body, contentType: 'text/csv; charset=utf-8' }
          : { status: 403, body: 'no session' },
    );
    try {
      const window = { from: '2026-03-02', to: '2026-03-06' };
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 1);
      assert.deepEqual(server.requests.map((r) => r.method), ['GET', 'POST']);
      assert.equal(new URLSearchParams(server.requests[1]!.body).get(`${FORM}FrequencyDropDownList`), 'D');
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILE));
    } finally {
      await server.close();
    }
  });
});
