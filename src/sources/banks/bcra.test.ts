import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './bcra.js';
import { Decimal } from '../../money/decimal.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BCRA');
const FILE = 'estadisticascambiarias-v1.0-Cotizaciones-fecha-2026-03-19.json';

const NAME = 'https://api.bcra.gob.ar/estadisticascambiarias/v1.0/Cotizaciones?fecha=2026-03-19';
const parse = (body: string) => source.parse({ name: NAME, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const find = (obs: Observation[], quote: string) => obs.find((o) => o.quote === quote);
const quoted = (obs: Observation[], quote: string) => {
  const o = find(obs, quote);
  return o && `${o.rate}/${o.unit}`;
};

const CCY = 'AUD AWG BOB BRL CAD CHF CLP CNY COP CZK DKK EUR GBP HKD ILS INR JPY MXN NIO NOK NZD PEN PYG RSD RUB SEK SGD TRY USD UYU VND XDR ZAR'.split(' ');

describe('BCRA recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('the table of 2026-03-19: 33 currencies in ARS, VND per 1,000, gold and silver', () => {
    const obs = parseFile(FILE);
    assert.ok(obs.every((o) => o.date === '2026-03-19' && o.direction === 'direct'));
    assert.deepEqual(obs.map((o) => o.quote).sort(), [...CCY, 'XAG', 'XAU'].sort());
    assert.equal(quoted(obs, 'USD'), '1394.50000000/1');
    assert.equal(quoted(obs, 'EUR'), '1612.04200000/1');
    assert.equal(quoted(obs, 'AUD'), '983.81975000/1');
    assert.equal(quoted(obs, 'CLP'), '1.52723200/1');
    assert.equal(quoted(obs, 'PYG'), '0.21402800/1');
    assert.equal(quoted(obs, 'XDR'), '1894.56770000/1');
    // "DONG VIETNAM (C/1.000 UNIDADES)": the multiplier is only in the description.
    assert.equal(quoted(obs, 'VND'), '53.04096500/1000');
    assert.ok(obs.filter((o) => o.quote !== 'VND').every((o) => o.unit === 1));
    // Published under MXP, the pre-1993 code.
    assert.equal(quoted(obs, 'MXN'), '78.43832100/1');
    // Not rates, not ISO, or an ambiguous bolívar: the peso, REF, CNH, VEB.
    for (const q of ['ARS', 'REF', 'CNH', 'VEB', 'MXP']) assert.equal(find(obs, q), undefined, q);
  });

  test('gold and silver: the dollar price per troy ounce (tipoPase) times the dollar, exactly (D19)', () => {
    const obs = parseFile(FILE);
    // {"codigoMoneda":"XAU","descripcion":"ORO FINO (1 ONZA)","tipoPase":4615.33000000,"tipoCotizacion":0.00000000}
    assert.equal(quoted(obs, 'XAU'), '6436077.685/1');
    assert.equal(quoted(obs, 'XAG'), '99474.4263/1');
    assert.equal(new Decimal('6436077.685').div('1394.5').toString(), '4615.33');
  });
});

describe('BCRA edge cases', () => {
  const row = (code: string, description: string, rate: string) => `{"codigoMoneda":"${code}","descripcion":"${description}","tipoPase":0.1,"tipoCotizacion":${rate}}`;
  const table = (...rows: string[]) => `{"status":200,"results":{"fecha":"2026-03-20","detalle":[${rows.join(',')}]}}`;

  test('reads hidden multipliers with thousands dots and skips zero figures', () => {
    const obs = parse(table(row('KRW', 'WON COREANO (C/10.000 UNIDADES)', '9.5'), row('ARS', 'PESO', '0.0'), row('XYZ', 'SIN COTIZACION', '0')));
    assert.deepEqual(obs, [{ date: '2026-03-20', quote: 'KRW', rate: '9.5', unit: 10000, direction: 'direct' }]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>BCRA - Servicio no disponible</title></head><body><h1>503</h1></body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    const full = table(row('USD', 'DOLAR E.E.U.U.', '1394.5'));
    assert.throws(() => parse(full.slice(0, full.length - 15)), /not JSON/);
  });

  test('rejects an empty table, an API error and a table of non-rates only', () => {
    assert.throws(() => parse(table()), /holds no rates/);
    assert.throws(() => parse(table(row('ARS', 'PESO', '0.0'))), /holds no rates/);
    assert.throws(() => parse(table(row('EUR', 'EURO', '1612.042'), row('XAU', 'ORO FINO (1 ONZA)', '0.0'))), /XAU on 2026-03-20: a price in dollars, and no dollar rate/);
    assert.throws(() => parse('{"status":400,"errorMessages":["La fecha no puede ser mayor a la fecha actual."]}'), /La fecha no puede/);
    assert.throws(() => parse('{"status":200,"results":[]}'), /no results object/);
  });

  test('a day without a table (fecha null) is no publication; a dated empty table is a fault', () => {
    assert.throws(() => parse('{"status":200,"results":{"fecha":null,"detalle":[]}}'), NoPublication);
    assert.throws(() => parse(table()), (err) => err instanceof ParseError && !(err instanceof NoPublication));
  });

  test('rejects bad codes, dates and figures', () => {
    assert.throws(() => parse(table(row('us$', 'DOLAR', '1'))), /bad codigoMoneda/);
    assert.throws(() => parse(table(row('USD', 'DOLAR', '"1.394,5x"'))), /bad tipoCotizacion/);
    assert.throws(() => parse('{"status":200,"results":{"fecha":"20/03/2026","detalle":[]}}'), /bad fecha/);
  });

  test('accepts the daily table, not the per-currency series', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts(NAME));
    assert.ok(!source.accepts('https://api.bcra.gob.ar/estadisticascambiarias/v1.0/Cotizaciones/USD?fechadesde=2026-03-01&fechahasta=2026-03-19'));
    assert.ok(!source.accepts('https://api.bcra.gob.ar/estadisticascambiarias/v1.0/Maestros/Divisas'));
    assert.ok(!source.accepts('SOURCE.md'));
  });

  test('builds one request per weekday of the window', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests.map((r) => r.url), ['02', '03', '04', '05', '06'].map((d) => `http://127.0.0.1:1/estadisticascambiarias/v1.0/Cotizaciones?fecha=2026-03-${d}`));
    assert.ok(requests.every((r) => source.accepts(r.url) && r.method === undefined));
    // Saturday and Sunday have no table.
    assert.deepEqual(source.requests({ from: '2026-03-06', to: '2026-03-09' }, { base: 'http://127.0.0.1:1/' }).map((r) => r.url.slice(-10)), ['2026-03-06', '2026-03-09']);
  });
});

describe('BCRA round trip through the local feed server', () => {
  test('reads the served payload like the recorded file', async () => {
    const path = '/estadisticascambiarias/v1.0/Cotizaciones?fecha=2026-03-19';
    const server = await startFeedServer({ [path]: { body: readFileSync(new URL(FILE, DIR)), contentType: 'application/json' } });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-19', to: '2026-03-19' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(server.requests.map((r) => r.url), [path]);
      assert.equal(payloads.length, 1);
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILE));
    } finally {
      await server.close();
    }
  });
});
