// Grade A (SOURCES-2.md): a complete VCR recording of one day's file.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './cbtu.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('CBTU');
const FILE = 'cbt-kurs-20052026.xml';

const parse = (body: string) => source.parse({ name: 'kurs/2026/20052026.xml', body: Buffer.from(body) }) as Observation[];
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const perUnit = (obs: Observation[], quote: string) => {
  const o = obs.find((x) => x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};

describe('CBTU recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('20.05.2026: 48 currencies, TMT per multiplier, rate_usd ignored', () => {
    const obs = parseFile(FILE);
    assert.equal(obs.length, 48);
    assert.ok(obs.every((o) => o.date === '2026-05-20' && o.direction === 'direct'));
    for (const q of ['USD', 'EUR', 'RUB', 'CNY', 'TRY', 'XDR', 'MRU', 'AFN']) assert.ok(perUnit(obs, q), q);
    assert.equal(perUnit(obs, 'USD'), '3.5/1');
    assert.equal(perUnit(obs, 'AED'), '0.9529/1');
    // AUD, GBP, EUR and XDR carry rate_usd the other way round (USD per unit); rate_tmt does not.
    assert.equal(perUnit(obs, 'AUD'), '2.4885/1');
    assert.equal(perUnit(obs, 'EUR'), '4.0649/1');
    assert.equal(perUnit(obs, 'AMD'), '0.9536/100');
    assert.equal(perUnit(obs, 'IRR'), '0.0265/10000');
    assert.equal(perUnit(obs, 'KRW'), '2.3187/1000');
    assert.equal(perUnit(obs, 'JPY'), '2.1995/100');
    assert.equal(perUnit(obs, 'DKK'), '0.544/1');
    assert.deepEqual([...new Set(obs.map((o) => o.unit))].sort((a, b) => a - b), [1, 10, 100, 1000, 10000]);
  });

  test('requests one optional file per calendar day and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(
      [...requests],
      ['02', '03', '04', '05', '06'].map((d) => ({ url: `http://127.0.0.1:1/kurs/2026/${d}032026.xml`, optional: true })),
    );
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);
    // Saturday and Sunday are asked for too: Saturday has a file, Sunday's 404 is skipped.
    assert.equal(source.requests({ from: '2026-03-07', to: '2026-03-08' }, { base: source.baseUrl }).length, 2);

    const server = await startFeedServer({ '/kurs/2026/04032026.xml': { body: readFileSync(new URL(FILE, DIR)) } });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.map((p) => p.name), [`${server.url}/kurs/2026/04032026.xml`]);
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILE));
      assert.equal(server.requests.length, 5);
    } finally {
      await server.close();
    }
  });
});

describe('CBTU edge cases', () => {
  const DAY = (date: string, rows: string) =>
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<cbt_currency_rate name="CBT Currency XML">\n\t<date>${date}</date>\n${rows}</cbt_currency_rate>\n`;
  const JPY = '\t<rate code="JPY">\n\t\t<name>ÝAPONIÝA ÝENI</name>\n\t\t<rate_usd>159.12</rate_usd>\n\t\t<multiplier>100</multiplier>\n\t\t<rate_tmt>2.1995</rate_tmt>\n\t\t<checksum>x</checksum>\n\t</rate>\n';

  test('reads the YYYY-MM-DD dates of the 2020–2023 files', () => {
    assert.deepEqual(parse(DAY('2021-06-01', JPY)), [{ date: '2021-06-01', quote: 'JPY', rate: '2.1995', unit: 100, direction: 'direct' }]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>403 Forbidden</title></head><body><h1>Forbidden</h1></body></html>'), ParseError);
  });

  test('rejects a truncated file', () => {
    const full = DAY('20.05.2026', JPY);
    assert.throws(() => parse(full.slice(0, full.indexOf('<multiplier>'))), /not well-formed XML/);
  });

  test('rejects an empty file, a bad date and a bad multiplier', () => {
    assert.throws(() => parse(DAY('20.05.2026', '')), /holds no rates/);
    assert.throws(() => parse(DAY('20/5/2026', JPY)), /bad date/);
    assert.throws(() => parse(DAY('20.05.2026', JPY.replace('>100<', '>0<'))), /JPY on 2026-05-20: bad unit/);
  });

  test('accepts the day files only', () => {
    assert.ok(source.accepts('https://cbt.tm/kurs/2026/20052026.xml'));
    assert.ok(!source.accepts(source.feedUrl));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
