// BNBG recorded payloads are grade F (a downloaded response kept as a library's test fixture, SOURCES-2.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startFeedServer } from '../../../test/support/feed-server.js';
import { source } from './bnbg.js';
import { fetchSource } from '../fetch.js';
import { createHttpClient } from '../http.js';
import { ParseError, type Observation } from '../types.js';
import { fixtureDir } from '../../../test/support/fixtures.js';

const DIR = fixtureDir('BNBG');
const FILE = 'bnb-exchange-rates-2019-02-01.xml';

const parseFile = (name: string) => source.parse({ name, body: readFileSync(new URL(name, DIR)) }) as Observation[];
const parse = (body: string) => source.parse({ name: 'StERForeignCurrencies/index.htm?download=xml&search=&lang=EN', body: Buffer.from(`\uFEFF${body}`) });
const quoted = (obs: Observation[], quote: string) => {
  const o = obs.find((x) => x.quote === quote);
  return o && `${o.rate}/${o.unit}`;
};

const CAPTION = `<ROW><GOLD>0</GOLD><TITLE>Курсове на българския лев към отделни чуждестранни валути и цена на златото, валидни за 04.03.2026</TITLE>
  <CURR_DATE>Date</CURR_DATE><NAME_>Наименование</NAME_><CODE>Код</CODE><RATIO>За единица валута/злато</RATIO>
  <REVERSERATE>Обратен курс: за един лев</REVERSERATE><RATE>Лева (BGN)</RATE></ROW>`;
const row = (code: string, ratio: string, rate: string, gold = '1', date = '04.03.2025') =>
  `<ROW><GOLD>${gold}</GOLD><CURR_DATE>${date}</CURR_DATE><NAME_>Име</NAME_><CODE>${code}</CODE><RATIO>${ratio}</RATIO><REVERSERATE>1</REVERSERATE><RATE>${rate}</RATE><S2_CURR_DATE>04-MAR-25</S2_CURR_DATE></ROW>`;
const rowset = (rows: string) => `<?xml version="1.0"?>\n<ROWSET>${CAPTION}${rows}</ROWSET>`;

describe('BNBG recorded payloads', () => {
  test('every recorded payload is accepted and parsed here, SOURCE.md is not', () => {
    const files = readdirSync(DIR).sort();
    assert.deepEqual(files.filter((f) => !source.accepts(f)), ['SOURCE.md']);
    assert.deepEqual(files.filter((f) => source.accepts(f)), [FILE]);
  });

  test('1 Feb 2019: 31 currencies and gold, BGN per RATIO units', () => {
    const obs = parseFile(FILE);
    assert.equal(obs.length, 32);
    assert.ok(obs.every((o) => o.date === '2019-02-01' && o.direction === 'direct'));
    // The euro is not listed: the lev was pegged at 1.95583.
    assert.equal(quoted(obs, 'EUR'), undefined);
    assert.equal(quoted(obs, 'USD'), '1.70502/1');
    assert.equal(quoted(obs, 'GBP'), '2.22537/1');
    assert.equal(quoted(obs, 'BRL'), '4.64457/10');
    assert.equal(quoted(obs, 'JPY'), '1.56579/100');
    assert.equal(quoted(obs, 'ISK'), '1.41933/100');
    assert.equal(quoted(obs, 'HUF'), '6.15757/1000');
    assert.equal(quoted(obs, 'KRW'), '1.52641/1000');
    assert.equal(quoted(obs, 'IDR'), '1.22167/10000');
    assert.equal(quoted(obs, 'ZAR'), '1.27948/10');
    // Gold per troy ounce ("Злато (в трой унции)"), which is what XAU denotes.
    assert.equal(quoted(obs, 'XAU'), '2250.83/1');
    // 1,320 USD at the bank's own dollar (1.70502): the price of an ounce (D19).
    assert.equal((2250.83 / 1.70502).toFixed(0), '1320');
  });

  test('source is historical: the lev ended with 2025', () => {
    assert.equal(source.discontinued, '2025-12-31');
    assert.equal(source.currency, 'BGN');
  });

  test('requests the XML download per business day and reads what a feed server sends back', async () => {
    const window = { from: '2026-03-02', to: '2026-03-06' };
    const requests = source.requests(window, { base: 'http://127.0.0.1:1', key: 'k' });
    const days = [['02', '03', '2026'], ['03', '03', '2026'], ['04', '03', '2026'], ['05', '03', '2026'], ['06', '03', '2026']];
    const path = ([d, m, y]: string[]) => `/index.htm?downloadOper=true&group1=first&firstDays=${d}&firstMonths=${m}&firstYear=${y}&search=true&type=XML`;
    assert.deepEqual(requests, days.map((d) => ({ url: `http://127.0.0.1:1${path(d)}` })));
    for (const r of requests) assert.ok(source.accepts(r.name ?? r.url), r.url);

    const server = await startFeedServer({ '/index.htm': { body: readFileSync(new URL(FILE, DIR)), contentType: 'text/xml' } });
    try {
      const payloads = await fetchSource(source, { from: '2019-02-01', to: '2019-02-03' }, { base: server.url, key: 'k' }, createHttpClient({ retries: 0 }));
      assert.deepEqual(payloads.map((p) => source.parse(p)), [parseFile(FILE)]);
      assert.deepEqual(server.requests.map((r) => r.url), [path(['01', '02', '2019'])]);
    } finally {
      await server.close();
    }
  });
});

describe('BNBG edge cases', () => {
  test('reads the rows after the caption, with their RATIO', () => {
    assert.deepEqual(parse(rowset(row('USD', '1', '1.70502') + row('IDR', '10000', '1.22167'))), [
      { date: '2025-03-04', quote: 'USD', rate: '1.70502', unit: 1, direction: 'direct' },
      { date: '2025-03-04', quote: 'IDR', rate: '1.22167', unit: 10000, direction: 'direct' },
    ]);
  });

  test('rejects the HTML page answered for a day without a list', () => {
    const html = '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"><html><head><title>БНБ</title></head><body><p>Няма данни</p></body></html>';
    assert.throws(() => parse(html), ParseError);
  });

  test('rejects a truncated file and an empty list', () => {
    const full = rowset(row('USD', '1', '1.70502') + row('GBP', '1', '2.22537'));
    assert.throws(() => parse(full.slice(0, full.indexOf('<CODE>GBP'))), /not well-formed XML/);
    assert.throws(() => parse(rowset('')), /holds no rates/);
  });

  test('refuses a 2026 list quoted per euro, and rows with bad fields', () => {
    assert.throws(() => parse(rowset(row('USD', '1', '1.1745')).replace('Лева (BGN)', 'Евро (EUR)')), /does not declare rates in BGN/);
    assert.throws(() => parse(rowset(row('USD', '0', '1.70502'))), /bad unit/);
    assert.throws(() => parse(rowset(row('USD', '1', 'n/a'))), /not a number/);
    assert.throws(() => parse(rowset(row('USD', '1', '1.70502', '1', '04-MAR-25'))), /bad CURR_DATE/);
    assert.throws(() => parse(rowset(row('USD', '1', '1.70502', '2'))), /GOLD="2"/);
  });

  test('accepts the XML downloads only', () => {
    assert.ok(source.accepts(source.feedUrl));
    assert.ok(!source.accepts('https://www.bnb.bg/Statistics/StExternalSector/StExchangeRates/StERForeignCurrencies/index.htm?download=csv&search=&lang=EN'));
    assert.ok(!source.accepts('SOURCE.md'));
  });
});
