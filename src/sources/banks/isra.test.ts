import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fixtureDir } from '../../../test/support/fixtures.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { source } from './isra.js';

const DIR = fixtureDir('ISRA');
// The recorded payloads (SOURCE.md describes them and is not one).
const FILES = [
  'currency-latest-2014-05-30.xml',
  'currency-rdate-20140506-holiday-error.xml',
  'currency-rdate-20140530.xml',
];
// Hand-written, format-faithful answers of the two current feeds (neither was recorded), holding the
// figures of the recorded 2014-05-30 file: the SDMX CSV (a BOM, CRLF) and GetExchangeRates' JSON.
const TESTDATA = new URL('./testdata/', import.meta.url);
const SDMX_CSV = readFileSync(new URL('ISRA-EXR.csv', TESTDATA));
const PUBLIC_API = readFileSync(new URL('ISRA-GetExchangeRates.json', TESTDATA));
const SDMX_PATH = '/FusionEdgeServer/sdmx/v2/data/dataflow/BOI.STATISTICS/EXR/1.0/';

const parse = (body: string | Buffer, name = 'currency.xml') => source.parse({ name, body: Buffer.from(body) });
const parseFile = (name: string): Observation[] => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
/** "rate/unit" of one currency, so one assertion covers both. */
const quoted = (obs: Observation[], quote: string) => {
  const o = obs.find((x) => x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};
const CCY = 'AUD CAD CHF DKK EGP EUR GBP JOD JPY LBP NOK SEK USD ZAR'.split(' ');

describe('ISRA recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const names = readdirSync(DIR).sort();
    assert.deepEqual(names.filter((f) => source.accepts(f)), FILES);
  });

  test('rdate=20140530: 14 currencies on Friday 2014-05-30, ILS per UNIT, JPY per 100 and LBP per 10', () => {
    const obs = parseFile('currency-rdate-20140530.xml');
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY);
    assert.ok(obs.every((o) => o.date === '2014-05-30' && o.direction === 'direct'));
    assert.equal(quoted(obs, 'USD'), '3.475/1');
    assert.equal(quoted(obs, 'EUR'), '4.7283/1');
    assert.equal(quoted(obs, 'GBP'), '5.8158/1');
    assert.equal(quoted(obs, 'JPY'), '3.4188/100');
    // The published trailing zero stays.
    assert.equal(quoted(obs, 'LBP'), '0.0230/10');
    assert.equal(quoted(obs, 'SEK'), '0.5210/1');
    assert.equal(quoted(obs, 'EGP'), '0.4860/1');
    assert.equal(quoted(obs, 'JOD'), '4.9046/1');
  });

  test('the undated currency.xml (no BOM) reads as the rdate= answer of the same day', () => {
    assert.deepEqual(parseFile('currency-latest-2014-05-30.xml'), parseFile('currency-rdate-20140530.xml'));
  });

  test('the holiday answer (HTTP 200, an error document for Independence Day) is no publication', () => {
    assert.throws(() => parseFile('currency-rdate-20140506-holiday-error.xml'), (err: unknown) => err instanceof NoPublication && /20140506/.test(err.message) && /No exchange rate published/.test(err.message));
  });
});

describe('ISRA current feeds (format-faithful, not recorded)', () => {
  test('the SDMX CSV: UNIT_MULT is a power of ten, the BOM and CRLF are no part of a value', () => {
    const obs = parse(SDMX_CSV, `https://edge.boi.gov.il${SDMX_PATH}?c[DATA_TYPE]=OF00&startperiod=2014-05-30&endperiod=2014-05-30&format=csv`);
    assert.deepEqual(obs, parseFile('currency-rdate-20140530.xml'));
  });

  test('GetExchangeRates JSON keeps the published digits and dates each rate by its lastUpdate', () => {
    const obs = parse(PUBLIC_API, 'https://boi.org.il/PublicApi/GetExchangeRates');
    assert.deepEqual(obs, parseFile('currency-rdate-20140530.xml'));
  });

  test('SDMX rows of other series are left out; a header alone is no publication', () => {
    const header = SDMX_CSV.toString('utf8').split('\r\n')[0]!;
    const index = 'NER_ILS_BSK_IDX,D,ILS,BSK,IDX,OF00,BOI_MRKT,V,F,Y,0,"Effective rate, index",2014-05-30,99.12,YP';
    const usd = 'RER_USD_ILS,D,USD,ILS,ILS,OF00,BOI_MRKT,V,F,Y,0,,2014-05-29,3.4760,YP';
    assert.deepEqual(parse([header, index, usd].join('\r\n'), 'EXR/1.0/x?format=csv'), [{ date: '2014-05-29', quote: 'USD', rate: '3.4760', unit: 1, direction: 'direct' }]);
    assert.throws(() => parse(`${header}\r\n`, 'EXR/1.0/x?format=csv'), NoPublication);
  });

  test('rejects an SDMX answer that is not the series', () => {
    const header = SDMX_CSV.toString('utf8').split('\r\n')[0]!;
    assert.throws(() => parse('TIME_PERIOD,OBS_VALUE\n2014-05-30,3.475\n'), /no SERIES_CODE column/);
    assert.throws(() => parse(`${header}\nRER_USD_ILS,D,USD,EUR,ILS,OF00,BOI_MRKT,V,F,Y,0,,2014-05-30,3.475,YP`), /quoted in "EUR", not ILS/);
    assert.throws(() => parse(`${header}\nRER_JPY_ILS,D,JPY,ILS,ILS,OF00,BOI_MRKT,V,F,Y,x,,2014-05-30,3.4188,YP`), /bad UNIT_MULT/);
    assert.throws(() => parse(`${header}\nRER_USD_ILS,D,USD,ILS,ILS,OF00,BOI_MRKT,V,F,Y,0,,30/05/2014,3.475,YP`), /bad TIME_PERIOD/);
    assert.throws(() => parse(`${header}\nRER_USD_ILS,D,USD,ILS,ILS,OF00,BOI_MRKT,V,F,Y,0,,2014-05-30,NaN,YP`), /bad USD OBS_VALUE/);
  });

  test('rejects a GetExchangeRates refusal and a rate without its unit or date', () => {
    assert.throws(() => parse('{"succeeded":false,"failException":null,"title":null,"message":"There is no such exchange rate"}'), /no exchangeRates/);
    assert.throws(() => parse('{"exchangeRates":[{"key":"USD","currentExchangeRate":3.475,"lastUpdate":"2014-05-30T10:22:41Z"}]}'), /bad USD unit/);
    assert.throws(() => parse('{"exchangeRates":[{"key":"USD","currentExchangeRate":3.475,"unit":1}]}'), /bad USD lastUpdate/);
  });
});

describe('ISRA edge cases', () => {
  const DAY = '<?xml version="1.0" encoding="utf-8" standalone="yes"?><CURRENCIES><LAST_UPDATE>2014-05-30</LAST_UPDATE>' +
    '<CURRENCY><NAME>Yen</NAME><UNIT>100</UNIT><CURRENCYCODE>JPY</CURRENCYCODE><COUNTRY>Japan</COUNTRY><RATE>3.4188</RATE><CHANGE>-0.114</CHANGE></CURRENCY></CURRENCIES>';

  test('one CURRENCY alone is read, its CHANGE (a percentage) is not', () => {
    assert.deepEqual(parse(DAY), [{ date: '2014-05-30', quote: 'JPY', rate: '3.4188', unit: 100, direction: 'direct' }]);
  });

  test('an HTML error page is a ParseError', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><body>Service unavailable</body></html>'), ParseError);
  });

  test('rejects a truncated payload, an empty table and bad rows', () => {
    assert.throws(() => parse(DAY.slice(0, -40)), /not well-formed XML/);
    assert.throws(() => parse('<CURRENCIES><LAST_UPDATE>2014-05-30</LAST_UPDATE></CURRENCIES>'), /holds no rates/);
    assert.throws(() => parse(DAY.replace('<UNIT>100</UNIT>', '<UNIT>0</UNIT>')), /bad JPY UNIT/);
    assert.throws(() => parse(DAY.replace('3.4188', '3,41,88')), /bad JPY RATE/);
    assert.throws(() => parse(DAY.replace('2014-05-30', '30/05/2014')), /bad LAST_UPDATE/);
  });
});

describe('ISRA requests', () => {
  test('one SDMX request for the whole window, every representative rate, 404 meaning no publication', () => {
    const requests = source.requests({ from: '2014-01-01', to: '2014-12-31' }, { base: 'http://127.0.0.1:1' });
    assert.deepEqual(requests, [{ url: `http://127.0.0.1:1${SDMX_PATH}?c[DATA_TYPE]=OF00&startperiod=2014-01-01&endperiod=2014-12-31&format=csv`, optional: true }]);
    assert.ok(source.accepts(requests[0]!.url));
    assert.ok(source.accepts('https://boi.org.il/PublicApi/GetExchangeRates'));
    assert.ok(source.accepts('http://www.bankisrael.gov.il/currency.xml?rdate=20140530'));
    assert.ok(!source.accepts('https://boi.org.il/PublicApi/GetExchangeRates?asXml=true'));
    assert.ok(!source.accepts('SOURCE.md'));
  });

  test('round trip through the local feed server: the window\'s rates, and a holiday window\'s 404 skipped', async () => {
    const server = await startFeedServer((path) => (path.includes('startperiod=2014-05-30') ? { body: SDMX_CSV, contentType: 'text/csv' } : undefined));
    try {
      const http = createHttpClient({ retries: 0 });
      const payloads = await fetchSource(source, { from: '2014-05-30', to: '2014-05-30' }, { base: server.url }, http);
      assert.deepEqual(server.requests.map((r) => r.url), [`${SDMX_PATH}?c[DATA_TYPE]=OF00&startperiod=2014-05-30&endperiod=2014-05-30&format=csv`]);
      assert.equal(payloads.length, 1);
      assert.deepEqual(source.parse(payloads[0]!), parseFile('currency-rdate-20140530.xml'));
      assert.deepEqual(await fetchSource(source, { from: '2014-05-06', to: '2014-05-06' }, { base: server.url }, http), []);
    } finally {
      await server.close();
    }
  });
});
