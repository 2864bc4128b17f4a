import assert from 'node:assert/strict';
import { XMLValidator } from 'fast-xml-parser';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { BCU_CURRENCIES, source } from './cbcu.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('CBCU');
const FILE = 'awsbcucotizaciones-2225-USD-2026-03-27_2026-03-31.xml';

const NAME = 'https://cotizaciones.bcu.gub.uy/wscotizaciones/servlet/awsbcucotizaciones';
const parse = (body: string) => source.parse({ name: NAME, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });

const dato = (date: string, moneda: string, tcc: string, tcv = tcc) => `<datoscotizaciones.dato xmlns="Cotiza"><Fecha>${date}</Fecha><Moneda>${moneda}</Moneda><Nombre>X</Nombre><CodigoISO>X</CodigoISO><Emisor>X</Emisor><TCC>${tcc}</TCC><TCV>${tcv}</TCV><ArbAct>1.000000</ArbAct><FormaArbitrar>0</FormaArbitrar></datoscotizaciones.dato>`;
const answer = (rows: string, status = '<status>1</status><codigoerror>0</codigoerror><mensaje/>') => `<?xml version="1.0" encoding="utf-8"?>
<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body><wsbcucotizaciones.ExecuteResponse xmlns="Cotiza"><Salida xmlns="Cotiza">
<respuestastatus>${status}</respuestastatus><datoscotizaciones>${rows}</datoscotizaciones></Salida></wsbcucotizaciones.ExecuteResponse></SOAP-ENV:Body></SOAP-ENV:Envelope>`;

describe('CBCU recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('interbank dollar (2225) over three business days, UYU per 1 USD', () => {
    assert.deepEqual(parseFile(FILE), [
      // TCC and TCV are both published as 40.560000: one closing figure, kept with its six decimals.
      { date: '2026-03-27', quote: 'USD', rate: '40.560000', unit: 1, direction: 'direct' },
      { date: '2026-03-30', quote: 'USD', rate: '40.626000', unit: 1, direction: 'direct' },
      { date: '2026-03-31', quote: 'USD', rate: '40.480000', unit: 1, direction: 'direct' },
    ]);
  });
});

describe('CBCU edge cases', () => {
  test('maps BCU numbers with or without leading zeros and skips buy/sell pairs', () => {
    const obs = parse(answer(dato('2026-03-27', '1111', '46.571290') + dato('2026-03-27', '0500', '0.029100') + dato('2026-03-27', '1000', '7.70', '7.90')));
    assert.deepEqual(obs, [
      { date: '2026-03-27', quote: 'EUR', rate: '46.571290', unit: 1, direction: 'direct' },
      { date: '2026-03-27', quote: 'ARS', rate: '0.029100', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<html><head><title>500 Internal Server Error</title></head><body><h1>Error</h1><br></body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    const full = answer(dato('2026-03-27', '2225', '40.560000'));
    assert.throws(() => parse(full.slice(0, full.indexOf('</TCV>'))), /not well-formed/);
  });

  test('rejects an empty table, a BCU error and a SOAP fault', () => {
    assert.throws(() => parse(answer('')), /holds no rates/);
    assert.throws(() => parse(answer('', '<status>0</status><codigoerror>100</codigoerror><mensaje>No existen cotizaciones para los datos ingresados</mensaje>')), /BCU says 100 No existen/);
    const fault = '<?xml version="1.0"?><SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body><SOAP-ENV:Fault><faultcode>SOAP-ENV:Client</faultcode><faultstring>Invalid request</faultstring></SOAP-ENV:Fault></SOAP-ENV:Body></SOAP-ENV:Envelope>';
    assert.throws(() => parse(fault), /SOAP fault: Invalid request/);
  });

  test('"no quotes for the data given" (code 100) is no publication; other BCU errors are faults', () => {
    assert.throws(() => parse(answer('', '<status>0</status><codigoerror>100</codigoerror><mensaje>No existen cotizaciones para los datos ingresados</mensaje>')), NoPublication);
    const other = answer('', '<status>0</status><codigoerror>5</codigoerror><mensaje>Error interno</mensaje>');
    assert.throws(() => parse(other), (err) => err instanceof ParseError && !(err instanceof NoPublication) && /BCU says 5 Error interno/.test(err.message));
  });

  test('rejects unknown currency numbers and bad figures', () => {
    assert.throws(() => parse(answer(dato('2026-03-27', '9999', '1.0'))), /"9999" on 2026-03-27 has no ISO code/);
    assert.throws(() => parse(answer(dato('2026-03-27', '2225', '40,56x'))), /bad TCC\/TCV/);
    assert.throws(() => parse(answer(dato('27/03/2026', '2225', '40.56'))), /bad Fecha/);
  });

  test('accepts the service and its recorded answers, not the WSDL', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts(`${NAME}?wsdl`));
    assert.ok(!source.accepts('SOURCE.md'));
  });

  test('builds one SOAP POST per currency for the window', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.equal(requests.length, Object.keys(BCU_CURRENCIES).length);
    const usd = requests.find((r) => r.name?.endsWith('#2225-USD-2026-03-02_2026-03-06'));
    assert.ok(usd);
    assert.equal(usd.url, 'http://127.0.0.1:1/wscotizaciones/servlet/awsbcucotizaciones');
    assert.equal(usd.method, 'POST');
    assert.deepEqual(usd.headers, { 'content-type': 'text/xml; charset=utf-8' });
    assert.match(usd.body!, /<cot:Moneda><cot:item>2225<\/cot:item><\/cot:Moneda>\s*<cot:FechaDesde>2026-03-02<\/cot:FechaDesde>\s*<cot:FechaHasta>2026-03-06<\/cot:FechaHasta>\s*<cot:Grupo>0<\/cot:Grupo>/);
    assert.equal(XMLValidator.validate(usd.body!), true);
    for (const r of requests) assert.ok(source.accepts(r.url) && source.accepts(r.name!), r.name);
  });
});

describe('CBCU round trip through the local feed server', () => {
  test('posts the envelopes and reads the served payload like the recorded file', async () => {
    const server = await startFeedServer({ '/wscotizaciones/servlet/awsbcucotizaciones': { body: readFileSync(new URL(FILE, DIR)), contentType: 'text/xml;charset=utf-8' } });
    try {
      const payloads = await fetchSource(source, { from: '2026-03-27', to: '2026-03-31' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, Object.keys(BCU_CURRENCIES).length);
      assert.ok(server.requests.every((r) => r.method === 'POST' && r.headers['content-type'] === 'text/xml; charset=utf-8'));
      const usd = server.requests.findIndex((r) => r.body.includes('<cot:item>2225</cot:item>'));
      assert.ok(usd >= 0);
      assert.deepEqual(source.parse(payloads[usd]!), parseFile(FILE));
    } finally {
      await server.close();
    }
  });
});
