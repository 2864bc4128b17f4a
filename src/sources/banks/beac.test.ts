// BEAC recorded payloads are grade A (complete VCR recording, SOURCES-2.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './beac.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BEAC');
const FILE = 'beac-homepage-2026-05-22.html';

const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const parse = (body: string) => source.parse({ name: 'https://www.beac.int/', body: Buffer.from(body) });
const rate = (obs: Observation[], quote: string) => obs.find((o) => o.quote === quote)?.rate;

/** The widget in the recorded layout: a title row, then one row per pair, then the value date. */
function widget(pairs: [string, string, string][], date = '04/03/2026'): string {
  const row = ([pair, buy, sell]: [string, string, string]) => `<div class="document"><div class="taux_de_change" >
    <div id="left" style="float:left; width: 35%;"><div class="pays"><img class="drapeau" src="https://www.xe.com/svgs/flags/x.static.svg">
    <span class="code_valeur" style="">
        ${pair}</span></div></div>
    <div id="middle" style="float:left; width: 35%;">
        ${buy}                                    </div>
    <div id="right" style="float:left; width: 30%;">
        ${sell}                                    </div>
    <div class="pays"></div><span class="valeur"></span><span class="valeur"></span></div></div>`;
  return `<!DOCTYPE html><html><body><aside><div class="boxh taux_de_change_list"><h2>Taux indicatifs de change</h2>
    <div class="sidebar_content_box"><div class="documents_with_date"><div id = "container" style = "width:100%">
    <div class="document"><div class="taux_de_change" ><div id ="left"><div class="pays">PAIRE DEVISES</div></div>
    <div id = "middle">ACHAT</div><div id = "right">VENTE</div><div class="pays"></div></div></div>
    ${pairs.map(row).join('\n')}</div></div>
    <div class="date_source_taux"><p>
        Date de valeur : ${date}                        </p>
    <p style="margin-bottom:0;">Source : BANQUE DES ÉTATS DE L'AFRIQUE CENTRALE</p></div></div></div></aside></body></html>`;
}

describe('BEAC recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('22 May 2026: 13 pairs, XAF per 1 unit, the midpoint of buying and selling', () => {
    const obs = parseFile(FILE);
    assert.deepEqual(obs.map((o) => o.quote).sort(), 'AED CAD CHF CNY DKK EUR GBP JPY MAD SAR SEK USD ZAR'.split(' '));
    assert.ok(obs.every((o) => o.date === '2026-05-22' && o.unit === 1 && o.direction === 'direct'));
    // The fixed parity: buying = selling = 655.957.
    assert.equal(rate(obs, 'EUR'), '655.957');
    // (561.2317 + 566.0505) / 2, (3.5348 + 3.5706) / 2, (407.7958 + 411.9303) / 2, (34.131 + 34.4901) / 2.
    assert.equal(rate(obs, 'USD'), '563.6411');
    assert.equal(rate(obs, 'JPY'), '3.5527');
    assert.equal(rate(obs, 'CAD'), '409.86305');
    assert.equal(rate(obs, 'ZAR'), '34.31055');
    // (87.3369 + 88.2182) / 2 and (754.5751 + 762.2203) / 2.
    assert.equal(rate(obs, 'DKK'), '87.77755');
    assert.equal(rate(obs, 'GBP'), '758.3977');
  });

  test('requests the homepage and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    assert.deepEqual(requests, [{ url: 'http://127.0.0.1:1/' }]);
    assert.deepEqual(source.requests(window, { base: 'http://mirror.internal/' }), [{ url: 'http://mirror.internal/' }]);
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const server = await startFeedServer({ '/': { body: readFileSync(new URL(FILE, DIR)), contentType: 'text/html; charset=UTF-8' } });
    try {
      const payloads = await fetchSource(source, window, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.flatMap((p) => source.parse(p) as Observation[]), parseFile(FILE));
      assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url}`), ['GET /']);
    } finally {
      await server.close();
    }
  });
});

describe('BEAC edge cases', () => {
  test('keeps the published figure when buying equals selling, else the exact midpoint', () => {
    assert.deepEqual(parse(widget([['EUR/XAF', '655.957', '655.957'], ['USD/XAF', '560.10', '565.00']])), [
      { date: '2026-03-04', quote: 'EUR', rate: '655.957', unit: 1, direction: 'direct' },
      { date: '2026-03-04', quote: 'USD', rate: '562.55', unit: 1, direction: 'direct' },
    ]);
  });

  test('rejects an HTML error page', () => {
    assert.throws(() => parse('<html><head><title>503 Service Unavailable</title></head><body>Maintenance</body></html>'), ParseError);
  });

  test('rejects a truncated page and an empty widget', () => {
    const full = widget([['USD/XAF', '561.2317', '566.0505']]);
    // node-html-parser drops elements left open, so a cut anywhere in the widget loses all of it.
    assert.throws(() => parse(full.slice(0, full.indexOf('Date de valeur'))), /no "Taux indicatifs de change" block/);
    assert.throws(() => parse(full.replace(/Date de valeur : [\d/]+/, 'Date de valeur : ')), /no "Date de valeur/);
    assert.throws(() => parse(widget([])), /holds no pairs/);
  });

  test('rejects pairs against another currency and missing figures', () => {
    assert.throws(() => parse(widget([['USD/EUR', '1.16', '1.17']])), /not CCY\/XAF/);
    assert.throws(() => parse(widget([['USD/XAF', '', '566.0505']])), /USD buying rate on 2026-03-04: not a number/);
  });

  test('accepts the homepage only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.beac.int/statistiques/'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
