import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './brep.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BREP');
const FILE = 'datos.gov.co-32sa-8pi3-TRM-from-2026-03-16.json';

const NAME = 'https://www.datos.gov.co/resource/32sa-8pi3.json?$order=vigenciadesde%20DESC&$limit=1';
const parse = (body: string) => source.parse({ name: NAME, body: Buffer.from(body) });
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], date: string) => obs.find((o) => o.date === date)?.rate;
const trm = (valor: string, from: string, to = from, unidad = 'COP') =>
  `{"valor":"${valor}","unidad":"${unidad}","vigenciadesde":"${from}T00:00:00.000","vigenciahasta":"${to}T00:00:00.000"}`;

describe('BREP recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('five TRM rows, the last valid from Saturday 21 to Tuesday 24 March', () => {
    const obs = parseFile(FILE);
    assert.deepEqual(obs.map((o) => o.date), ['2026-03-17', '2026-03-18', '2026-03-19', '2026-03-20', '2026-03-21', '2026-03-22', '2026-03-23', '2026-03-24']);
    assert.ok(obs.every((o) => o.quote === 'USD' && o.unit === 1 && o.direction === 'direct'));
    assert.equal(rate(obs, '2026-03-17'), '3691.9');
    assert.equal(rate(obs, '2026-03-18'), '3689.97');
    assert.equal(rate(obs, '2026-03-19'), '3704.17');
    assert.equal(rate(obs, '2026-03-20'), '3692.48');
    // One row covers the weekend, the San José holiday Monday and Tuesday.
    for (const d of ['2026-03-21', '2026-03-22', '2026-03-23', '2026-03-24']) assert.equal(rate(obs, d), '3704.87', d);
  });
});

describe('BREP edge cases', () => {
  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<!DOCTYPE html><html><head><title>datos.gov.co | Error</title></head><body>Something went wrong</body></html>'), ParseError);
  });

  test('rejects a truncated payload', () => {
    const full = `[${trm('3691.9', '2026-03-17')}\n,${trm('3689.97', '2026-03-18')}]`;
    assert.throws(() => parse(full.slice(0, full.length - 40)), /not JSON/);
  });

  test('rejects an empty table and a Socrata error', () => {
    assert.throws(() => parse('[]'), /holds no rates/);
    const error = '{"code":"query.compiler.malformed","error":true,"message":"Could not parse SoQL query","data":{}}';
    assert.throws(() => parse(error), /Could not parse SoQL query/);
  });

  test('rejects rows in another unit, with bad values or validity ranges', () => {
    assert.throws(() => parse(`[${trm('3691.9', '2026-03-17', '2026-03-17', 'USD')}]`), /not COP/);
    assert.throws(() => parse(`[${trm('3.691,9x', '2026-03-17')}]`), /bad valor/);
    assert.throws(() => parse(`[${trm('3691.9', '2026-03-17', '2026-03-16')}]`), /not a range/);
    assert.throws(() => parse(`[${trm('3691.9', '2026-03-01', '2026-03-31')}]`), /not a range/);
    assert.throws(() => parse('[{"valor":"3691.9","unidad":"COP","vigenciadesde":"17/03/2026","vigenciahasta":"2026-03-17T00:00:00.000"}]'), /bad vigenciadesde/);
  });

  test('accepts the TRM dataset in JSON only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.datos.gov.co/resource/32sa-8pi3.csv'));
    assert.ok(!source.accepts('https://www.datos.gov.co/resource/abcd-1234.json'));
    assert.ok(!source.accepts('SOURCE.md'));
  });

  test('builds one request for every TRM whose validity overlaps the window', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    const where = "vigenciahasta >= '2026-03-02T00:00:00.000' AND vigenciadesde <= '2026-03-06T00:00:00.000'";
    assert.equal(requests.length, 1);
    assert.equal(requests[0]!.url, `http://127.0.0.1:1/resource/32sa-8pi3.json?$where=${encodeURIComponent(where).replaceAll("'", '%27')}&$order=vigenciadesde%20ASC&$limit=1000`);
    assert.equal(new URL(requests[0]!.url).searchParams.get('$where'), where);
    assert.ok(source.accepts(requests[0]!.url));
  });
});

describe('BREP round trip through the local feed server', () => {
  test('reads the served payload like the recorded file', async () => {
    const server = await startFeedServer({ '/resource/32sa-8pi3.json': { body: readFileSync(new URL(FILE, DIR)), contentType: 'application/json;charset=utf-8' } });
    try {
      const window = { from: '2026-03-16', to: '2026-03-24' };
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 1);
      // What reached the server is exactly the request built, byte for byte.
      assert.equal(`${server.url}${server.requests[0]!.url}`, source.requests(window, { base: server.url })[0]!.url);
      assert.deepEqual(source.parse(payloads[0]!), parseFile(FILE));
    } finally {
      await server.close();
    }
  });
});
