// BRBU payloads are grade A (SOURCES-2.md): complete recordings.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './brbu.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BRBU');
const INDEX = 'brb-affichagetoustauxchange-2026-05-24.html';
const pdf = (day: string) => `brb-cours-de-change-2026-05-${day}.pdf`;

// The PDF reader is asynchronous: every parse is awaited.
const parse = async (body: Buffer | string, name = 'Cours%20de%20change%20du%2005-03-2026.pdf') => source.parse({ name, body: Buffer.from(body) });
const parseFile = async (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) });
const rate = (obs: Observation[], quote: string) => obs.find((o) => o.quote === quote)?.rate;

const ALL = 'AUD CAD CHF CNY DKK EUR GBP JPY KES KWD NOK RWF SAR SEK TZS UGX USD XDR ZAR'.split(' ');

/** A one-page PDF with one text line per entry, laid out top-down like the bulletin. */
function bulletinPdf(lines: string[]): Buffer {
  const text = lines.map((l, i) => `BT /F1 9 Tf 54 ${741 - 15 * i} Td (${l}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
const HEAD = ['BANQUE DE LA REPUBLIQUE', 'DU BURUNDI', 'MONNAIES ETRANGERES Acheteur Cours moyen jour Vendeur'];
const FOOT = ['* Monnaies non admises au change manuel', 'C O U R S O F F I C I E L S D E S C H A N G E S', 'AU COMPTANT APPLIQUES PAR LA B.R.B', 'EN DATE DU 5 MARS 2026'];

describe('BRBU recorded payloads', () => {
  test('every recorded payload is accepted, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [INDEX, pdf('20'), pdf('22')]);
  });

  test('bulletin of 20 May 2026: 19 currencies, the mid column, decimal commas', async () => {
    const obs = await parseFile(pdf('20'));
    assert.deepEqual(obs.map((o) => o.quote).sort(), ALL);
    assert.ok(obs.every((o) => o.date === '2026-05-20' && o.unit === 1 && o.direction === 'direct'));
    // "1 Dollar USA 2965,9907 2989,9100 3013,8293"
    assert.equal(rate(obs, 'USD'), '2989.9100');
    assert.equal(rate(obs, 'EUR'), '3467.7664');
    assert.equal(rate(obs, 'XDR'), '4087.0963');
    assert.equal(rate(obs, 'UGX'), '0.7933');
    // The buying column has uneven precision here ("435,633255"); the mid does not.
    assert.equal(rate(obs, 'CNY'), '439.1464');
    assert.equal(rate(obs, 'KWD'), '9679.2792');
  });

  test('bulletin of 22 May 2026: decimal points this time', async () => {
    const obs = await parseFile(pdf('22'));
    assert.equal(obs.length, 19);
    assert.ok(obs.every((o) => o.date === '2026-05-22'));
    assert.equal(rate(obs, 'USD'), '2990.3600');
    assert.equal(rate(obs, 'JPY'), '18.7960');
    assert.equal(rate(obs, 'TZS'), '1.1488');
    assert.equal(rate(obs, 'SAR'), '797.4293');
    assert.equal(rate(obs, 'GBP'), '4015.7963');
  });

  test('the bulletin index is a valid page without rates', async () => {
    await assert.rejects(parseFile(INDEX), (err) => err instanceof NoPublication && /bulletin index/.test(err.message));
  });

  test('reads the bulletins\' links from the index, and fetches those of the window', async () => {
    const window = { from: '2026-05-18', to: '2026-05-22' };
    const at = (d: string) => `/sites/default/files/2026-05/Cours%20de%20change%20du%20${d}-05-2026.pdf`;
    const base = 'http://127.0.0.1:1';
    assert.deepEqual(source.requests(window, { base, key: 'k' }), [{ url: `${base}/en/affichagetoustauxchange`, follow: true }]);
    const index = { name: `${base}/en/affichagetoustauxchange`, url: `${base}/en/affichagetoustauxchange`, body: readFileSync(new URL(INDEX, DIR)) };
    // The recorded index links 22 May back to 4 May: the window's five, newest first, on the base.
    assert.deepEqual(source.follow!(index, window, { base }), ['22', '21', '20', '19', '18'].map((d) => ({ url: `${base}${at(d)}` })));
    for (const r of source.follow!(index, window, { base })) assert.ok(source.accepts(r.name ?? r.url), r.url);
    // A name with a suffix (a reissued bulletin) is read from the link, not guessed.
    const suffixed = { ...index, body: Buffer.from(readFileSync(new URL(INDEX, DIR), 'utf8').replace('du%2020-05-2026.pdf', 'du%2020-05-2026_0.pdf')) };
    assert.equal(source.follow!(suffixed, window, { base })[2]!.url, `${base}/sites/default/files/2026-05/Cours%20de%20change%20du%2020-05-2026_0.pdf`);
    assert.throws(() => source.follow!({ ...index, body: Buffer.from('<html><body>Maintenance</body></html>') }, window, { base }), /links no "Cours de change du DD-MM-YYYY" bulletin/);

    // The index, then the two bulletins of the window the server has; the index names only those.
    const server = await startFeedServer({
      '/en/affichagetoustauxchange': { body: readFileSync(new URL(INDEX, DIR)), contentType: 'text/html' },
      [at('20')]: { body: readFileSync(new URL(pdf('20'), DIR)), contentType: 'application/pdf' },
      [at('22')]: { body: readFileSync(new URL(pdf('22'), DIR)), contentType: 'application/pdf' },
    });
    try {
      const payloads = await fetchSource(source, { from: '2026-05-20', to: '2026-05-20' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual((await Promise.all(payloads.map((p) => source.parse(p)))).flat(), await parseFile(pdf('20')));
      assert.deepEqual(server.requests.map((r) => r.url), ['/en/affichagetoustauxchange', at('20')]);
    } finally {
      await server.close();
    }
  });

  test('a window older than the page follows the next pages, then asks where older bulletins usually are', () => {
    const base = 'http://127.0.0.1:1';
    const body = readFileSync(new URL(INDEX, DIR));
    const window = { from: '2026-04-28', to: '2026-05-05' };
    const first = { name: 'index', url: `${base}/en/affichagetoustauxchange`, body };
    // This page's 4 and 5 May, and page 1 for the rest.
    assert.deepEqual(source.follow!(first, window, { base }), [
      { url: `${base}/sites/default/files/2026-05/Cours%20de%20change%20du%2005-05-2026.pdf` },
      { url: `${base}/sites/default/files/2026-05/Cours%20de%20change%20du%2004-05-2026.pdf` },
      { url: `${base}/en/affichagetoustauxchange?page=1`, follow: true },
    ]);
    // The last page that may be followed (MAX_FOLLOW_DEPTH in a row): the older weekdays at their usual path.
    const last = { name: 'index', url: `${base}/en/affichagetoustauxchange?page=2`, body: Buffer.from(body.toString('utf8').replace('?page=1"', '?page=3"')) };
    const usual = (month: string, dmy: string) => ({ url: `${base}/sites/default/files/${month}/Cours%20de%20change%20du%20${dmy}.pdf`, optional: true });
    assert.deepEqual(source.follow!(last, window, { base }).slice(2), [usual('2026-04', '28-04-2026'), usual('2026-04', '29-04-2026'), usual('2026-04', '30-04-2026'), usual('2026-05', '01-05-2026')]);
    // A window this page covers follows nothing further.
    assert.ok(source.follow!(first, { from: '2026-05-04', to: '2026-05-22' }, { base }).every((r) => !r.follow));
  });
});

describe('BRBU edge cases', () => {
  test('reads a bulletin laid out like the real one', async () => {
    const obs = await parse(bulletinPdf([...HEAD, '1 Dollar USA 2970,1000 2994,0000 3017,9000', '1 DTS* 4050,0000 4082,6500 4115,3000', ...FOOT]));
    assert.deepEqual(obs, [
      { date: '2026-03-05', quote: 'USD', rate: '2994.0000', unit: 1, direction: 'direct' },
      { date: '2026-03-05', quote: 'XDR', rate: '4082.6500', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', async () => {
    await assert.rejects(parse('<!DOCTYPE html><html><head><title>Page not found | BRB</title></head><body>The requested page could not be found.</body></html>'), /not a PDF bulletin/);
  });

  test('rejects a truncated payload', async () => {
    const full = bulletinPdf([...HEAD, '1 Dollar USA 2970,1000 2994,0000 3017,9000', ...FOOT]);
    await assert.rejects(parse(full.subarray(0, 200)), ParseError);
  });

  test('rejects an empty table, an unknown currency and a bulletin without its date', async () => {
    await assert.rejects(parse(bulletinPdf([...HEAD, ...FOOT])), /holds no rate rows/);
    await assert.rejects(parse(bulletinPdf([...HEAD, '1 Franc Congolais 1,0500 1,0600 1,0700', ...FOOT])), /unknown currency "Franc Congolais"/);
    await assert.rejects(parse(bulletinPdf([...HEAD, '1 Dollar USA 2970,1000 2994,0000 3017,9000'])), /states no "EN DATE DU/);
  });

  test('accepts bulletins and the index only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(source.accepts('https://www.brb.bi/sites/default/files/2026-05/Cours%20de%20change%20du%2022-05-2026.pdf'));
    assert.ok(!source.accepts('https://www.brb.bi/sites/default/files/2026-05/Rapport%20annuel%202025.pdf'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
