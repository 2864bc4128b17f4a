// BCPA recorded payloads are grade A (complete VCR recordings, SOURCES-2.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './bcpa.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BCPA');

const file = (c: string) => `bcp-monedas-historica-2024-${c}.html`;
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const parse = (body: string, name = 'monedas-historica?anho=2025&moneda=USD') => source.parse({ name, body: Buffer.from(body) });
const rate = (obs: Observation[], date: string) => obs.find((o) => o.date === date)?.rate;

/** A page in the recorded layout: the selector, the title table, then the day x month grid. */
function page(rows: string[], opts: { code?: string; name?: string; year?: string } = {}): string {
  const { code = 'USD', name = 'DOLAR AMERICANO', year = '2025' } = opts;
  const cell = (v: string) => `<td style="text-align:center;">${v}</td>`;
  const header = `<tr><th>#</th>${'ENE FEB MAR ABR MAY JUN JUL AGO SEP OCT NOV DIC'.split(' ').map((m) => `<th>${m}</th>`).join('')}</tr>`;
  const body = rows.map((r, i) => `<tr><th>${i + 1}</th>${r.split(' ').map(cell).join('')}</tr>`).join('');
  return `<!DOCTYPE html><html><head><meta charset="UTF-8" /></head><body><form><select name="moneda" class="input-small">
    <option value="${code}"  selected="selected"   >${name}</option><option value="EUR"  >EURO</option></select></form>
    <table id="cotizacion-interbancaria"><thead><tr><th colspan="5">PLANILLA DE COTIZACIONES DEL A&Ntilde;O ${year} DE MONEDA ${name}</th></tr></thead>
    </table><table id="cotizacion-interbancaria"><tbody>${header}${body}</tbody></table></body></html>`;
}
const ND = Array(12).fill('ND').join(' ');
const FULL = Array.from({ length: 31 }, (_, d) => (d === 1 ? `7.281,04 ${Array(11).fill('ND').join(' ')}` : ND));

describe('BCPA recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), ['EUR', 'JPY', 'USD', 'XAU'].map(file));
  });

  test('USD 2024: 250 trading days, PYG per 1 dollar from Spanish-format cells', () => {
    const obs = parseFile(file('USD'));
    assert.equal(obs.length, 250);
    assert.ok(obs.every((o) => o.quote === 'USD' && o.unit === 1 && o.direction === 'direct'));
    assert.equal(obs[0]!.date, '2024-01-02');
    assert.equal(obs.at(-1)!.date, '2024-12-30');
    assert.deepEqual(obs.map((o) => o.date), [...obs.map((o) => o.date)].sort());
    assert.equal(rate(obs, '2024-01-02'), '7281.04');
    assert.equal(rate(obs, '2024-02-01'), '7271.63');
    assert.equal(rate(obs, '2024-10-24'), '8000.53');
    // Published "7.543,00": the trailing zeros stay.
    assert.equal(rate(obs, '2024-07-10'), '7543.00');
    // "ND": New Year's Day and weekends have no figure.
    assert.equal(rate(obs, '2024-01-01'), undefined);
    assert.equal(rate(obs, '2024-01-06'), undefined);
  });

  test('EUR and JPY 2024: JPY is per 1 yen, not per 100', () => {
    const eur = parseFile(file('EUR'));
    assert.equal(eur.length, 250);
    assert.ok(eur.every((o) => o.quote === 'EUR' && o.unit === 1 && o.direction === 'direct'));
    assert.equal(rate(eur, '2024-01-02'), '7983.66');
    assert.equal(rate(eur, '2024-10-24'), '8642.97');
    assert.equal(rate(eur, '2024-12-30'), '8145.29');
    const jpy = parseFile(file('JPY'));
    assert.equal(jpy.length, 250);
    assert.ok(jpy.every((o) => o.quote === 'JPY' && o.unit === 1));
    assert.equal(rate(jpy, '2024-02-01'), '49.57');
    assert.equal(rate(jpy, '2024-07-10'), '46.64');
  });

  test('XAU 2024: gold in PYG per troy ounce, millions with dot thousands', () => {
    const obs = parseFile(file('XAU'));
    assert.equal(obs.length, 250);
    assert.ok(obs.every((o) => o.quote === 'XAU' && o.unit === 1 && o.direction === 'direct'));
    assert.equal(rate(obs, '2024-02-01'), '14889462.30');
    // 2,048 USD at the bank's own dollar of the day (7271.63): the price of an ounce (D19).
    assert.equal((14889462.3 / 7271.63).toFixed(0), '2048');
    assert.equal(rate(obs, '2024-02-06'), '14847350.00');
    assert.equal(rate(obs, '2024-10-24'), '21839446.77');
  });

  test('requests every currency page of each year and reads what a feed server sends back', async () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.equal(requests.length, 21);
    assert.deepEqual(requests[0], { url: 'http://127.0.0.1:1/cotizacion/monedas-historica?anho=2026&moneda=USD' });
    assert.ok(requests.some((r) => r.url.endsWith('anho=2026&moneda=XAU')));
    assert.ok(!requests.some((r) => r.url.endsWith('moneda=SDR')));
    assert.equal(source.requests({ from: '2025-12-30', to: '2026-01-02' }, { base: source.baseUrl }).length, 42);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    // Served a 2024 window, the four recorded pages at their currencies; the other currencies get the
    // USD page retitled to what was asked.
    const usd = readFileSync(new URL(file('USD'), DIR), 'utf8');
    const recorded = new Set(['USD', 'EUR', 'JPY', 'XAU']);
    const server = await startFeedServer((path) => {
      const m = /^\/cotizacion\/monedas-historica\?anho=2024&moneda=([A-Z]{3})$/.exec(path);
      if (!m) return undefined;
      if (recorded.has(m[1]!)) return { body: readFileSync(new URL(file(m[1]!), DIR)) };
      return { body: usd.replace('"USD"  selected="selected"   >DOLAR AMERICANO', `"${m[1]}"  selected="selected"   >X`).replace('MONEDA DOLAR AMERICANO', 'MONEDA X') };
    });
    try {
      const payloads = await fetchSource(source, { from: '2024-03-04', to: '2024-03-08' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 21);
      assert.equal(server.requests.length, 21);
      for (const c of recorded) {
        const p = payloads.find((x) => x.name.endsWith(`moneda=${c}`))!;
        assert.deepEqual(source.parse(p), parseFile(file(c)));
      }
      const cad = payloads.find((x) => x.name.endsWith('moneda=CAD'))!;
      assert.ok((source.parse(cad) as Observation[]).every((o) => o.quote === 'CAD'));
      // A page for another year than the one asked is refused.
      assert.throws(() => source.parse({ ...cad, name: cad.name.replace('anho=2024', 'anho=2026') }), /answered with CAD 2024/);
    } finally {
      await server.close();
    }
  });
});

describe('BCPA edge cases', () => {
  test('reads a grid in the recorded layout, skipping ND cells', () => {
    assert.deepEqual(parse(page(FULL)), [{ date: '2025-01-02', quote: 'USD', rate: '7281.04', unit: 1, direction: 'direct' }]);
  });

  test('an all-ND grid (SDR, a year before the series starts) is no publication', () => {
    const sdr = page(Array(31).fill(ND), { code: 'SDR', name: 'DERECHO ESPECIAL DE GIRO' });
    assert.throws(() => parse(sdr, 'monedas-historica?anho=2025&moneda=SDR'), NoPublication);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<html><head><title>502 Bad Gateway</title></head><body><center>cloudflare</center></body></html>'), ParseError);
  });

  test('rejects a truncated page and an empty table', () => {
    const full = page(FULL);
    assert.throws(() => parse(full.slice(0, full.indexOf('<tr><th>20</th>'))), /grid has 19 day rows/);
    assert.throws(() => parse(page([])), /grid has 0 day rows/);
  });

  test('rejects a page for another currency or year than asked, and odd cells', () => {
    assert.throws(() => parse(page(FULL), 'monedas-historica?anho=2025&moneda=EUR'), /answered with USD 2025/);
    assert.throws(() => parse(page(FULL).replace('MONEDA DOLAR AMERICANO', 'MONEDA EURO')), /does not match the title/);
    assert.throws(() => parse(page(FULL.map((r, i) => (i === 1 ? r.replace('7.281,04', '7,281.04') : r)))), /not a Spanish-format number/);
    const feb30 = FULL.map((r, i) => (i === 29 ? `ND 7.300,00 ${Array(10).fill('ND').join(' ')}` : r));
    assert.throws(() => parse(page(feb30)), /impossible date 2025-02-30/);
  });

  test('accepts the history pages only', () => {
    assert.ok(source.accepts('https://www.bcp.gov.py/webapps/web/cotizacion/monedas-historica?anho=2024&moneda=EUR'));
    assert.ok(!source.accepts('https://www.bcp.gov.py/webapps/web/cotizacion/monedas-historica/pdf'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
