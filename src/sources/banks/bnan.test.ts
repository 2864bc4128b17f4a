// BNAN recorded payloads are grade A (complete VCR recordings, SOURCES-2.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './bnan.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BNAN');

const range = (c: string) => `bna-evolucao-taxa-intervalo-${c}-2026-05-18_2026-05-21.json`;
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const parse = (body: string) => source.parse({ name: 'https://www.bna.ao/service/rest/taxas/get/evolucao/taxa/intervalo?moeda=ALL', body: Buffer.from(body) });
const rates = (obs: Observation[], quote: string) => obs.filter((o) => o.quote === quote).map((o) => `${o.date} ${o.rate}`);
const DAYS = ['2026-05-19', '2026-05-20', '2026-05-21'];

const row = (code: string, taxa: string, tipo = 'M', data = '2026-03-04') =>
  `{"taxa":${taxa},"descricaoTipoCambio":"Taxa de Referência - MEDIO","tipoCambio":"${tipo}","data":"${data}","designacaoMoeda":"X","codigoMoeda":"${code}"}`;
const answer = (rows: string[]) => `{"genericResponse":[${rows.join(',')}],"success":true}`;

describe('BNAN recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [...['ALL', 'EUR', 'JPY', 'SDG', 'USD'].map(range), 'bna-lista-moedas.json']);
  });

  test('moeda=ALL: every currency for three days, AOA per 1 unit, gold, XDRUSD and VEF left out', () => {
    const obs = parseFile(range('ALL'));
    assert.equal(obs.length, 3 * 68);
    assert.deepEqual([...new Set(obs.map((o) => o.date))], DAYS);
    assert.ok(obs.every((o) => o.unit === 1 && o.direction === 'direct'));
    const quotes = new Set(obs.map((o) => o.quote));
    assert.equal(quotes.size, 68);
    for (const q of ['USD', 'EUR', 'ZAR', 'CNY', 'ALL', 'HRK', 'EEK', 'ZMK', 'XAF', 'KWD']) assert.ok(quotes.has(q), q);
    for (const q of ['XAU', 'XDRUSD', 'VEF', 'VES', 'STD', 'AOA']) assert.ok(!quotes.has(q), q);
    assert.deepEqual(rates(obs, 'USD'), DAYS.map((d) => `${d} 913.116`));
    assert.deepEqual(rates(obs, 'GBP').slice(1), ['2026-05-20 1223.85203', '2026-05-21 1225.00134']);
    assert.deepEqual(rates(obs, 'KWD')[1], '2026-05-20 2955.5462');
    assert.deepEqual(rates(obs, 'LBP')[1], '2026-05-20 0.0102');
    assert.deepEqual(rates(obs, 'IDR').slice(1), ['2026-05-20 0.05173', '2026-05-21 0.0517']);
    // The old dobra's code with the new dobra's figure.
    assert.deepEqual(rates(obs, 'STN').slice(1), ['2026-05-20 43.49683', '2026-05-21 43.51528']);
  });

  test('single-currency answers: EUR, JPY per 1 yen, USD', () => {
    assert.deepEqual(rates(parseFile(range('EUR')), 'EUR'), ['2026-05-19 1060.8582', '2026-05-20 1059.032', '2026-05-21 1058.9407']);
    assert.deepEqual(rates(parseFile(range('JPY')), 'JPY'), ['2026-05-19 5.73854', '2026-05-20 5.74251', '2026-05-21 5.73746']);
    const usd = parseFile(range('USD'));
    assert.deepEqual(usd, DAYS.map((date) => ({ date, quote: 'USD', rate: '913.116', unit: 1, direction: 'direct' })));
  });

  test('an empty answer (SDG) and the currency list are valid answers without rates', () => {
    assert.throws(() => parseFile(range('SDG')), NoPublication);
    assert.throws(() => parseFile('bna-lista-moedas.json'), NoPublication);
  });

  test('requests every currency at once from the day before the window and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    const path = '/taxas/get/evolucao/taxa/intervalo?datainicio=2026-03-01&datafim=2026-03-06&moeda=ALL&tipocambio=M';
    assert.deepEqual(requests, [{ url: `http://127.0.0.1:1${path}` }]);
    assert.equal(source.requests({ from: '2026-01-01', to: '2026-01-31' }, { base: source.baseUrl })[0]!.url,
      'https://www.bna.ao/service/rest/taxas/get/evolucao/taxa/intervalo?datainicio=2025-12-31&datafim=2026-01-31&moeda=ALL&tipocambio=M');
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const server = await startFeedServer({ [path]: { body: readFileSync(new URL(range('ALL'), DIR)), contentType: 'application/json' } });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p) as Observation[]), parseFile(range('ALL')));
      assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url}`), [`GET ${path}`]);
    } finally {
      await server.close();
    }
  });
});

describe('BNAN edge cases', () => {
  test('keeps the digits of the JSON numbers and reads middle rates only', () => {
    assert.deepEqual(parse(answer([row('USD', '913.1160'), row('USD', '910.0', 'G'), row('USD', '916.2', 'B')])), [
      { date: '2026-03-04', quote: 'USD', rate: '913.1160', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>Runtime Error</title></head><body><h2>Server Error in \'/\' Application.</h2></body></html>'), ParseError);
  });

  test('rejects a truncated answer, a failed one and one without middle rates', () => {
    const full = answer([row('USD', '913.116'), row('EUR', '1060.8582')]);
    assert.throws(() => parse(full.slice(0, full.indexOf('"codigoMoeda":"EUR"'))), /not JSON/);
    assert.throws(() => parse('{"genericResponse":"datainicio \'null\' inválida.","success":false}'), /not a successful/);
    assert.throws(() => parse(answer([row('USD', '910.0', 'G')])), /holds no middle rates/);
    assert.throws(() => parse(answer([row('XAU', '4565.82')])), /holds no middle rates/);
  });

  test('rejects rows with a bad code, date or rate', () => {
    assert.throws(() => parse(answer([row('US$', '913.116')])), /bad currency code/);
    assert.throws(() => parse(answer([row('USD', '913.116', 'M', '19-05-2026')])), /bad date/);
    assert.throws(() => parse(answer([row('USD', 'null')])), /USD on 2026-03-04: no rate/);
  });

  test('accepts the rate and list endpoints only', () => {
    assert.ok(source.accepts('https://www.bna.ao/service/rest/taxas/get/evolucao/taxa/intervalo?datafim=2026-05-21&datainicio=2026-05-18&moeda=EUR&tipocambio=M'));
    assert.ok(source.accepts('https://www.bna.ao/service/rest/taxas/get/lista/moedas'));
    assert.ok(!source.accepts(source.feedUrl));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
