import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fixtureDir } from '../../../test/support/fixtures.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { source } from './nabz.js';

const DIR = fixtureDir('NABZ');
// The recorded payloads (SOURCE.md describes them and is not one).
const FILES = [
  'currencies-01.05.2019.xml',
  'currencies-02.10.2026.xml',
  'currencies-26.09.2011.xml',
];

const parse = (body: string, name = 'currencies/26.09.2011.xml') => source.parse({ name, body: Buffer.from(body) });
const parseFile = (name: string): Observation[] => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
/** "rate/unit" of one currency, so one assertion covers both. */
const quoted = (obs: Observation[], quote: string) => {
  const o = obs.find((x) => x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};
const codes = (obs: Observation[]) => obs.map((o) => o.quote).sort().join(' ');

describe('NABZ recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const names = readdirSync(DIR).sort();
    assert.deepEqual(names.filter((f) => source.accepts(f)), FILES);
  });

  test('26.09.2011, one line, every Value padded with two spaces: 44 currencies and 4 metals, RUR and SDR as RUB and XDR', () => {
    const obs = parseFile('currencies-26.09.2011.xml');
    assert.equal(codes(obs), 'AED ARS AUD BRL BYR CAD CHF CNY CZK DKK EGP EUR GBP GEL HKD IDR ILS INR IRR JPY KGS KRW KWD KZT LBP LTL LVL MDL MXN NOK NZD PLN RUB SAR SEK SGD TJS TMT TRY UAH USD UZS XAG XAU XDR XPD XPT ZAR');
    assert.ok(obs.every((o) => o.date === '2011-09-26' && o.direction === 'direct'));
    assert.equal(quoted(obs, 'USD'), '0.7869/1');
    assert.equal(quoted(obs, 'EUR'), '1.0553/1');
    // Published with its trailing zero, padding gone.
    assert.equal(quoted(obs, 'TRY'), '0.4290/1');
    assert.equal(quoted(obs, 'RUB'), '0.0245/1');
    assert.equal(quoted(obs, 'XDR'), '1.2269/1');
    assert.equal(quoted(obs, 'JPY'), '1.0298/100');
    assert.equal(quoted(obs, 'BYR'), '0.0142/100');
    assert.equal(quoted(obs, 'IRR'), '0.0073/100');
    // The metals block, AZN per troy ounce ("1 t.u.").
    assert.equal(quoted(obs, 'XAU'), '1329.0741/1');
    // 1,689 USD at the bank's own dollar (0.7869): the price of an ounce (D19).
    assert.equal((1329.0741 / 0.7869).toFixed(0), '1689');
    assert.equal(quoted(obs, 'XAG'), '25.8890/1');
  });

  test('01.05.2019, pretty-printed, metals first: 45 currencies and 4 metals at the USD peg of 1.7', () => {
    const obs = parseFile('currencies-01.05.2019.xml');
    assert.equal(obs.length, 49);
    assert.ok(obs.every((o) => o.date === '2019-05-01'));
    assert.deepEqual(obs.slice(0, 4).map((o) => `${o.quote} ${o.rate}/${o.unit}`), ['XPD 2345.048/1', 'XPT 1506.4295/1', 'XAG 25.3645/1', 'XAU 2176.374/1']);
    assert.equal(quoted(obs, 'USD'), '1.7/1');
    assert.equal(quoted(obs, 'EUR'), '1.907/1');
    assert.equal(quoted(obs, 'GBP'), '2.2169/1');
    assert.equal(quoted(obs, 'XDR'), '2.3558/1');
    assert.equal(quoted(obs, 'RUB'), '0.0263/1');
    assert.equal(quoted(obs, 'KRW'), '0.146/100');
    assert.equal(quoted(obs, 'JPY'), '1.5247/100');
    assert.equal(quoted(obs, 'UZS'), '0.0201/100');
  });

  test('02.10.2026, the template\'s whitespace and gaps: 38 currencies and 4 metals, KZT and RUB now per 100', () => {
    const obs = parseFile('currencies-02.10.2026.xml');
    assert.equal(codes(obs), 'AED AUD BYN CAD CHF CNY CZK DKK EUR GBP GEL HKD HUF ILS INR JPY KGS KRW KWD KZT MDL NOK NZD PKR PLN QAR RON RSD RUB SAR SEK SGD TMT TRY UAH USD UZS XAG XAU XDR XPD XPT');
    assert.ok(obs.every((o) => o.date === '2026-10-02'));
    assert.equal(quoted(obs, 'USD'), '1.7/1');
    assert.equal(quoted(obs, 'EUR'), '1.9129/1');
    assert.equal(quoted(obs, 'GBP'), '2.2458/1');
    assert.equal(quoted(obs, 'XDR'), '2.3051/1');
    assert.equal(quoted(obs, 'TRY'), '0.0346/1');
    assert.equal(quoted(obs, 'JPY'), '1.0769/100');
    assert.equal(quoted(obs, 'KZT'), '0.384/100');
    assert.equal(quoted(obs, 'RUB'), '2.0186/100');
    assert.equal(quoted(obs, 'XAU'), '7114.3555/1');
    assert.equal((7114.3555 / 1.7).toFixed(0), '4185');
    assert.equal(quoted(obs, 'XPD'), '2014.874/1');
  });
});

describe('NABZ edge cases', () => {
  const DAY = '<?xml version="1.0" encoding="UTF-8"?><ValCurs Date="26.09.2011" Name="AZN məzənnələri" Description="…">' +
    '<ValType Type="Xarici valyutalar"><Valute Code="JPY"><Nominal>100</Nominal><Name>Yapon yeni</Name><Value>1.0298  </Value></Valute></ValType>' +
    '<ValType Type="Bank metalları"><Valute Code="XAU"><Nominal>1 t.u.</Nominal><Name>Qızıl</Name><Value>1329.0741  </Value></Valute></ValType></ValCurs>';

  test('one Valute per block is read; the metal per troy ounce, the currency per Nominal', () => {
    assert.deepEqual(parse(DAY), [
      { date: '2011-09-26', quote: 'JPY', rate: '1.0298', unit: 100, direction: 'direct' },
      { date: '2011-09-26', quote: 'XAU', rate: '1329.0741', unit: 1, direction: 'direct' },
    ]);
  });

  test('an HTML error page is a ParseError', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><body>Service unavailable</body></html>'), ParseError);
  });

  test('rejects a truncated payload, an empty bulletin and bad rows', () => {
    assert.throws(() => parse(DAY.slice(0, DAY.indexOf('<Valute Code="XAU"') + 30)), /not well-formed XML/);
    assert.throws(() => parse('<ValCurs Date="26.09.2011"><ValType Type="Xarici valyutalar"></ValType></ValCurs>'), /holds no rates/);
    assert.throws(() => parse(DAY.replace('<Nominal>100</Nominal>', '<Nominal>1 t.u.</Nominal>')), /JPY on 2011-09-26 is quoted per troy ounce/);
    assert.throws(() => parse(DAY.replace('<Nominal>100</Nominal>', '<Nominal>0</Nominal>')), /bad JPY Nominal/);
    assert.throws(() => parse(DAY.replace('1.0298', '1,02,98')), /bad JPY Value/);
    assert.throws(() => parse(DAY.replace('26.09.2011', '2011-09-26')), /bad ValCurs Date/);
    assert.throws(() => parse(DAY.replace('Code="JPY"', 'Code="JP"')), /bad currency code/);
  });
});

describe('NABZ requests', () => {
  test('one bulletin per calendar day on the base URL, 404 meaning no publication', () => {
    const requests = source.requests({ from: '2026-10-02', to: '2026-10-05' }, { base: 'http://127.0.0.1:1' });
    assert.deepEqual(requests, ['02', '03', '04', '05'].map((d) => ({ url: `http://127.0.0.1:1/currencies/${d}.10.2026.xml`, optional: true })));
    for (const r of requests) assert.ok(source.accepts(r.url), r.url);
    assert.ok(!source.accepts('https://www.cbar.az/currencies/2026-10-02.xml'));
    assert.ok(!source.accepts('SOURCE.md'));
  });

  test('round trip through the local feed server: the bulletin read, the days without one skipped', async () => {
    const body = readFileSync(new URL('currencies-02.10.2026.xml', DIR));
    const server = await startFeedServer({ '/currencies/02.10.2026.xml': { body, contentType: 'text/xml' } });
    try {
      const payloads = await fetchSource(source, { from: '2026-10-01', to: '2026-10-03' }, { base: server.url }, createHttpClient({ retries: 0 }));
      assert.deepEqual(server.requests.map((r) => r.url), ['01', '02', '03'].map((d) => `/currencies/${d}.10.2026.xml`));
      assert.equal(payloads.length, 1);
      assert.deepEqual(source.parse(payloads[0]!), parseFile('currencies-02.10.2026.xml'));
    } finally {
      await server.close();
    }
  });
});
