import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './tcmb.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('TCMB');
const EVDS = 'evds-TP.DK-buy-sell-2026-03-01_2026-03-22.json';
const TODAY_2015 = 'kurlar-today-2015-12-04.xml';

const parse = (body: string | Buffer, name = 'https://www.tcmb.gov.tr/kurlar/today.xml') => source.parse({ name, body: Buffer.isBuffer(body) ? body : Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const quoted = (obs: Observation[], date: string, quote: string) => {
  const o = obs.find((x) => x.date === date && x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};

const EVDS_CCY = 'AED AUD AZN CAD CHF CNY DKK EUR GBP JPY KRW KWD KZT NOK PKR QAR RON RUB SAR SEK USD'.split(' ');
const XML_2015_CCY = 'AUD BGN CAD CHF CNY DKK EUR GBP IRR JPY KWD NOK PKR RON RUB SAR SEK USD'.split(' ');

describe('TCMB recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [EVDS, TODAY_2015]);
  });

  test('EVDS 1-22 March 2026: 14 publication days of 21 mids, weekends and the Bayram left out', () => {
    const obs = parseFile(EVDS);
    const days = [...new Set(obs.map((o) => o.date))];
    // 1, 7-8, 14-15 and 20-22 March are all-null items (weekends, Ramazan Bayramı).
    assert.deepEqual(days, ['02', '03', '04', '05', '06', '09', '10', '11', '12', '13', '16', '17', '18', '19'].map((d) => `2026-03-${d}`));
    assert.equal(obs.length, 14 * 21);
    for (const date of days) assert.deepEqual(obs.filter((o) => o.date === date).map((o) => o.quote).sort(), EVDS_CCY);
    assert.ok(obs.every((o) => o.direction === 'direct'));
    // The yen is per 100 although EVDS does not say so; everything else per 1.
    assert.ok(obs.every((o) => o.unit === (o.quote === 'JPY' ? 100 : 1)));
    // Mids of the published pairs, worked by hand: buying 43.80000000, selling 43.87890000.
    assert.equal(quoted(obs, '2026-03-02', 'USD'), '43.83945/1');
    // 51.70080000 / 51.79390000
    assert.equal(quoted(obs, '2026-03-02', 'EUR'), '51.74735/1');
    // 58.94300000 / 59.25030000
    assert.equal(quoted(obs, '2026-03-02', 'GBP'), '59.09665/1');
    // 28.00720000 / 28.19270000, per 100 yen
    assert.equal(quoted(obs, '2026-03-02', 'JPY'), '28.09995/100');
    // 0.03025000 / 0.03064000
    assert.equal(quoted(obs, '2026-03-02', 'KRW'), '0.030445/1');
    // 142.56790000 / 144.43340000
    assert.equal(quoted(obs, '2026-03-02', 'KWD'), '143.50065/1');
    // 44.13250000 / 44.21200000, 50.91930000 / 51.01110000, 27.70830000 / 27.89180000
    assert.equal(quoted(obs, '2026-03-19', 'USD'), '44.17225/1');
    assert.equal(quoted(obs, '2026-03-19', 'EUR'), '50.9652/1');
    assert.equal(quoted(obs, '2026-03-19', 'JPY'), '27.80005/100');
  });

  test('today.xml of 4 December 2015, ISO-8859-9: 18 mids, JPY and IRR per 100', () => {
    const obs = parseFile(TODAY_2015);
    assert.deepEqual([...new Set(obs.map((o) => o.date))], ['2015-12-04']);
    assert.deepEqual(obs.map((o) => o.quote).sort(), XML_2015_CCY);
    assert.ok(obs.every((o) => o.direction === 'direct'));
    assert.deepEqual(obs.filter((o) => o.unit !== 1).map((o) => `${o.quote}/${o.unit}`).sort(), ['IRR/100', 'JPY/100']);
    // ForexBuying 2.8921, ForexSelling 2.8973
    assert.equal(quoted(obs, '2015-12-04', 'USD'), '2.8947/1');
    // 3.1464 / 3.152
    assert.equal(quoted(obs, '2015-12-04', 'EUR'), '3.1492/1');
    // 4.3632 / 4.3859
    assert.equal(quoted(obs, '2015-12-04', 'GBP'), '4.37455/1');
    // 2.3488 / 2.3644 per 100 yen
    assert.equal(quoted(obs, '2015-12-04', 'JPY'), '2.3566/100');
    // 0.00956 / 0.00968 per 100 rials
    assert.equal(quoted(obs, '2015-12-04', 'IRR'), '0.00962/100');
    // 0.42113 / 0.4232
    assert.equal(quoted(obs, '2015-12-04', 'DKK'), '0.422165/1');
    // 0.02729 / 0.02765
    assert.equal(quoted(obs, '2015-12-04', 'PKR'), '0.02747/1');
  });
});

describe('TCMB edge cases', () => {
  const currency = (code: string, unit: string, buying: string, selling: string) =>
    `<Currency CrossOrder="0" Kod="${code}" CurrencyCode="${code}"><Unit>${unit}</Unit><Isim>İSİM</Isim><CurrencyName>NAME</CurrencyName><ForexBuying>${buying}</ForexBuying><ForexSelling>${selling}</ForexSelling><BanknoteBuying/><BanknoteSelling/><CrossRateUSD/><CrossRateOther/></Currency>`;
  const bulletin = (currencies: string, tarih = '06.03.2026', date = '03/06/2026') =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<?xml-stylesheet type="text/xsl" href="isokur.xsl"?>\n<Tarih_Date Tarih="${tarih}" Date="${date}" Bulten_No="2026/46">${currencies}</Tarih_Date>`;
  const TODAY = bulletin(currency('USD', '1', '43.9135', '43.9926') + currency('XDR', '1', '60.1234', ''));
  const evds = (items: string) => `{"totalCount":1,"items":[${items}]}`;
  const item = (tarih: string, usdA: string, usdS: string) =>
    `{"Tarih":"${tarih}","TP_DK_USD_A_YTL":${usdA},"TP_DK_USD_S_YTL":${usdS},"UNIXTIME":{"$numberLong":"1772744400"}}`;
  const EVDS_NAME = 'https://evds3.tcmb.gov.tr/igmevdsms-dis/series=TP.DK.USD.A.YTL-TP.DK.USD.S.YTL&startDate=06-03-2026&endDate=06-03-2026&type=json&frequency=1';

  test('UTF-8 today.xml: the mid of each pair, XDR (buying only) left out', () => {
    assert.deepEqual(parse(TODAY), [{ date: '2026-03-06', quote: 'USD', rate: '43.95305', unit: 1, direction: 'direct' }]);
    const latin = Buffer.from(TODAY.replace('UTF-8', 'ISO-8859-9').replace('İSİM', 'ISIM'), 'latin1');
    assert.equal(parse(latin)[0]!.rate, '43.95305');
  });

  test('rejects an HTML error page', () => {
    const html = '<!DOCTYPE html><html><head><title>404 Not Found</title></head><body>Sayfa bulunamadı</body></html>';
    assert.throws(() => parse(html), ParseError);
    assert.throws(() => parse(html, EVDS_NAME), ParseError);
  });

  test('rejects truncated payloads', () => {
    assert.throws(() => parse(TODAY.slice(0, TODAY.indexOf('<ForexSelling>'))), /malformed XML/);
    const json = evds(item('06-03-2026', '"43.91350000"', '"43.99260000"'));
    assert.throws(() => parse(json.slice(0, -20), EVDS_NAME), /not JSON/);
  });

  test('rejects empty tables: no currencies, or only holiday items', () => {
    assert.throws(() => parse(bulletin('')), /no currencies/);
    assert.throws(() => parse(evds(item('07-03-2026', 'null', 'null')), EVDS_NAME), /holds no rates/);
    assert.throws(() => parse('{"totalCount":0,"items":[]}', EVDS_NAME), /holds no rates/);
    assert.throws(() => parse('{"message":"Forbidden"}', EVDS_NAME), /no items array/);
  });

  test('a window of only weekend/holiday items is no publication; no items at all is a fault', () => {
    assert.throws(() => parse(evds(`${item('07-03-2026', 'null', 'null')},${item('08-03-2026', 'null', 'null')}`), EVDS_NAME), NoPublication);
    assert.throws(() => parse('{"totalCount":0,"items":[]}', EVDS_NAME), (err) => err instanceof ParseError && !(err instanceof NoPublication));
    assert.throws(() => parse(bulletin('')), (err) => err instanceof ParseError && !(err instanceof NoPublication));
  });

  test('rejects bad figures and dates', () => {
    assert.throws(() => parse(bulletin(currency('USD', '1', '43,91,35', '43.9926'))), /bad USD buying\/selling/);
    assert.throws(() => parse(bulletin(currency('USD', 'bir', '43.9135', '43.9926'))), /bad USD Unit/);
    assert.throws(() => parse(bulletin(currency('USD', '1', '43.9135', '43.9926'), '06.03.2026', '06/03/2026')), /disagree/);
    assert.throws(() => parse(evds(item('2026-03-06', '"43.9"', '"44.0"')), EVDS_NAME), /bad EVDS Tarih/);
    assert.throws(() => parse(evds(item('06-03-2026', '43.9', '44.0')), EVDS_NAME), /bad USD buying\/selling/);
  });

  test('accepts EVDS and the kurlar files only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts(EVDS_NAME));
    assert.ok(source.accepts('https://www.tcmb.gov.tr/kurlar/202603/06032026.xml'));
    assert.ok(!source.accepts('https://www.tcmb.gov.tr/kurlar/kurlar_tr.html'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('TCMB requests', () => {
  const servers: { close(): Promise<void> }[] = [];
  after(() => Promise.all(servers.map((s) => s.close())));
  const SERIES = EVDS_CCY.flatMap((c) => [`TP.DK.${c}.A.YTL`, `TP.DK.${c}.S.YTL`]).join('-');
  const PATH = `/series=${SERIES}&startDate=02-03-2026&endDate=06-03-2026&type=json&frequency=1`;

  test('one EVDS request for the window, the key in its header', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.ok(requests.every((r) => source.accepts(r.name ?? r.url)));
    assert.deepEqual(requests, [{ url: `http://127.0.0.1:1${PATH}`, headers: { key: 'k' } }]);
    assert.throws(() => source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1' }), /needs an API key/);
  });

  test('round trip through a local feed server', async () => {
    const body = readFileSync(new URL(EVDS, DIR));
    const server = await startFeedServer({ [PATH]: { body, contentType: 'application/json;charset=UTF-8' } });
    servers.push(server);
    const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
    assert.equal(payloads.length, 1);
    assert.deepEqual(source.parse(payloads[0]!), parseFile(EVDS));
    assert.equal(server.requests[0]!.headers.key, 'k');
  });
});
