// Bank of Tanzania. Recorded payload grade A (SOURCES-2.md): a complete recording with the server's
// own headers.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './tanz.js';
import { type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('TANZ');
const FILE = 'bot-previous_rates-2026-03-24_2026-03-28.html';

const parse = (body: string) => source.parse({ name: source.feedUrl, body: Buffer.from(body) }) as Observation[];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const at = (obs: Observation[], date: string, quote: string) => obs.find((x) => x.date === date && x.quote === quote)?.rate;

const CCY = 'AED AUD BIF BWP CAD CHF CNY DKK DZD EUR GBP HKD INR IQD IRR JPY KES KRW KWD MWK MYR NAD NGN NOK NZD PKR QAR RWF SAR SEK SGD TRY UGX USD XDR ZAR ZMW'.split(' ');

describe('TANZ recorded payload', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('24-28 March 2026: five days (weekend included) of 37 currencies, Mean column', () => {
    const obs = parseFile(FILE);
    assert.deepEqual([...new Set(obs.map((o) => o.date))], ['2026-03-28', '2026-03-27', '2026-03-26', '2026-03-25', '2026-03-24']);
    assert.equal(obs.length, 5 * 37);
    for (const date of ['2026-03-24', '2026-03-28']) assert.deepEqual(obs.filter((o) => o.date === date).map((o) => o.quote).sort(), CCY);
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'direct'));
    // Gold and the defunct labels are left out; SDR becomes XDR.
    for (const gone of ['GOLD', 'ATS', 'NLG', 'MZM', 'CUC', 'ZWD', 'SDR']) assert.ok(!obs.some((o) => o.quote === gone), gone);
    assert.equal(at(obs, '2026-03-28', 'AED'), '701.6571');
    assert.equal(at(obs, '2026-03-28', 'USD'), '2577.3971');
    assert.equal(at(obs, '2026-03-28', 'XDR'), '3504.7697');
    assert.equal(at(obs, '2026-03-28', 'JPY'), '16.1148');
    assert.equal(at(obs, '2026-03-28', 'IRR'), '0.002');
    assert.equal(at(obs, '2026-03-26', 'EUR'), '2979.081');
    assert.equal(at(obs, '2026-03-26', 'MWK'), '1.4687');
    assert.equal(at(obs, '2026-03-24', 'USD'), '2580.83');
    assert.equal(at(obs, '2026-03-24', 'KRW'), '1.7326');
  });
});

describe('TANZ edge cases', () => {
  const HEAD = '<th style="text-align:right">S/NO</th><th style="text-align:right">Currency</th><th style="text-align:right">Buying</th><th style="text-align:right">Selling</th><th style="text-align:right">Mean</th><th style="text-align:right">Transaction Date</th>';
  const row = (n: number, ccy: string, mean: string, date = '28-Mar-26') =>
    `<tr><td>${n}</td><td style="text-align:right">${ccy}</td><td style="text-align:right">1</td><td style="text-align:right">2</td><td style="text-align:right">${mean}</td><td style="text-align:right">${date}</td></tr>`;
  const page = (rows: string) =>
    `<!DOCTYPE html>\r\n<html><head><title>Bank of Tanzania </title></head><body><table class="table dataTable" id="table1"><thead><tr>${HEAD}</tr></thead><tbody>${rows}</tbody></table></body>\r\n</html>\r\n`;

  test('reads the Mean column, renames SDR and drops gold', () => {
    assert.deepEqual(parse(page(row(1, 'USD', '2577.3971') + row(2, 'SDR', '3504.7697', '31-Dec-99') + row(3, 'GOLD', '11409982.45'))), [
      { date: '2026-03-28', quote: 'USD', rate: '2577.3971', unit: 1, direction: 'direct' },
      { date: '1999-12-31', quote: 'XDR', rate: '3504.7697', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>Runtime Error</title></head><body><h2>Server Error in \'/\' Application.</h2></body></html>'), /has no rate table/);
  });

  test('rejects a truncated page', () => {
    const whole = page(row(1, 'USD', '2577.3971') + row(2, 'EUR', '2966.0686'));
    assert.throws(() => parse(whole.slice(0, whole.indexOf('EUR'))), /truncated/);
  });

  test('rejects an empty table', () => {
    assert.throws(() => parse(page('')), /holds no rates/);
    assert.throws(() => parse(page(row(1, 'GOLD', '11409982.45'))), /holds no rates/);
  });

  test('rejects rows and headers it cannot read', () => {
    assert.throws(() => parse(page(row(1, 'USD', '2,577.39'))), /USD mean on 2026-03-28: not a number/);
    assert.throws(() => parse(page(row(1, 'US DOLLAR', '2577.3971'))), /bad currency code/);
    assert.throws(() => parse(page(row(1, 'USD', '2577.3971', '2026-03-28'))), /bad transaction date/);
    assert.throws(() => parse(page(row(1, 'USD', '1')).replace('<th style="text-align:right">Mean</th>', '')), /columns are/);
  });

  test('accepts the previous-rates page only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.bot.go.tz/exchangerate/excrates'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('TANZ requests', () => {
  const base = 'http://127.0.0.1:1';
  const url = `${base}/ExchangeRate/previous_rates`;
  const TOKEN = 'UKpeENBCz_cNJj7nXTWNgrh2X-lgJkJn5tIbhwdkKWCZOqUlpsGBmUIKscyojoUg43A5ObOTCgu4aH4ZU3yeyHBMOGOqlXiNCkLjakOvNMI1';

  test('first the form page, to be followed', () => {
    assert.deepEqual(source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base, key: 'k' }), [{ url, follow: true }]);
  });

  // The recorded answer renders the same form as the page a GET returns, token included.
  test('follows the form with one post for the window, dates as mm/dd/yyyy, token and cookie kept', () => {
    const page = { name: url, url, body: readFileSync(new URL(FILE, DIR)), cookie: '__RequestVerificationToken=c1' };
    const requests = source.follow!(page, { from: '2026-03-02', to: '2026-03-06' }, { base });
    assert.deepEqual(requests, [
      {
        url,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', referer: url, cookie: '__RequestVerificationToken=c1' },
        body: `__RequestVerificationToken=${TOKEN}&dateFrom=03%2F02%2F2026&dateTo=03%2F06%2F2026`,
      },
    ]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url));
    assert.throws(() => source.follow!({ ...page, body: Buffer.from('<html><body><form action="/Home/Search"></form></body></html>') }, { from: '2026-03-02', to: '2026-03-06' }, { base }), /no previous-rates form/);
  });

  test('round trip through a local feed server: GET the form, then post it back', async () => {
    const body = readFileSync(new URL(FILE, DIR));
    const server = await startFeedServer((_path, req) =>
      req.method === 'GET'
        ? { body, contentType: 'text/html; charset=utf-8', headers: { 'set-cookie': '__RequestVerificationToken=c2; path=/; HttpOnly' } }
        : new URLSearchParams(req.body).get('__RequestVerificationToken') === TOKEN && req.headers.cookie === '__RequestVerificationToken=c2'
          ? { body, contentType: 'text/html; charset=utf-8' }
          : { status: 500, body: 'The required anti-forgery cookie is not present.' },
    );
    try {
      const payloads = await fetchSource(source, { from: '2026-03-24', to: '2026-03-28' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 1);
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILE));
      assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url}`), ['GET /ExchangeRate/previous_rates', 'POST /ExchangeRate/previous_rates']);
      assert.equal(new URLSearchParams(server.requests[1]!.body).get('dateFrom'), '03/24/2026');
    } finally {
      await server.close();
    }
  });
});
