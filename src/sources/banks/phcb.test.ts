// Bangko Sentral ng Pilipinas. Recorded payloads grade C (SOURCES-2.md): real bodies (a genuine
// SharePoint answer, linearized PDFs) in a hand-assembled cassette.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { source } from './phcb.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('PHCB');
const MAY28 = 'bsp-RERB-28May2026.pdf';
const MAY29 = 'bsp-RERB-29May2026.pdf';
const LIST = 'bsp-RERB-list-items-top100.json';
const PDF_URL = 'https://www.bsp.gov.ph/Lists/RERB/Attachments/2281/28May2026.pdf';

const parseBody = (body: Buffer | string, name = PDF_URL) => source.parse({ name, body: Buffer.from(body) }) as Promise<Observation[]>;
const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Promise<Observation[]>;
const rates = (obs: Observation[], quotes: string[]) => quotes.map((q) => `${q} ${obs.find((o) => o.quote === q)?.rate}`).join(', ');

const CCY = 'AED ARS AUD BHD BND BRL CAD CHF CNY DKK EUR GBP HKD IDR INR JPY KRW MXN MYR NOK NZD PKR SAR SEK SGD SYP THB TWD USD VES ZAR'.split(' ');

describe('PHCB recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [MAY28, MAY29, LIST]);
  });

  test('bulletin of 28 May 2026: the Reference Rate for USD, peso equivalents for 30 others, KWD N/A', async () => {
    const obs = await parseFile(MAY28);
    assert.ok(obs.every((o) => o.date === '2026-05-28' && o.unit === 1 && o.direction === 'direct'));
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY);
    // "BSP Reference Rate: PHP 61.550", not the table's 61.5820.
    assert.equal(rates(obs, ['USD']), 'USD 61.550');
    assert.equal(rates(obs, ['EUR', 'JPY', 'GBP', 'BHD', 'IDR', 'THB', 'CNY', 'VES']), 'EUR 71.6260, JPY 0.3862, GBP 82.6985, BHD 163.3692, IDR 0.0034, THB 1.8893, CNY 9.0838, VES 0.1134');
    assert.ok(!obs.some((o) => o.quote === 'KWD'));
  });

  test('bulletin of 29 May 2026', async () => {
    const obs = await parseFile(MAY29);
    assert.ok(obs.every((o) => o.date === '2026-05-29'));
    assert.deepEqual(obs.map((o) => o.quote).sort(), CCY);
    assert.equal(rates(obs, ['USD', 'EUR', 'KRW', 'TWD', 'ZAR', 'SYP']), 'USD 61.600, EUR 71.8392, KRW 0.0412, TWD 1.9627, ZAR 3.7938, SYP 0.5580');
  });

  test('the bulletin list holds links, not rates', async () => {
    await assert.rejects(parseFile(LIST), (err: unknown) => err instanceof NoPublication && /lists 100 bulletins \(newest 01Jun2026\)/.test(err.message));
  });
});

/** A one-page PDF with a text layer, one text line per entry, as BSP's bulletin reads. */
function pdf(lines: string[]): Buffer {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const stream = `BT /F1 9 Tf 40 800 Td 12 TL ${lines.map((l) => `(${esc(l)}) Tj T*`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets = objects.map((o, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  return Buffer.from(`${out}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`, 'latin1');
}

describe('PHCB edge cases', () => {
  const HEAD = ['BANGKO SENTRAL NG PILIPINAS', 'FINANCIAL MARKETS', 'REFERENCE EXCHANGE RATE BULLETIN', '28 May 2026', 'EURO U.S.DOLLAR PHIL.PESO', 'EQUIVALENT EQUIVALENT EQUIVALENT'];
  const TABLE = ['1 UNITED STATES DOLLAR USD 0.859771 1.000000 61.5820', '2 JAPAN YEN JPY 0.005392 0.006271 0.3862', '3 KUWAIT DINAR KWD N/A N/A N/A', '4 CHINA YUAN** CNY 0.126823 0.147508 9.0838'];
  const FOOT = ['BSP Buying Rate (T/T): PHP 61.300 GOLD BUYING: $ 4,446.85', 'BSP Reference Rate: PHP 61.550', 'SDR Rate: $ 1.36839 /SDR'];

  test('reads the Reference Rate and the peso column, skipping N/A rows and footnote stars', async () => {
    assert.deepEqual(await parseBody(pdf([...HEAD, ...TABLE, ...FOOT])), [
      { date: '2026-05-28', quote: 'USD', rate: '61.550', unit: 1, direction: 'direct' },
      { date: '2026-05-28', quote: 'JPY', rate: '0.3862', unit: 1, direction: 'direct' },
      { date: '2026-05-28', quote: 'CNY', rate: '9.0838', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', async () => {
    const html = '<!DOCTYPE html><html><head><title>Sorry, something went wrong</title></head><body></body></html>';
    await assert.rejects(parseBody(html), /not a whole PDF/);
    await assert.rejects(parseBody(html, source.feedUrl), /not JSON/);
  });

  test('rejects truncated payloads', async () => {
    const whole = pdf([...HEAD, ...TABLE, ...FOOT]);
    await assert.rejects(parseBody(whole.subarray(0, whole.length - 40)), /not a whole PDF/);
    await assert.rejects(parseBody('{"d":{"results":[{"__metadata":{"id":"03f5e602"', source.feedUrl), /not JSON/);
  });

  test('rejects an empty table, a missing Reference Rate, a scan and a skipped row', async () => {
    await assert.rejects(parseBody(pdf([...HEAD, ...FOOT])), /empty currency table/);
    await assert.rejects(parseBody(pdf([...HEAD, ...TABLE])), /no BSP Reference Rate/);
    await assert.rejects(parseBody(pdf(['Classification: GENERAL'])), /not a Reference Exchange Rate Bulletin/);
    await assert.rejects(parseBody(pdf([...HEAD, TABLE[0]!, TABLE[2]!, ...FOOT])), /table row 2 is missing or unreadable/);
    await assert.rejects(parseBody(pdf([...HEAD, '1 JAPAN YEN JPY 0.005392 0.006271 0.3862*', ...FOOT])), /JPY on 2026-05-28: not a number/);
    await assert.rejects(parseBody('{"d":{"error":"Access denied"}}', source.feedUrl), (err: unknown) => err instanceof ParseError && !(err instanceof NoPublication));
  });

  test('accepts the list and its bulletins only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts(PDF_URL));
    assert.ok(!source.accepts('https://www.bsp.gov.ph/SitePages/Statistics/ExchangeRate.aspx'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});

describe('PHCB requests', () => {
  const base = 'http://127.0.0.1:1';
  const LIST_PATH = "/_api/web/lists/getByTitle('RERB')/items";
  const listPage = () => ({ name: 'list', url: `${base}${LIST_PATH}?$top=100`, body: readFileSync(new URL(LIST, DIR)) });

  test('the newest 100 list items, as JSON, to follow', () => {
    const requests = source.requests({ from: '2026-03-02', to: '2026-03-06' }, { base, key: 'k' });
    assert.deepEqual(requests, [
      {
        url: `${base}${LIST_PATH}?$expand=AttachmentFiles&$orderby=Id%20desc&$select=Id,Title,AttachmentFiles&$top=100`,
        headers: { accept: 'application/json;odata=verbose' },
        follow: true,
      },
    ]);
  });

  test("follows the list to the window's bulletins, on the base URL", () => {
    const requests = source.follow!(listPage(), { from: '2026-05-27', to: '2026-05-31' }, { base });
    assert.deepEqual(requests, [
      { url: `${base}/Lists/RERB/Attachments/2282/29May2026.pdf` },
      { url: `${base}/Lists/RERB/Attachments/2281/28May2026.pdf` },
    ]);
    assert.ok(requests.every((r) => source.accepts(r.url)));
  });

  test('asks for the next list page while the window reaches past the oldest bulletin listed', () => {
    // The list's oldest item is 2 January 2026: a window from 2025 needs the next page.
    const requests = source.follow!(listPage(), { from: '2025-12-29', to: '2026-01-05' }, { base });
    assert.deepEqual(requests.map((r) => r.url.replace(/\?.*/, '')), [
      `${base}/Lists/RERB/Attachments/2185/05Jan2026.pdf`,
      `${base}/Lists/RERB/Attachments/2184/02Jan2026.pdf`,
      `${base}${LIST_PATH}`,
    ]);
    assert.equal(requests[2]!.follow, true);
    assert.match(requests[2]!.url, /skiptoken=Paged%3dTRUE%26p_ID%3d2184/);
    assert.deepEqual(source.follow!(listPage(), { from: '2026-01-02', to: '2026-01-05' }, { base }).filter((r) => r.follow), []);
  });

  test('a list answer without results is an error', () => {
    assert.throws(() => source.follow!({ name: 'list', url: base, body: Buffer.from('{"error":{"code":"-1"}}') }, { from: '2026-05-27', to: '2026-05-31' }, { base }), /no d\.results/);
  });

  test('round trip through a local feed server: the list, then its bulletins', async () => {
    const server = await startFeedServer({
      [LIST_PATH]: { body: readFileSync(new URL(LIST, DIR)), contentType: 'application/json;odata=verbose;charset=utf-8' },
      '/Lists/RERB/Attachments/2281/28May2026.pdf': { body: readFileSync(new URL(MAY28, DIR)), contentType: 'application/pdf' },
      '/Lists/RERB/Attachments/2282/29May2026.pdf': { body: readFileSync(new URL(MAY29, DIR)), contentType: 'application/pdf' },
    });
    try {
      const payloads = await fetchSource(source, { from: '2026-05-28', to: '2026-05-29' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(server.requests[0]!.headers.accept, 'application/json;odata=verbose');
      assert.deepEqual(payloads.map((p) => p.name), [`${server.url}/Lists/RERB/Attachments/2282/29May2026.pdf`, `${server.url}/Lists/RERB/Attachments/2281/28May2026.pdf`]);
      const obs = (await Promise.all(payloads.map((p) => source.parse(p)))).flat();
      assert.deepEqual(obs, [...(await parseFile(MAY29)), ...(await parseFile(MAY28))]);
    } finally {
      await server.close();
    }
  });
});
