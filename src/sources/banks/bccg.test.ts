import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fixtureDir } from '../../../test/support/fixtures.js';
import { planBackfill } from '../../ingest/backfill.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { source } from './bccg.js';

const DIR = fixtureDir('BCCG');
// The recorded payloads (SOURCE.md describes them and is not one).
const FILES = [
  'cours-de-change-2026-09-02.html',
  'cours-de-change-rsc.txt',
];
const RSC = readFileSync(new URL('cours-de-change-rsc.txt', DIR));
const PAGE = readFileSync(new URL('cours-de-change-2026-09-02.html', DIR));
const PATH = '/marche-des-changes/cours-de-change';
const BASKET = 'AED AOA AUD BIF CAD CHF CNY EUR GBP INR JPY KWD RWF SAR TZS UGX USD XAF XDR ZAR ZMW'.split(' ');

const parse = (body: string | Buffer, name = 'https://www.bcc.cd/marche-des-changes/cours-de-change') => source.parse({ name, body: Buffer.from(body) });
const rateOf = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote)?.rate;
const entry = (date: string, average: string) => `{"date":"${date}","buy":2212.52,"average":${average},"sell":2314.62,"unit":1}`;
const page = (rows: string) => `<!DOCTYPE html><html lang="fr"><body><article><dl>${rows}</dl></article></body></html>`;

describe('BCCG recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const names = readdirSync(DIR).sort();
    assert.deepEqual(names.filter((f) => source.accepts(f)), FILES);
  });

  test('the RSC stream: 21 currencies on 2026-09-01..04, the average (the reference), CDF per unit, digits as published', () => {
    const obs = parse(RSC, 'cours-de-change-rsc.txt');
    assert.equal(obs.length, 84);
    assert.deepEqual([...new Set(obs.map((o) => o.quote))].sort(), BASKET);
    assert.deepEqual([...new Set(obs.map((o) => o.date))].sort(), ['2026-09-01', '2026-09-02', '2026-09-03', '2026-09-04']);
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'direct'));
    assert.equal(rateOf(obs, '2026-09-01', 'USD'), '2263.57');
    // JSON numbers without fixed decimals, kept as written: 2264, 2795.3, 4.
    assert.equal(rateOf(obs, '2026-09-02', 'USD'), '2264');
    assert.equal(rateOf(obs, '2026-09-02', 'CHF'), '2795.3');
    assert.equal(rateOf(obs, '2026-09-04', 'XAF'), '4');
    assert.equal(rateOf(obs, '2026-09-01', 'EUR'), '2625.44');
    assert.equal(rateOf(obs, '2026-09-03', 'KWD'), '7319.82');
    assert.equal(rateOf(obs, '2026-09-01', 'BIF'), '0.75');
    assert.equal(rateOf(obs, '2026-09-04', 'UGX'), '0.6');
    assert.equal(rateOf(obs, '2026-09-04', 'XDR'), '3094.74');
  });

  test('the dated page of 2026-09-02 (no date in it: its name gives it) shows the stream\'s averages of that day', () => {
    const obs = parse(PAGE, 'cours-de-change-2026-09-02.html');
    assert.deepEqual(obs.map((o) => `${o.quote} ${o.rate}`), ['USD 2264', 'EUR 2626.12', 'GBP 3064.55', 'CHF 2795.3', 'ZAR 140.39', 'CNY 336.94', 'JPY 14.15', 'CAD 1632.51', 'AUD 1620.52', 'XAF 4']);
    assert.ok(obs.every((o) => o.date === '2026-09-02' && o.unit === 1 && o.direction === 'direct'));
    const stream = parse(RSC, 'cours-de-change-rsc.txt').filter((o) => o.date === '2026-09-02');
    for (const o of obs) assert.equal(rateOf(stream, '2026-09-02', o.quote), o.rate, o.quote);
    // Live, the date is in the URL.
    assert.deepEqual(parse(PAGE, `https://www.bcc.cd${PATH}/2026-09-02`), obs);
  });
});

describe('BCCG edge cases', () => {
  test('an HTML error page, a truncated page or stream, and a stream without the history are ParseErrors', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><body>Service unavailable</body></html>'), ParseError);
    assert.throws(() => parse(PAGE.subarray(0, PAGE.length >> 1), 'cours-de-change-2026-09-02.html'), /truncated/);
    // An error page sent with HTTP 200 in place of a dated page is not "no rates that day".
    assert.throws(() => parse('<!DOCTYPE html><html><body><h1>Service Unavailable</h1></body></html>', 'cours-de-change-2026-09-02.html'), /is not a rates page/);
    assert.throws(() => parse(RSC.subarray(0, RSC.length >> 1)), /is not JSON/);
    assert.throws(() => parse('0:["$","div",null,{"content":{}}]\n'), /holds no rate history/);
  });

  test('the stream\'s other rows are passed over; the history read once; two averages for one day fail', () => {
    const stream = (history: string) => `1:I["(app)/page","default"]\n2:T1a,some text\n0:["$","div",null,{"content":{"history":${history}},"chart":{"history":${history}}}]\n`;
    assert.deepEqual(parse(stream(`{"USD":[${entry('2026-09-01', '2263.50')}]}`)), [{ date: '2026-09-01', quote: 'USD', rate: '2263.50', unit: 1, direction: 'direct' }]);
    const other = `0:["$","div",null,{"content":{"history":{"USD":[${entry('2026-09-01', '2263.57')}]}},"chart":{"history":{"USD":[${entry('2026-09-01', '2264')}]}}}]\n`;
    assert.throws(() => parse(other), /USD on 2026-09-01: two averages, 2263.57 and 2264/);
    assert.throws(() => parse(stream(`{"USD":[${entry('2026-09-01', '"n/a"')}]}`)), /USD average on 2026-09-01/);
    assert.throws(() => parse(stream(`{"USD":[{"buy":1,"average":2,"sell":3,"unit":1}]}`)), /USD: a history entry without its date/);
  });

  test('a dated page: older figures `2 263,0000`; a page without rows is no publication', () => {
    const older = page('<div><dt>USD (cours moyen)</dt><dd>2 263,0000</dd></div><div><dt>EUR (cours moyen)</dt><dd>2 625,4400</dd></div>');
    assert.deepEqual(parse(older, `https://www.bcc.cd${PATH}/2024-03-05`).map((o) => `${o.date} ${o.quote} ${o.rate}`), ['2024-03-05 USD 2263.0000', '2024-03-05 EUR 2625.4400']);
    assert.throws(() => parse(page(''), `https://www.bcc.cd${PATH}/2020-10-12`), NoPublication);
    assert.throws(() => parse(page('<div><dt>USD (cours moyen)</dt><dd>—</dd></div>'), `https://www.bcc.cd${PATH}/2024-03-05`), /USD on 2024-03-05: not a number/);
    assert.throws(() => parse(PAGE, `https://www.bcc.cd${PATH}/2024-02-30`), /bad date/);
  });
});

describe('BCCG requests', () => {
  const ctx = { base: 'http://127.0.0.1:1' };

  test('a recent window: the stream alone, with RSC: 1', () => {
    const requests = source.requests({ from: '2026-09-01', to: '2026-09-09' }, ctx);
    assert.deepEqual(requests, [{ url: `http://127.0.0.1:1${PATH}`, headers: { rsc: '1' } }]);
    assert.ok(source.accepts(requests[0]!.url));
    assert.ok(!source.accepts('SOURCE.md'));
  });

  test('history before September 2025: a dated page a weekday, 404 meaning no fixing; backfill asks day by day', () => {
    const requests = source.requests({ from: '2025-08-27', to: '2025-09-03' }, ctx);
    assert.deepEqual(requests.map((r) => r.url), [`http://127.0.0.1:1${PATH}`, ...['2025-08-27', '2025-08-28', '2025-08-29'].map((d) => `http://127.0.0.1:1${PATH}/${d}`)]);
    assert.ok(requests.slice(1).every((r) => r.optional === true && source.accepts(r.url)));
    // Nothing before the first dated page.
    assert.deepEqual(source.requests({ from: '2020-10-01', to: '2020-10-13' }, ctx).map((r) => r.url), [`http://127.0.0.1:1${PATH}/2020-10-12`, `http://127.0.0.1:1${PATH}/2020-10-13`]);
    const { plans } = planBackfill([source], { from: '2024-01-01', to: '2024-12-31' }, { sourceUrls: { BCCG: ctx.base }, sourceKeys: {} });
    assert.deepEqual(plans.map((p) => [p.requests, p.perDay, p.windows.length]), [[262, true, 12]]);
  });

  test('round trip through the local feed server: the stream asked with RSC: 1, a dated page, a 404 day skipped', async () => {
    const server = await startFeedServer((url, req) => {
      if (url === PATH) return req.headers.rsc === '1' ? { body: RSC, contentType: 'text/x-component' } : { body: '<!DOCTYPE html><html><body>app shell</body></html>', contentType: 'text/html' };
      if (url === `${PATH}/2025-08-29`) return { body: PAGE, contentType: 'text/html; charset=utf-8' };
      return undefined;
    });
    try {
      const payloads = await fetchSource(source, { from: '2025-08-28', to: '2025-09-01' }, { base: server.url }, createHttpClient({ retries: 0 }));
      assert.deepEqual(server.requests.map((r) => r.url), [PATH, `${PATH}/2025-08-28`, `${PATH}/2025-08-29`]);
      assert.equal(payloads.length, 2);
      assert.deepEqual(source.parse(payloads[0]!), parse(RSC, 'cours-de-change-rsc.txt'));
      assert.deepEqual(source.parse(payloads[1]!).map((o) => `${o.date} ${o.quote} ${o.rate}`).slice(0, 2), ['2025-08-29 USD 2264', '2025-08-29 EUR 2626.12']);
    } finally {
      await server.close();
    }
  });
});
