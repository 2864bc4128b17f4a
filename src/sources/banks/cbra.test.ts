import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './cbra.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('CBRA');
const RANGE = 'exchangerates-asmx-ExchangeRatesByDateRangeByISO-2026-03-01_2026-03-19.xml';
const LATEST = 'exchangerates-asmx-ExchangeRatesLatest-2026-03-18.xml';

const parse = (body: string) => source.parse({ name: 'https://api.cba.am/exchangerates.asmx', body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const quoted = (obs: Observation[], date: string, quote: string) => {
  const o = obs.find((x) => x.date === date && x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};

const CCY = 'AED AUD BRL BYN CAD CHF CNY CZK EUR GBP GEL HKD INR IRR JPY KGS KZT NOK NZD PLN RUB SEK SGD TJS UAH USD UZS XDR'.split(' ');

describe('CBRA recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [RANGE, LATEST]);
  });

  test('date range 1-19 March 2026: 13 business days of 28 currencies, gold and silver', () => {
    const obs = parseFile(RANGE);
    const days = [...new Set(obs.map((o) => o.date))];
    // 19 March was asked for but not yet published when this was recorded (10:48 UTC).
    assert.deepEqual(days, ['02', '03', '04', '05', '06', '09', '10', '11', '12', '13', '16', '17', '18'].map((d) => `2026-03-${d}`));
    assert.equal(obs.length, 13 * 30);
    for (const date of days) assert.deepEqual(obs.filter((o) => o.date === date).map((o) => o.quote).sort(), [...CCY, 'XAG', 'XAU'].sort());
    assert.ok(obs.every((o) => o.direction === 'direct'));
    const units = Object.fromEntries(obs.filter((o) => o.unit !== 1).map((o) => [o.quote, o.unit]));
    assert.deepEqual(units, { IRR: 100, JPY: 10, KZT: 10, UZS: 10 });
    assert.equal(quoted(obs, '2026-03-02', 'USD'), '376.88/1');
    assert.equal(quoted(obs, '2026-03-02', 'EUR'), '442.38/1');
    assert.equal(quoted(obs, '2026-03-02', 'IRR'), '0.028685/100');
    assert.equal(quoted(obs, '2026-03-02', 'JPY'), '24.02/10');
    assert.equal(quoted(obs, '2026-03-02', 'UZS'), '0.3093/10');
    assert.equal(quoted(obs, '2026-03-10', 'XDR'), '513.93/1');
    assert.equal(quoted(obs, '2026-03-10', 'KZT'), '7.7332/10');
    assert.equal(quoted(obs, '2026-03-18', 'CHF'), '480.2/1');
    assert.equal(quoted(obs, '2026-03-18', 'GEL'), '138.8/1');
  });

  test('latest of 18 March 2026 matches the range for that day', () => {
    const obs = parseFile(LATEST);
    assert.deepEqual([...new Set(obs.map((o) => o.date))], ['2026-03-18']);
    assert.deepEqual(obs.map((o) => o.quote).sort(), [...CCY, 'XAG', 'XAU'].sort());
    assert.equal(quoted(obs, '2026-03-18', 'USD'), '377.39/1');
    assert.equal(quoted(obs, '2026-03-18', 'EUR'), '435.55/1');
    assert.equal(quoted(obs, '2026-03-18', 'JPY'), '23.735/10');
    assert.equal(quoted(obs, '2026-03-18', 'UZS'), '0.31003/10');
    assert.equal(quoted(obs, '2026-03-18', 'IRR'), '0.028677/100');
    // <ISO>XAU</ISO><Amount>1</Amount><Rate>60871</Rate>: AMD per gram, here per troy ounce (D19).
    assert.equal(quoted(obs, '2026-03-18', 'XAU'), '1893299.7362928/1');
    assert.equal(quoted(obs, '2026-03-18', 'XAG'), '30272.391899904/1');
    // 5,017 USD an ounce at the CBA's own dollar: the price of an ounce, not of a gram.
    assert.equal((1893299.7362928 / 377.39).toFixed(0), '5017');
    const byKey = (list: Observation[]) => new Map(list.map((o) => [o.quote, o]));
    assert.deepEqual(byKey(obs), byKey(parseFile(RANGE).filter((o) => o.date === '2026-03-18')));
  });
});

describe('CBRA edge cases', () => {
  const soap = (inner: string) =>
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body>${inner}</soap:Body></soap:Envelope>`;
  const byDate = (rates: string) =>
    soap(`<ExchangeRatesByDateResponse xmlns="http://www.cba.am/"><ExchangeRatesByDateResult><CurrentDate>2026-03-06T00:00:00</CurrentDate><NextAvailableDate>2026-03-09T00:00:00</NextAvailableDate><PreviousAvailableDate>2026-03-05T00:00:00</PreviousAvailableDate><Rates>${rates}</Rates></ExchangeRatesByDateResult></ExchangeRatesByDateResponse>`);
  const RATES = '<ExchangeRate><ISO>USD</ISO><Amount>1</Amount><Rate>377.10</Rate><Difference>0.1</Difference></ExchangeRate><ExchangeRate><ISO>XAU</ISO><Amount>1</Amount><Rate>61000</Rate><Difference>5</Difference></ExchangeRate>';
  const range = (rows: string) =>
    soap(`<ExchangeRatesByDateRangeByISOResponse xmlns="http://www.cba.am/"><ExchangeRatesByDateRangeByISOResult><xs:schema id="NewDataSet" xmlns="" xmlns:xs="http://www.w3.org/2001/XMLSchema"></xs:schema><diffgr:diffgram xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1">${rows}</diffgr:diffgram></ExchangeRatesByDateRangeByISOResult></ExchangeRatesByDateRangeByISOResponse>`);

  test('reads ExchangeRatesByDate, with one row as with many', () => {
    assert.deepEqual(parse(byDate(RATES)), [
      { date: '2026-03-06', quote: 'USD', rate: '377.10', unit: 1, direction: 'direct' },
      { date: '2026-03-06', quote: 'XAU', rate: '1897312.0848', unit: 1, direction: 'direct' },
    ]);
    const one = '<DocumentElement xmlns=""><ExchangeRatesByRange diffgr:id="ExchangeRatesByRange1" msdata:rowOrder="0"><Rate>24.1</Rate><Amount>10</Amount><ISO>JPY</ISO><Diff>0.1</Diff><RateDate>2026-03-06T00:00:00+04:00</RateDate></ExchangeRatesByRange></DocumentElement>';
    assert.deepEqual(parse(range(one)), [{ date: '2026-03-06', quote: 'JPY', rate: '24.1', unit: 10, direction: 'direct' }]);
  });

  test('rejects an HTML error page and a SOAP fault', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>The resource cannot be found.</title></head><body><h1>Server Error</h1></body></html>'), ParseError);
    const fault = soap('<soap:Fault><faultcode>soap:Client</faultcode><faultstring>Server did not recognize the value of HTTP Header SOAPAction: x.</faultstring><detail /></soap:Fault>');
    assert.throws(() => parse(fault), /SOAP fault: Server did not recognize/);
  });

  test('rejects a truncated payload', () => {
    const full = byDate(RATES);
    assert.throws(() => parse(full.slice(0, full.indexOf('<Amount>'))), /malformed XML/);
  });

  test('rejects empty tables', () => {
    assert.throws(() => parse(range('')), /holds no rates/);
    assert.throws(() => parse(byDate('')), /holds no rates/);
    assert.throws(() => parse(byDate(RATES.replace('<ISO>XAU</ISO><Amount>1', '<ISO>XAU</ISO><Amount>10'))), /XAU on 2026-03-06 has Amount 10/);
    assert.throws(() => parse(soap('<ISOCodesResponse xmlns="http://www.cba.am/" />')), /no exchange-rate response/);
  });

  test('an empty range (a window of weekends and holidays) is no publication; other empty answers are faults', () => {
    assert.throws(() => parse(range('')), NoPublication);
    const fault = (err: unknown) => err instanceof ParseError && !(err instanceof NoPublication);
    assert.throws(() => parse(byDate('')), fault);
  });

  test('rejects bad rows', () => {
    assert.throws(() => parse(byDate(RATES.replace('<Amount>1</Amount>', '<Amount>0</Amount>'))), /bad USD amount/);
    assert.throws(() => parse(byDate(RATES.replace('377.10', '377,1,0'))), /bad USD rate/);
    assert.throws(() => parse(byDate(RATES).replace('<CurrentDate>2026-03-06T00:00:00', '<CurrentDate>06/03/2026')), /bad date/);
  });

  test('accepts the CBA service only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://api.cba.am/ExchangeRates.asmx?WSDL'));
    assert.ok(!source.accepts('https://api.cba.am/'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('CBRA requests', () => {
  const servers: { close(): Promise<void> }[] = [];
  after(() => Promise.all(servers.map((s) => s.close())));

  test('one SOAP POST of ExchangeRatesByDateRangeByISO for the window', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.equal(requests.length, 1);
    const [request] = requests;
    assert.equal(request!.url, 'http://127.0.0.1:1/exchangerates.asmx');
    assert.equal(request!.method, 'POST');
    assert.deepEqual(request!.headers, { 'content-type': 'text/xml; charset=utf-8', soapaction: '"http://www.cba.am/ExchangeRatesByDateRangeByISO"' });
    assert.match(request!.body!, /<ISOCodes>USD,GBP,[A-Z,]+<\/ISOCodes><DateFrom>2026-03-02<\/DateFrom><DateTo>2026-03-06<\/DateTo>/);
    assert.match(request!.body!, /<ISOCodes>[A-Z,]+,XAU,XAG<\/ISOCodes>/);
    assert.ok(source.accepts(request!.name ?? request!.url));
  });

  test('round trip through a local feed server', async () => {
    const body = readFileSync(new URL(RANGE, DIR));
    const server = await startFeedServer({ '/exchangerates.asmx': { body, contentType: 'text/xml; charset=utf-8' } });
    servers.push(server);
    const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
    assert.equal(payloads.length, 1);
    assert.deepEqual(source.parse(payloads[0]!), parseFile(RANGE));
    assert.equal(server.requests[0]!.headers.soapaction, '"http://www.cba.am/ExchangeRatesByDateRangeByISO"');
  });
});
