// BCTN recorded payloads are grade A (complete VCR recordings, SOURCES-2.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './bctn.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { NoPublication, ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BCTN');

const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const parse = (body: string) => source.parse({ name: 'https://www.bct.gov.tn/bct/siteprod/cours_archiv.jsp?input=2026-03-02', body: Buffer.from(body) });
const quoted = (obs: Observation[], quote: string) => {
  const o = obs.find((x) => x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};

const INTERBANK = 'AED BHD CAD CHF CNY DKK DZD EUR GBP JPY KWD LYD MAD MRU NOK OMR QAR SAR SEK USD'.split(' ');

/** A fragment in the recorded layout: the interbank module, then the manual-exchange module. */
function fragment(rows: string, day = '02/03/2026'): string {
  const head = `<thead> <tr> <td width='5%'><div align='center'>Monnaie</div></td> <td width='5%'><div align='center'>Sigle</div></td> <td width='5%'><div align='center'>Unit&eacute;</div></td> <td width='5%'><div align='center'>Valeur</div></td> </tr> </thead>`;
  return `<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">\n<div class='module' style='width:100%;padding:0'>
<h3 class='bct-mod-hdr' id='1' align='center'>Cours Moyens des Devises Cotées en dinar tunisien<br>sur le Marché des Changes interbancaire</h3> <br><h5 align='center'>(Opérations en Compte et au Comptant) </h5> <h5 align='center'>Journée du ${day}&nbsp;</h5> <div class='content bct-mod-content-1'> <div class='bct-page'> <div class='bct-header-fixed'> <table align='center' width='50%' cellspacing='0'> ${head} <tbody> ${rows} </tbody> </table> </div> </div> </div> </div> <br><br> <!-- 2eme module!--> <div class='module' style='width:100%;padding:0'> <h3 class='bct-mod-hdr' id='2' align='center'>Cours Moyens en dinar tunisien pour le Change Manuel<br>et les Chèques de Voyage</h3> <h5 align='center'>Journée du  &nbsp;${day}</h5> <div class='content bct-mod-content-2'> <table> ${head} <tbody> <tr> <td nowrap scope='col'>YEN JAPONAIS</td> <td scope='col'>JPY</td> <td scope='col'><div align='right'>1000</div></td> <td scope='col'><div align='right'> 18,365</div></td> </tr> </tbody> </table> </div> </div>`;
}
const row = (code: string, unit: string, value: string) =>
  `<tr> <td nowrap scope='col'><img alt='${code}/CHF' src='images/drapeaux/x.gif' />   NOM</td> <td scope='col'>${code}</td> <td scope='col'><div align='right'>${unit}</div></td> <td scope='col'><div align='right'>  ${value}</div></td> </tr>`;

describe('BCTN recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), ['bct-cours_archiv-2026-05-18.html', 'bct-cours_archiv-2026-05-19.html']);
  });

  test('18 May 2026: the 20 interbank averages with their Unité, not the manual-exchange table', () => {
    const obs = parseFile('bct-cours_archiv-2026-05-18.html');
    assert.deepEqual(obs.map((o) => o.quote).sort(), INTERBANK);
    assert.ok(obs.every((o) => o.date === '2026-05-18' && o.direction === 'direct'));
    assert.equal(quoted(obs, 'USD'), '2.9034/1');
    assert.equal(quoted(obs, 'EUR'), '3.3965/1');
    assert.equal(quoted(obs, 'JPY'), '18.4093/1000');
    assert.equal(quoted(obs, 'DKK'), '45.5540/100');
    assert.equal(quoted(obs, 'NOK'), '31.5196/100');
    assert.equal(quoted(obs, 'CHF'), '37.2352/10');
    assert.equal(quoted(obs, 'DZD'), '0.2198/10');
    assert.equal(quoted(obs, 'MRU'), '0.7292/10');
    assert.equal(quoted(obs, 'KWD'), '9.5218/1');
  });

  test('19 May 2026: same currencies, the day echoed by the page', () => {
    const obs = parseFile('bct-cours_archiv-2026-05-19.html');
    assert.deepEqual(obs.map((o) => o.quote).sort(), INTERBANK);
    assert.ok(obs.every((o) => o.date === '2026-05-19'));
    assert.equal(quoted(obs, 'USD'), '2.9021/1');
    assert.equal(quoted(obs, 'GBP'), '3.9230/1');
    assert.equal(quoted(obs, 'JPY'), '18.4088/1000');
    assert.equal(quoted(obs, 'QAR'), '8.0334/10');
    assert.equal(quoted(obs, 'OMR'), '7.6060/1');
  });

  test('POSTs the form per business day with a Referer and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    const days = ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06'];
    assert.deepEqual(requests, days.map((d) => ({
      url: 'http://127.0.0.1:1/cours_archiv.jsp',
      name: `http://127.0.0.1:1/cours_archiv.jsp?input=${d}`,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', referer: 'http://127.0.0.1:1/cours_archive.jsp' },
      body: `input=${d}&langue=_AN`,
    })));
    assert.equal(source.requests({ from: '2026-03-07', to: '2026-03-09' }, { base: source.baseUrl }).length, 1);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const file = 'bct-cours_archiv-2026-05-18.html';
    const server = await startFeedServer({ '/cours_archiv.jsp': { body: readFileSync(new URL(file, DIR)), contentType: 'text/html; charset=UTF-8' } });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.equal(payloads.length, 5);
      for (const p of payloads) assert.deepEqual(source.parse(p), parseFile(file));
      assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url} ${r.body}`), days.map((d) => `POST /cours_archiv.jsp input=${d}&langue=_AN`));
      assert.ok(server.requests.every((r) => r.headers.referer === `${server.url}/cours_archive.jsp`));
    } finally {
      await server.close();
    }
  });
});

describe('BCTN edge cases', () => {
  const ROWS = row('USD', '1', '2,9034') + row('JPY', '1000', '18,4093');

  test('reads the interbank table only, with units and decimal commas', () => {
    assert.deepEqual(parse(fragment(ROWS)), [
      { date: '2026-03-02', quote: 'USD', rate: '2.9034', unit: 1, direction: 'direct' },
      { date: '2026-03-02', quote: 'JPY', rate: '18.4093', unit: 1000, direction: 'direct' },
    ]);
  });

  test('an "Exhausted Resultset" answer is no publication', () => {
    assert.throws(() => parse('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">\nExhausted Resultset'), NoPublication);
  });

  test('rejects an HTML error page', () => {
    const html = '<html><head><title>403 Forbidden</title></head><body><h1>Forbidden</h1><p>Referer required</p></body></html>';
    assert.throws(() => parse(html), ParseError);
    assert.throws(() => parse(html), /no interbank average rate table/);
  });

  test('rejects a truncated fragment and an empty table', () => {
    const full = fragment(ROWS);
    // node-html-parser drops elements left open, so a cut inside the table loses the whole table.
    assert.throws(() => parse(full.slice(0, full.indexOf("<td scope='col'>JPY"))), /table of 2026-03-02 is missing/);
    assert.throws(() => parse(full.slice(0, full.indexOf('<div class=\'content'))), /table of 2026-03-02 is missing/);
    assert.throws(() => parse(full.slice(0, full.indexOf('Journée'))), /no "Journée du/);
    assert.throws(() => parse(fragment('')), /holds no rates/);
  });

  test('rejects a missing date, changed columns, bad units and bad figures', () => {
    assert.throws(() => parse(fragment(ROWS, '02-03-2026')), /no "Journée du DD\/MM\/YYYY"/);
    assert.throws(() => parse(fragment(ROWS).replace('Unit&eacute;', 'Achat')), /columns are/);
    assert.throws(() => parse(fragment(row('JPY', 'mille', '18,4093'))), /bad unit/);
    assert.throws(() => parse(fragment(row('JPY', '1000', '18,40,93'))), /not a number/);
    assert.throws(() => parse(fragment(row('YEN', '1000', '18,4093').replace('>YEN<', '>¥<'))), /bad currency code/);
  });

  test('accepts the archive endpoint, not its XLS downloads', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.bct.gov.tn/bct/siteprod/cours_archiv_xls.jsp?select=2026-05-18&langue='));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
