// BCEB, Banco Central de Bolivia: grade A (complete VCR recordings, SOURCES-2.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { utils, write } from '@e965/xlsx';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './bceb.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import type { Observation } from '../types.js';
import { Decimal } from '../../money/decimal.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BCEB');
const JUNE = 'bcb-otras_imprimir2XLS-2026-06-10.xls';
const JULY = 'bcb-otras_imprimir2XLS-2026-07-13.xls';
const YEAR = 'bcb-tiposDeCambioHistorico-xls-anio-2007.xls';
const sheet = (file: string) => source.parse({ name: file, body: readFileSync(new URL(file, DIR)) }) as Observation[];
const DAILY = 'https://www.bcb.gob.bo/librerias/indicadores/otras/otras_imprimir2XLS.php?qdd=13&qmm=7&qaa=2026';
const fromRows = (rows: (string | number | null)[][]) => {
  const book = utils.book_new();
  utils.book_append_sheet(book, utils.aoa_to_sheet(rows), 'TABLA DE COTIZACIONES');
  return write(book, { type: 'buffer', bookType: 'xls' }) as Buffer;
};
const parseXls = (body: Buffer) => source.parse({ name: DAILY, body }) as Observation[];
const rates = (obs: Observation[]) => Object.fromEntries(obs.map((o) => [o.quote, o.rate]));

/** The July 2026 layout: title, the official dollar block, the currency block. */
const JULY_ROWS = (currencies: (string | number | null)[][]) => [
  ['GERENCIA DE OPERACIONES INTERNACIONALES'],
  ['TABLA No. 128-26'],
  ['TABLA DE COTIZACIONES DEL 13 DE JULIO      DE 2026'],
  [null],
  ['Cotizacion Oficial del Boliviano respecto al Dolar (BCB)'],
  ['Pais / Concepto', 'Moneda', 'Codigo', 'Tipo de Cambio Oficial (TCO) (Bs/USD)'],
  ['ESTADOS UNIDOS', 'DOLAR', 'USD', 10.4],
  [null],
  ['COTIZACION DE MONEDAS*'],
  ['Pais / Region', 'Moneda', 'Codigo', 'TIPO DE CAMBIO EN Bs POR UNIDAD DE MONEDA EXTRANJERA', 'TIPO CAMBIO EN M.E.'],
  ...currencies,
  [null],
  ['Cotizacion de UFV'],
  ['BOLIVIA (UFV)', 'UNIDAD DE FOMENTO DE VIVIENDA', 'Bs/UFV', 3.30658],
];
const EUR = ['UNION EUROPEA', 'EURO', 'EUR', 11.8716, 0.87604];

describe('BCEB recorded payloads', () => {
  test('every recorded file but SOURCE.md is accepted', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [JUNE, JULY, YEAR]);
  });

  test('table 106 of 10 June 2026, legacy layout: 44 currencies, USD at the official 6.86, gold and silver', () => {
    const obs = sheet(JUNE);
    assert.equal(obs.length, 46);
    assert.ok(obs.every((o) => o.date === '2026-06-10' && o.unit === 1 && o.direction === 'direct'));
    const r = rates(obs);
    assert.equal(r.USD, '6.86000');
    assert.equal(r.PAB, '6.86000');
    assert.equal(r.EUR, '7.92194');
    assert.equal(r.JPY, '0.04278');
    assert.equal(r.HKD, '0.87530');
    assert.equal(r.CNH, '1.01216');
    assert.equal(r.VES, '0.01254');
    assert.equal(r.VND, '0.00026');
    // Buy/sell dollar rows, the SDR (USD per SDR) and the UFV index are not rates against BOB.
    assert.ok(!obs.some((o) => ['USD.VENTA', 'USD.COMPRA', 'XDR'].includes(o.quote)));
    assert.equal(obs.filter((o) => o.quote === 'USD').length, 1);
    // ["ORO","ONZA TROY ORO",null,"USD./O.T.F.","4269.71000"]: USD per troy ounce, times the 6.86000.
    assert.equal(r.XAU, '29290.2106');
    assert.equal(r.XAG, '450.86321');
    assert.equal(new Decimal(r.XAU!).div(r.USD!).toString(), '4269.71');
    assert.equal(new Decimal(r.XAG!).div(r.USD!).toString(), '65.7235');
  });

  test('table 128 of 13 July 2026, new layout: the official rate (TCO), 22 currencies, gold and silver', () => {
    const obs = sheet(JULY);
    assert.equal(obs.length, 25);
    assert.ok(obs.every((o) => o.date === '2026-07-13' && o.unit === 1 && o.direction === 'direct'));
    const r = rates(obs);
    assert.equal(r.USD, '10.40');
    assert.equal(r.GBP, '13.93280');
    assert.equal(r.EUR, '11.87160');
    assert.equal(r.COP, '0.00320');
    assert.equal(r.CHF, '12.86174');
    assert.equal(r.UYU, '0.25855');
    assert.equal(r.DKK, undefined);
    // ["ORO","ONZA TROY ORO",null,"4098.7000"] under "Valor en USD/O.T.F.", times the TCO of 10.40.
    assert.equal(r.XAU, '42626.48');
    assert.equal(r.XAG, '619.24408');
    assert.equal(new Decimal(r.XAU!).div(r.USD!).toString(), '4098.7');
  });

  test('the 2007 archive: the COMPRA column of every business day', () => {
    const obs = sheet(YEAR);
    assert.equal(obs.length, 251);
    assert.ok(obs.every((o) => o.quote === 'USD' && o.unit === 1 && o.direction === 'direct'));
    const on = (d: string) => obs.find((o) => o.date === d)?.rate;
    assert.equal(on('2007-01-02'), '7.93');
    assert.equal(on('2007-02-21'), '7.9');
    assert.equal(on('2007-06-01'), '7.87');
    assert.equal(on('2007-12-31'), '7.57');
    assert.equal(on('2007-01-01'), undefined);
    assert.equal(obs.at(-1)!.date, '2007-12-31');
  });

  test('requests one optional table per weekday (the archive before 2008) and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(
      requests,
      [2, 3, 4, 5, 6].map((d) => ({ url: `http://127.0.0.1:1/librerias/indicadores/otras/otras_imprimir2XLS.php?qdd=${d}&qmm=3&qaa=2026`, optional: true })),
    );
    for (const r of requests) assert.ok(source.accepts(r.url), r.url);
    assert.deepEqual(
      source.requests({ from: '2007-12-28', to: '2008-01-02' }, { base: source.baseUrl }).map((r) => r.url),
      [
        'https://www.bcb.gob.bo/tiposDeCambioHistorico/xls.php?anio=2007',
        'https://www.bcb.gob.bo/librerias/indicadores/otras/otras_imprimir2XLS.php?qdd=1&qmm=1&qaa=2008',
        'https://www.bcb.gob.bo/librerias/indicadores/otras/otras_imprimir2XLS.php?qdd=2&qmm=1&qaa=2008',
      ],
    );

    const path = '/librerias/indicadores/otras/otras_imprimir2XLS.php?qdd=4&qmm=3&qaa=2026';
    const server = await startFeedServer({ [path]: { body: readFileSync(new URL(JULY, DIR)), contentType: 'application/vnd.ms-excel; charset=utf-8' } });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 1);
      assert.deepEqual(source.parse(payloads[0]!), sheet(JULY));
    } finally {
      await server.close();
    }
  });
});

describe('BCEB edge cases', () => {
  test('reads a table of its own making, UFV block left out', () => {
    assert.deepEqual(parseXls(fromRows(JULY_ROWS([EUR]))), [
      { date: '2026-07-13', quote: 'USD', rate: '10.4', unit: 1, direction: 'direct' },
      { date: '2026-07-13', quote: 'EUR', rate: '11.8716', unit: 1, direction: 'direct' },
    ]);
  });

  test('reads the metals block in dollars per troy ounce, and refuses one in another unit', () => {
    const metals = (unit: string, gold: string) => [[null], ['Cotizacion de Metales'], ['Metal', 'Unidad', null, unit], ['ORO', 'ONZA TROY ORO', null, gold]];
    assert.deepEqual(parseXls(fromRows([...JULY_ROWS([EUR]), ...metals('Valor en USD/O.T.F.', '4098.7000')])).at(-1), { date: '2026-07-13', quote: 'XAU', rate: '42626.48', unit: 1, direction: 'direct' });
    assert.throws(() => parseXls(fromRows([...JULY_ROWS([EUR]), ...metals('Valor en Bs/gramo', '4098.7000')])), /XAU on 2026-07-13 is not stated in USD per troy ounce/);
    const noDollar = [...JULY_ROWS([EUR]), ...metals('Valor en USD/O.T.F.', '4098.7000')].filter((r) => r[2] !== 'USD');
    assert.throws(() => parseXls(fromRows(noDollar)), /XAU on 2026-07-13: a metal in dollars, and no dollar rate/);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parseXls(Buffer.from('<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>')), /is not an XLS workbook/);
  });

  test('rejects a truncated file', () => {
    const full = fromRows(JULY_ROWS([EUR]));
    assert.throws(() => parseXls(full.subarray(0, full.length - 512)), /truncated workbook|not a readable workbook/);
  });

  test('rejects an empty table, a missing title and an unknown code', () => {
    const empty = JULY_ROWS([]).filter((r) => r[2] !== 'USD');
    assert.throws(() => parseXls(fromRows(empty)), /holds no rates/);
    assert.throws(() => parseXls(fromRows(JULY_ROWS([EUR]).slice(3))), /no "TABLA DE COTIZACIONES DEL …" title/);
    assert.throws(() => parseXls(fromRows(JULY_ROWS([['SUDAN', 'LIBRA', 'S.D.G.', 0.011, 600]]))), /unknown code "S.D.G."/);
    assert.throws(() => parseXls(fromRows(JULY_ROWS([['UNION EUROPEA', 'EURO', 'EUR', 'n/d', null]]))), /EUR on 2026-07-13: not a number/);
  });

  test('accepts the daily table and the yearly archive only', () => {
    assert.ok(source.accepts(DAILY));
    assert.ok(source.accepts('https://www.bcb.gob.bo/tiposDeCambioHistorico/xls.php?anio=2007'));
    assert.ok(!source.accepts('https://www.bcb.gob.bo/?q=cotizaciones_tc'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
