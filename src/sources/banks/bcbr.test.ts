import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { PTAX_CURRENCIES, source } from './bcbr.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BCBR');

const LIVE_USD = 'http://127.0.0.1:1/CotacaoMoedaPeriodo(moeda=@moeda,dataInicial=@dataInicial,dataFinalCotacao=@dataFinalCotacao)?@moeda=%27USD%27&@dataInicial=%2703-02-2026%27&@dataFinalCotacao=%2703-06-2026%27&$filter=tipoBoletim%20eq%20%27Fechamento%27&$format=json';
const parse = (body: string, name = LIVE_USD) => source.parse({ name, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], date: string) => obs.find((o) => o.date === date)?.rate;
const file = (ccy: string) => `ptax-CotacaoMoedaPeriodo-${ccy}-2026-03-01_2026-03-07.json`;
const WEEK = ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06'];

describe('BCBR recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [file('EUR'), file('JPY'), file('USD')]);
  });

  test('USD: five closing PTAX buy rates, BRL per 1 USD', () => {
    const obs = parseFile(file('USD'));
    assert.deepEqual(obs.map((o) => o.date), WEEK);
    assert.ok(obs.every((o) => o.quote === 'USD' && o.unit === 1 && o.direction === 'direct' && o.table === undefined));
    // cotacaoCompra 5.19950 (sell 5.20010), its trailing zero kept as published.
    assert.equal(rate(obs, '2026-03-02'), '5.19950');
    assert.equal(rate(obs, '2026-03-03'), '5.28640');
    assert.equal(rate(obs, '2026-03-05'), '5.24410');
    assert.equal(rate(obs, '2026-03-06'), '5.28720');
  });

  test('EUR and JPY: the currency comes from the file name, JPY per 1 unit', () => {
    const eur = parseFile(file('EUR'));
    assert.deepEqual(eur.map((o) => o.date), WEEK);
    assert.ok(eur.every((o) => o.quote === 'EUR' && o.unit === 1 && o.direction === 'direct'));
    assert.equal(rate(eur, '2026-03-02'), '6.07250');
    assert.equal(rate(eur, '2026-03-04'), '6.06220');
    assert.equal(rate(eur, '2026-03-06'), '6.12200');
    const jpy = parseFile(file('JPY'));
    assert.deepEqual(jpy.map((o) => o.date), WEEK);
    assert.ok(jpy.every((o) => o.quote === 'JPY' && o.unit === 1 && o.direction === 'direct'));
    assert.equal(rate(jpy, '2026-03-02'), '0.03296');
    assert.equal(rate(jpy, '2026-03-03'), '0.03349');
    assert.equal(rate(jpy, '2026-03-06'), '0.03355');
  });
});

describe('BCBR edge cases', () => {
  const row = (date: string, bulletin: string, buy = '5.19950') =>
    `{"paridadeCompra":1.00000,"paridadeVenda":1.00000,"cotacaoCompra":${buy},"cotacaoVenda":5.20010,"dataHoraCotacao":"${date} 13:09:26.433","tipoBoletim":"${bulletin}"}`;
  const odata = (...rows: string[]) => `{"@odata.context":"https://was-p.bcnet.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata$metadata#_CotacaoMoedaDia","value":[${rows.join(',')}]}`;

  test('keeps only the closing bulletin of CotacaoMoedaDia', () => {
    const name = "https://olinda.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata/CotacaoMoedaDia(moeda=@moeda,dataCotacao=@dataCotacao)?@moeda='CHF'&@dataCotacao='03-02-2026'&$format=json";
    const body = odata(row('2026-03-02', 'Abertura', '6.70000'), row('2026-03-02', 'Intermediário', '6.71000'), row('2026-03-02', 'Fechamento', '6.72050'));
    assert.deepEqual(parse(body, name), [{ date: '2026-03-02', quote: 'CHF', rate: '6.72050', unit: 1, direction: 'direct' }]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>Olinda - Erro</title></head><body><h1>500 Internal Server Error</h1></body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    const full = odata(row('2026-03-02', 'Fechamento'));
    assert.throws(() => parse(full.slice(0, 120)), /not JSON/);
  });

  test('rejects an empty table, an OData error and a day without a closing bulletin', () => {
    assert.throws(() => parse(odata()), /holds no closing/);
    assert.throws(() => parse(odata(row('2026-03-02', 'Abertura'))), /holds no closing/);
    assert.throws(() => parse('{"error":{"code":"400","message":"Parâmetro inválido: @dataInicial"}}'), /no value array/);
  });

  test('an empty answer (weekend, holiday) is no publication; bulletins without a closing one are a fault', () => {
    assert.throws(() => parse(odata()), NoPublication);
    assert.throws(() => parse(odata(row('2026-03-02', 'Abertura'))), (err) => err instanceof ParseError && !(err instanceof NoPublication));
  });

  test('rejects a payload whose name does not say the currency, and bad rows', () => {
    assert.throws(() => parse(odata(row('2026-03-02', 'Fechamento')), 'CotacaoMoedaPeriodo.json'), /cannot tell the currency/);
    assert.throws(() => parse(odata(row('02/03/2026', 'Fechamento'))), /bad dataHoraCotacao/);
    assert.throws(() => parse(odata(row('2026-03-02', 'Fechamento', '"5,19x"'))), /bad cotacaoCompra/);
  });

  test('accepts the PTAX currency feeds in JSON only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts(LIVE_USD.replace('$format=json', '$format=text/csv')));
    assert.ok(!source.accepts('https://olinda.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata/CotacaoDolarDia(dataCotacao=@dataCotacao)?@dataCotacao=%2703-02-2026%27&$format=json'));
    assert.ok(!source.accepts('SOURCE.md'));
  });

  test('builds one closing-bulletin request per PTAX currency for the window', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.equal(requests.length, 10);
    assert.deepEqual(requests.map((r) => /%27([A-Z]{3})%27&@dataInicial/.exec(r.url)?.[1]), [...PTAX_CURRENCIES]);
    assert.equal(requests.find((r) => r.url.includes('%27USD%27'))?.url, LIVE_USD);
    for (const r of requests) {
      assert.ok(source.accepts(r.url), r.url);
      assert.equal(r.method, undefined);
      assert.equal(r.body, undefined);
    }
  });
});

describe('BCBR round trip through the local feed server', () => {
  test('fetches every currency and reads the served payloads like the recorded files', async () => {
    const recorded = ['EUR', 'JPY', 'USD'];
    const server = await startFeedServer((url) => {
      const ccy = /%27([A-Z]{3})%27&@dataInicial/.exec(url)?.[1] ?? '';
      return { body: readFileSync(new URL(file(recorded.includes(ccy) ? ccy : 'USD'), DIR)), contentType: 'application/json' };
    });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-01', to: '2026-03-07' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 10);
      assert.ok(server.requests.every((r) => r.method === 'GET' && r.url.startsWith('/CotacaoMoedaPeriodo(moeda=@moeda,')));
      for (const ccy of recorded) {
        const payload = payloads.find((p) => p.name.includes(`%27${ccy}%27`));
        assert.ok(payload, ccy);
        assert.deepEqual(source.parse(payload), parseFile(file(ccy)));
      }
    } finally {
      await server.close();
    }
  });
});
