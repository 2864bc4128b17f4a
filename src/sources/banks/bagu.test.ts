// BAGU, Banco de Guatemala: grade A (complete VCR recording, SOURCES-2.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './bagu.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BAGU');
const FILE = 'banguat-TipoCambio-soap-2026-03-24.xml';
const parseText = (text: string) => source.parse({ name: 'https://www.banguat.gob.gt/variables/ws/TipoCambio.asmx', body: Buffer.from(text) }) as Observation[];
const recorded = () => source.parse({ name: FILE, body: readFileSync(new URL(FILE, DIR)) }) as Observation[];
const rateOn = (obs: Observation[], date: string) => obs.find((o) => o.date === date)?.rate;

/** A TipoCambioRango answer as the service writes it: one line, no blanks between elements. */
const envelope = (vars: string, total = 1) =>
  '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body>' +
  `<TipoCambioRangoResponse xmlns="http://www.banguat.gob.gt/variables/ws/"><TipoCambioRangoResult><Vars>${vars}</Vars><TotalItems>${total}</TotalItems></TipoCambioRangoResult></TipoCambioRangoResponse></soap:Body></soap:Envelope>`;
const VAR = '<Var><moneda>2</moneda><fecha>23/03/2026</fecha><venta>7.65250</venta><compra>7.65250</compra></Var>';

describe('BAGU recorded payload', () => {
  test('every recorded file but SOURCE.md is accepted', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('TipoCambioRango 01/03–20/03/2026: twenty calendar days of GTQ per USD', () => {
    const obs = recorded();
    assert.equal(obs.length, 20);
    assert.deepEqual(obs.map((o) => o.date), Array.from({ length: 20 }, (_, i) => `2026-03-${String(i + 1).padStart(2, '0')}`));
    assert.ok(obs.every((o) => o.quote === 'USD' && o.unit === 1 && o.direction === 'direct' && o.table === undefined));
    assert.equal(rateOn(obs, '2026-03-01'), '7.66476');
    assert.equal(rateOn(obs, '2026-03-03'), '7.6658');
    assert.equal(rateOn(obs, '2026-03-12'), '7.6605');
    // Saturday and Sunday repeat Friday's figure, as published.
    assert.deepEqual(['2026-03-06', '2026-03-07', '2026-03-08'].map((d) => rateOn(obs, d)), ['7.66271', '7.66271', '7.66271']);
    assert.equal(rateOn(obs, '2026-03-20'), '7.65366');
  });

  test('posts TipoCambioRango for the window and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const [request, ...more] = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.equal(more.length, 0);
    assert.equal(request!.url, 'http://127.0.0.1:1/variables/ws/TipoCambio.asmx');
    assert.equal(request!.method, 'POST');
    assert.deepEqual(request!.headers, { 'content-type': 'text/xml; charset=utf-8', soapaction: '"http://www.banguat.gob.gt/variables/ws/TipoCambioRango"' });
    assert.match(request!.body!, /<TipoCambioRango xmlns="http:\/\/www\.banguat\.gob\.gt\/variables\/ws\/"><fechainit>02\/03\/2026<\/fechainit><fechafin>06\/03\/2026<\/fechafin><\/TipoCambioRango>/);
    assert.ok(source.accepts(request!.name ?? request!.url));
    assert.ok(source.accepts(source.feedUrl));

    const server = await startFeedServer({ '/variables/ws/TipoCambio.asmx': { body: readFileSync(new URL(FILE, DIR)), contentType: 'text/xml; charset=utf-8' } });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p) as Observation[]), recorded());
      assert.equal(server.requests[0]!.method, 'POST');
      assert.equal(server.requests[0]!.body, request!.body);
    } finally {
      await server.close();
    }
  });
});

describe('BAGU edge cases', () => {
  test('keeps the published digits', () => {
    assert.deepEqual(parseText(envelope(VAR)), [{ date: '2026-03-23', quote: 'USD', rate: '7.65250', unit: 1, direction: 'direct' }]);
  });

  test('rejects an HTML error page', () => {
    const html = '<!DOCTYPE html><html><head><title>Runtime Error</title></head><body><h1>Server Error in \'/variables\' Application.</h1></body></html>';
    assert.throws(() => parseText(html), ParseError);
  });

  test('rejects a truncated envelope', () => {
    const full = envelope(VAR);
    assert.throws(() => parseText(full.slice(0, full.indexOf('</compra>'))), /not well-formed XML/);
  });

  test('rejects an empty range and a SOAP fault', () => {
    assert.throws(() => parseText(envelope('', 0)), /holds no rates/);
    const fault =
      '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode>' +
      '<faultstring>Server was unable to process request. ---&gt; String was not recognized as a valid DateTime.</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>';
    assert.throws(() => parseText(fault), /SOAP fault: Server was unable/);
  });

  test('rejects another currency number, a bad date and a split buy/sell', () => {
    assert.throws(() => parseText(envelope(VAR.replace('<moneda>2<', '<moneda>24<'))), /unknown moneda "24"/);
    assert.throws(() => parseText(envelope(VAR.replace('23/03/2026', '2026-03-23'))), /bad fecha/);
    assert.throws(() => parseText(envelope(VAR.replace('<compra>7.65250', '<compra>7.60000'))), /venta 7.65250 and compra 7.60000 differ/);
  });

  test('accepts the service URL and the recorded name only', () => {
    assert.ok(source.accepts('http://mirror.internal/variables/ws/TipoCambio.asmx'));
    assert.ok(!source.accepts('https://www.banguat.gob.gt/tipo_cambio/'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
