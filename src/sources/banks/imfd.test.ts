import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './imfd.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('IMFD');
const REP = 'rms_mth-REP-2026-03.tsv';
const SDRCV = 'rms_mth-SDRCV-2026-03.tsv';
const FIVE = 'rms_five-2023-01-30.tsv';

const NAME = 'https://www.imf.org/external/np/fin/data/rms_mth.aspx?SelectDate=2026-03-31&reportType=REP&tsvflag=Y';
const parse = (body: string) => source.parse({ name: NAME, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const find = (obs: Observation[], date: string, quote: string) => obs.find((o) => o.date === date && o.quote === quote);
const rate = (obs: Observation[], date: string, quote: string) => find(obs, date, quote)?.rate;
const dates = (obs: Observation[]) => [...new Set(obs.map((o) => o.date))];

const MARCH = ['02', '03', '04', '05', '06', '09', '10', '11', '12', '13', '16', '17', '18', '19', '20', '23', '24', '25', '26', '27', '30', '31'].map((d) => `2026-03-${d}`);
const REP_CCY = 'AED AUD BND BRL BWP CAD CHF CLP CNY CZK DKK DZD EUR GBP ILS INR JPY KRW KWD MUR MXN MYR NOK NZD OMR PEN PHP PLN QAR SAR SEK SGD THB TTD UYU'.split(' ');
// The "(1)" rows: U.S. dollars per currency unit.
const USD_PER_UNIT = ['AUD', 'BWP', 'EUR', 'GBP', 'NZD'];

describe('IMFD recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FIVE, REP, SDRCV]);
  });

  test('REP March 2026: both blocks, 35 currencies against USD, "(1)" rows the other way', () => {
    const obs = parseFile(REP);
    assert.deepEqual(dates(obs).sort(), MARCH);
    assert.deepEqual([...new Set(obs.map((o) => o.quote))].sort(), REP_CCY);
    // 36 rows × 22 days less the USD row (1.000000, the base) and the NA cells.
    assert.equal(obs.length, 712);
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === (USD_PER_UNIT.includes(o.quote) ? 'direct' : 'indirect')));
    assert.deepEqual(find(obs, '2026-03-02', 'EUR'), { date: '2026-03-02', quote: 'EUR', rate: '1.169800', unit: 1, direction: 'direct' });
    assert.deepEqual(find(obs, '2026-03-02', 'JPY'), { date: '2026-03-02', quote: 'JPY', rate: '156.400000', unit: 1, direction: 'indirect' });
    assert.equal(rate(obs, '2026-03-02', 'CLP'), '871.410000');
    assert.equal(rate(obs, '2026-03-31', 'BWP'), '0.074500');
    assert.equal(rate(obs, '2026-03-31', 'GBP'), '1.319850');
    assert.equal(rate(obs, '2026-03-04', 'SEK'), '9.166880');
    // "1,435.400000": thousands separators dropped, digits kept.
    assert.equal(rate(obs, '2026-03-03', 'KRW'), '1435.400000');
    assert.equal(rate(obs, '2026-03-31', 'KRW'), '1513.400000');
    // NA cells are days without a figure.
    assert.equal(find(obs, '2026-03-02', 'KRW'), undefined);
    assert.equal(find(obs, '2026-03-20', 'JPY'), undefined);
    assert.deepEqual(obs.filter((o) => o.quote === 'OMR' && o.date > '2026-03-16').map((o) => `${o.date} ${o.rate}`), ['2026-03-31 0.384500']);
    assert.equal(find(obs, '2026-03-02', 'USD'), undefined);
  });

  test('SDRCV March 2026: only the U.S. dollar row, as SDRs per USD', () => {
    const obs = parseFile(SDRCV);
    assert.deepEqual(obs.map((o) => o.date), MARCH);
    assert.ok(obs.every((o) => o.quote === 'XDR' && o.unit === 1 && o.direction === 'indirect'));
    assert.equal(rate(obs, '2026-03-02', 'XDR'), '0.7296240000');
    assert.equal(rate(obs, '2026-03-16', 'XDR'), '0.7360310000');
    assert.equal(rate(obs, '2026-03-17', 'XDR'), '0.7351990000');
    assert.equal(rate(obs, '2026-03-31', 'XDR'), '0.7372510000');
  });

  test('rms_five: the SDR per USD of four days, the blank first column skipped', () => {
    const obs = parseFile(FIVE);
    assert.deepEqual(obs.map((o) => `${o.date} ${o.rate}`), ['2023-01-27 0.7401230000', '2023-01-26 0.7393400000', '2023-01-25 0.7409050000', '2023-01-24 0.7411370000']);
    assert.ok(obs.every((o) => o.quote === 'XDR' && o.unit === 1 && o.direction === 'indirect'));
  });
});

describe('IMFD edge cases', () => {
  const table = (rows: string[], title = 'Representative Exchange Rates for Selected Currencies for April 2026') =>
    [title, 'Currency\tApril 01, 2026\tApril 02, 2026', ...rows, '', 'Notes:', '', 'These representative exchange rates…'].join('\r\n');

  test('skips rows marked other than (1) and the per-SDR currencies, reads LF files too', () => {
    const obs = parse(table(['Euro(1)\t1.150000\tNA', 'Iranian rial\t42,000.000000\t42,000.000000', 'Libyan dinar(2)\t6.5\t6.5', 'Mexican peso\t18.003300\t']).replaceAll('\r\n', '\n'));
    assert.deepEqual(obs, [
      { date: '2026-04-01', quote: 'EUR', rate: '1.150000', unit: 1, direction: 'direct' },
      { date: '2026-04-01', quote: 'MXN', rate: '18.003300', unit: 1, direction: 'indirect' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html>\r\n<html><head><title>IMF -- Page Not Found</title></head><body>404</body></html>'), ParseError);
  });

  test('rejects truncated payloads, within a row and between rows', () => {
    const full = table(['Euro(1)\t1.150000\t1.151000', 'Japanese yen\t159.800000\t160.100000']);
    assert.throws(() => parse(full.slice(0, full.indexOf('\t160.1'))), /line 4 has 2 cells, its header 3/);
    // A cut inside the last figure or between rows leaves well-shaped rows: only the missing notes tell.
    assert.throws(() => parse(full.slice(0, full.indexOf('0.100000'))), /without its notes: truncated/);
    assert.throws(() => parse(full.slice(0, full.indexOf('Japanese'))), /without its notes: truncated/);
  });

  test('rejects an empty table and a table without a title', () => {
    assert.throws(() => parse(table([])), /holds no rates/);
    assert.throws(() => parse(table(['U.S. dollar\t1.000000\t1.000000']).replace(/^.*\r\n/, '')), /without a known report title/);
    assert.throws(() => parse(table(['Chinese yuan\tNA\tNA'], 'SDRs per Currency unit for April 2026')), /holds no rates/);
  });

  test('rejects unknown currency names, bad dates and bad figures', () => {
    assert.throws(() => parse(table(['Ruritanian crown\t1.0\t1.0'])), /unknown currency "Ruritanian crown"/);
    assert.throws(() => parse(table(['Euro(1)\t1.15\t1.16']).replace('April 02, 2026', '2026-04-02')), /not "Month DD, YYYY"/);
    assert.throws(() => parse(table(['Euro(1)\t1.15\t1,16'])), /bad figure "1,16"/);
  });

  test('accepts the TSV reports it reads, not the HTML pages or CVSDR', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts(NAME.replace('REP', 'SDRCV')));
    assert.ok(source.accepts('https://www.imf.org/external/np/fin/data/rms_five.aspx?tsvflag=Y'));
    assert.ok(!source.accepts(NAME.replace('&tsvflag=Y', '')));
    assert.ok(!source.accepts(NAME.replace('REP', 'CVSDR')));
    assert.ok(!source.accepts('SOURCE.md'));
  });

  test('builds a REP and an SDRCV request per month of the window', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [
      { url: 'http://127.0.0.1:1/rms_mth.aspx?SelectDate=2026-03-06&reportType=REP&tsvflag=Y' },
      { url: 'http://127.0.0.1:1/rms_mth.aspx?SelectDate=2026-03-06&reportType=SDRCV&tsvflag=Y' },
    ]);
    assert.ok(requests.every((r) => source.accepts(r.url)));
    const year = source.requests({ from: '2025-12-30', to: '2026-02-10' }, { base: 'http://127.0.0.1:1' }).map((r) => /SelectDate=([\d-]+)/.exec(r.url)?.[1]);
    assert.deepEqual(year, ['2025-12-31', '2025-12-31', '2026-01-31', '2026-01-31', '2026-02-10', '2026-02-10']);
  });
});

describe('IMFD round trip through the local feed server', () => {
  test('reads the served reports like the recorded files', async () => {
    const server = await startFeedServer((url) => {
      if (!url.startsWith('/rms_mth.aspx?')) return undefined;
      return { body: readFileSync(new URL(url.includes('reportType=SDRCV') ? SDRCV : REP, DIR)), contentType: 'application/vnd.ms-excel' };
    });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-01', to: '2026-03-31' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(server.requests.map((r) => r.url), ['/rms_mth.aspx?SelectDate=2026-03-31&reportType=REP&tsvflag=Y', '/rms_mth.aspx?SelectDate=2026-03-31&reportType=SDRCV&tsvflag=Y']);
      assert.deepEqual(source.parse(payloads[0]!), parseFile(REP));
      assert.deepEqual(source.parse(payloads[1]!), parseFile(SDRCV));
    } finally {
      await server.close();
    }
  });
});
