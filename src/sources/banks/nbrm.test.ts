import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './nbrm.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('NBRM');
const SATURDAY = 'GetExchangeRate-30.05.2026.json';

const parse = (body: string) => source.parse({ name: 'https://www.nbrm.mk/KLServiceNOV/GetExchangeRate?StartDate=06.03.2026&EndDate=06.03.2026&format=json', body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], quote: string) => obs.find((o) => o.quote === quote)?.rate;

const CCY = 'AUD BRL CAD CHF CNY CZK DKK EUR GBP HKD HUF IDR ILS INR JPY KRW MXN MYR NOK NZD PHP PLN RON RSD RUB SEK SGD THB TRY USD ZAR'.split(' ');

describe('NBRM recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [SATURDAY]);
  });

  test('list 98 applying on Saturday 30 May 2026 (fixed on the 28th): 31 currencies per 1 unit', () => {
    const obs = parseFile(SATURDAY);
    assert.deepEqual([...new Set(obs.map((o) => o.date))], ['2026-05-30']);
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY);
    assert.ok(obs.every((o) => o.direction === 'direct' && o.unit === 1));
    assert.equal(rate(obs, 'EUR'), '61.695');
    assert.equal(rate(obs, 'USD'), '53.1075');
    assert.equal(rate(obs, 'GBP'), '71.1879');
    // JPY and HUF per 1 unit here (nomin 1), not per 100.
    assert.equal(rate(obs, 'JPY'), '0.3331');
    assert.equal(rate(obs, 'HUF'), '0.1737');
    assert.equal(rate(obs, 'KRW'), '0.0353');
    assert.equal(rate(obs, 'RSD'), '0.5255');
    // One significant digit is all the list gives for the rupiah.
    assert.equal(rate(obs, 'IDR'), '0.003');
  });
});

describe('NBRM edge cases', () => {
  const row = (oznaka: string, nomin: number, sreden: string, datum = '2026-03-06T00:00:00') =>
    `{"rBr":45,"datum":"${datum}","valuta":"392","oznaka":"${oznaka}","drzava":"Јапонија","nomin":${nomin},"sreden":${sreden},"drzavaAng":"Japan","drzavaAl":"Japonia","nazivMak":"јен","nazivAng":"Yen","nazivAl":"Jeni","datum_f":"2026-03-05T00:00:00"}`;

  test('keeps nomin as the unit and never lets float noise through', () => {
    assert.deepEqual(parse(`[${row('JPY', 100, '35.0519')},${row('XXX', 1, '0.30000000000000004')}]`), [
      { date: '2026-03-06', quote: 'JPY', rate: '35.0519', unit: 100, direction: 'direct' },
      { date: '2026-03-06', quote: 'XXX', rate: '0.3', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>Runtime Error</title></head><body><h2>Server Error in \'/KLServiceNOV\' Application.</h2></body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    const full = `[${row('JPY', 1, '0.3331')},${row('USD', 1, '53.1075')}]`;
    assert.throws(() => parse(full.slice(0, -40)), /not JSON/);
  });

  test('rejects empty tables', () => {
    assert.throws(() => parse('[]'), /holds no rates/);
    assert.throws(() => parse('{"Message":"An error has occurred."}'), /not an array/);
  });

  test('rejects bad rows', () => {
    assert.throws(() => parse(`[${row('JPY', 0, '0.3331')}]`), /bad JPY nomin/);
    assert.throws(() => parse(`[${row('JPY', 1, 'null')}]`), /no JPY middle rate/);
    assert.throws(() => parse(`[${row('JPY', 1, '"0,33,31"')}]`), /bad JPY middle rate/);
    assert.throws(() => parse(`[${row('JPY', 1, '0.3331', '06.03.2026')}]`), /bad datum/);
    assert.throws(() => parse(`[${row('ЈПЈ', 1, '0.3331')}]`), /bad currency/);
  });

  test('accepts the JSON service only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.nbrm.mk/KLServiceNOV/GetExchangeRate?StartDate=30.05.2026&EndDate=30.05.2026&format=xml'));
    assert.ok(!source.accepts('https://www.nbrm.mk/KLServiceNOV/GetExchangeRates'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('NBRM requests', () => {
  const servers: { close(): Promise<void> }[] = [];
  after(() => Promise.all(servers.map((s) => s.close())));

  test('one request for the window, dates written DD.MM.YYYY', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/KLServiceNOV/GetExchangeRate?StartDate=02.03.2026&EndDate=06.03.2026&format=json' }]);
    assert.ok(requests.every((r) => source.accepts(r.name ?? r.url)));
  });

  test('round trip through a local feed server', async () => {
    const body = readFileSync(new URL(SATURDAY, DIR));
    const server = await startFeedServer({ '/KLServiceNOV/GetExchangeRate?StartDate=02.03.2026&EndDate=06.03.2026&format=json': { body, contentType: 'application/json; charset=utf-8' } });
    servers.push(server);
    const payloads = await fetchSource(source, { from: '2026-03-02', to: '2026-03-06' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
    assert.equal(payloads.length, 1);
    assert.deepEqual(source.parse(payloads[0]!), parseFile(SATURDAY));
  });
});
