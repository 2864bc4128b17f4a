// Grade A (SOURCES-2.md): a complete VCR recording of the last fixings of the Deutsche Mark.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './mark.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('MARK');
const FILE = 'bbk-BBEX3-D..DEM.AA.AC.000-1998-12-21_1998-12-30.csv';

const parse = (body: string) => source.parse({ name: 'data/BBEX3/D..DEM.AA.AC.000?format=sdmx_csv', body: Buffer.from(body) }) as Observation[];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const perUnit = (obs: Observation[], date: string, quote: string) => {
  const o = obs.find((x) => x.date === date && x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};

const CURRENCIES = 'ATS BEF CAD CHF DKK ESP FIM FRF GBP IEP ITL JPY LUF NLG NOK PTE SEK USD'.split(' ');

describe('MARK recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('21–30 Dec 1998: six fixing days of 18 currencies, units from the titles', () => {
    const obs = parseFile(FILE);
    // 24–27 December carry "." (no fixing) and are left out.
    assert.deepEqual([...new Set(obs.map((o) => o.date))], ['1998-12-21', '1998-12-22', '1998-12-23', '1998-12-28', '1998-12-29', '1998-12-30']);
    assert.equal(obs.length, 6 * 18);
    assert.deepEqual([...new Set(obs.map((o) => o.quote))].sort(), CURRENCIES);
    assert.ok(obs.every((o) => o.direction === 'direct'));
    assert.deepEqual(
      Object.fromEntries(CURRENCIES.map((q) => [q, obs.find((o) => o.quote === q)!.unit])),
      { ATS: 100, BEF: 100, CAD: 1, CHF: 100, DKK: 100, ESP: 100, FIM: 100, FRF: 100, GBP: 1, IEP: 1, ITL: 1000, JPY: 100, LUF: 100, NLG: 100, NOK: 100, PTE: 100, SEK: 100, USD: 1 },
    );
    assert.equal(perUnit(obs, '1998-12-21', 'ATS'), '14.214/100');
    assert.equal(perUnit(obs, '1998-12-21', 'BEF'), '4.8482/100');
    assert.equal(perUnit(obs, '1998-12-29', 'BEF'), '4.8480/100');
    assert.equal(perUnit(obs, '1998-12-21', 'CAD'), '1.0740/1');
    assert.equal(perUnit(obs, '1998-12-30', 'ITL'), '1.0100/1000');
    assert.equal(perUnit(obs, '1998-12-30', 'JPY'), '1.4505/100');
    assert.equal(perUnit(obs, '1998-12-30', 'USD'), '1.6730/1');
    assert.equal(perUnit(obs, '1998-12-30', 'GBP'), '2.7980/1');
    assert.equal(perUnit(obs, '1998-12-21', 'SEK'), '20.800/100');
    assert.equal(perUnit(obs, '1998-12-30', 'PTE'), '0.9753/100');
    assert.equal(perUnit(obs, '1998-12-29', 'ESP'), '1.1755/100');
  });

  test('is historical, and still requests the window and reads what a feed server sends back', async () => {
    assert.equal(source.discontinued, '1998-12-31');
    assert.equal(source.attribution, 'Quelle: Deutsche Bundesbank');
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    const path = '/data/BBEX3/D..DEM.AA.AC.000?format=sdmx_csv&startPeriod=2026-03-02&endPeriod=2026-03-06';
    assert.deepEqual(requests, [{ url: `http://127.0.0.1:1${path}` }]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const server = await startFeedServer({ [path]: { body: readFileSync(new URL(FILE, DIR)) } });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p) as Observation[]), parseFile(FILE));
      assert.deepEqual(server.requests.map((r) => r.url), [path]);
    } finally {
      await server.close();
    }
  });
});

describe('MARK edge cases', () => {
  const HEADER =
    '\uFEFFDATAFLOW;BBK_STD_FREQ;BBK_STD_CURRENCY;BBK_ERX_PARTNER_CURRENCY;BBK_ERX_SERIES_TYPE;BBK_ERX_RATE_TYPE;BBK_ERX_SUFFIX;TIME_PERIOD;OBS_VALUE;TIME_FORMAT;BBK_DECIMALS;BBK_ID;BBK_UNIT;BBK_UNIT_MULT;BBK_TITLE;WEB_CATEGORY;BBK_COMM_GEN;BBK_DIFF;OBS_STATUS\r\n';
  const ROW = (date: string, value: string, title = '1 000 ITL = ... DEM', status = '') =>
    `BBK:BBEX3(1.0);D;ITL;DEM;AA;AC;000;${date};${value};P1D;4;BBEX3.D.ITL.DEM.AA.AC.000;DEM;0;Devisenkurse der Frankfurter Börse / ${title} / Italien;WEDE;Amtliche Notierung.;0.0;${status}\r\n`;

  test('reads a row, its unit from the title', () => {
    assert.deepEqual(parse(HEADER + ROW('1998-12-30', '1.0100')), [{ date: '1998-12-30', quote: 'ITL', rate: '1.0100', unit: 1000, direction: 'direct' }]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><body><h1>404 Not Found</h1></body></html>'), /not an SDMX-CSV header/);
  });

  test('rejects a truncated file', () => {
    const full = HEADER + ROW('1998-12-29', '1.0100') + ROW('1998-12-30', '1.0100');
    assert.throws(() => parse(full.slice(0, full.lastIndexOf('P1D'))), /line 3 has 10 fields, expected 19/);
  });

  test('rejects an empty table; a period without fixings is no publication', () => {
    assert.throws(() => parse(HEADER), /holds no rows/);
    assert.throws(() => parse(HEADER + ROW('1998-12-25', '.', undefined, 'K')), NoPublication);
  });

  test('rejects a title without the unit or for another currency', () => {
    assert.throws(() => parse(HEADER + ROW('1998-12-30', '1.0100', 'ITL in DEM')), /no "N ITL = \.\.\. DEM" in the title/);
    assert.throws(() => parse(HEADER + ROW('1998-12-30', '1.0100', '100 ESP = ... DEM')), ParseError);
  });

  test('accepts the DEM fixing series only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://api.statistiken.bundesbank.de/rest/data/BBEX3/D.USD.EUR.BB.AC.000?format=sdmx_csv'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
