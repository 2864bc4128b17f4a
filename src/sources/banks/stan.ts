// Bank of Albania official exchange rates, scraped from its HTML page (latest only). The page holds a
// daily table of main currencies, a weekly table of minor ones, each after its own "Last update:
// DD.MM.YYYY", and a bid/ask table for USD and EUR. Rates are ALL per unit, JPY/HUF/RUB per 100.
import { parse as parseHtml, type HTMLElement } from 'node-html-parser';
import { BROWSER_USER_AGENT } from '../http.js';
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor, fromDmy, wholeHtml } from '../read.js';

const CODE = 'STAN';
const CURRENCY_CODE = /^[A-Z]{3}$/;
const LAST_UPDATE = /Last update:\s*(\d{2}\.\d{2}\.\d{4})/;
// The column header every rate table carries; the bid/ask table adds "(Bid)"/"(Ask)" columns.
const LEK_PER_UNIT = /Albanian Lek per\s+Foreign Currency Unit/;
const BID_ASK = /\(Bid\)|\(Ask\)/;
// Markets/Official_exchange_rate/ (live) or Official_exchange_rate-page-….html (recorded); not the
// Exchage_rate_archive/ XLSX files under it.
const NAME = /(^|\/)Official_exchange_rate(\/?(\?[^/]*)?$|-page[^/]*\.html$)/;

// A unit stated in the name: "Japanese Yen   (100)".
const UNIT_IN_NAME = /\((\d+)\)\s*$/;
// Not stated anywhere on the page, but the figures only make sense per 100: 26.47 ALL per forint
// would put the euro (95.40 ALL) at 3.6 HUF, 111.96 ALL per rouble the dollar (82.24) at 0.73 RUB.
const HIDDEN_UNITS: Readonly<Record<string, number>> = { HUF: 100, RUB: 100 };
// The page writes SDR for the IMF's unit of account; ISO 4217 calls it XDR.
const ISO_FOR: Readonly<Record<string, string>> = { SDR: 'XDR' };
// CNH (offshore yuan) is a market code, not ISO 4217: the onshore CNY row is the currency's rate.
const NOT_ISO = new Set(['CNH']);

const fail: (message: string) => never = failFor(CODE);

/** The "Last update" date written just before a table. */
function tableDate(table: HTMLElement): string {
  const label = table.previousElementSibling;
  const dmy = label ? LAST_UPDATE.exec(label.text)?.[1] : undefined;
  return (dmy && fromDmy(dmy)) || fail('a rate table has no "Last update: DD.MM.YYYY" before it');
}

function rows(table: HTMLElement, date: string, name: string): Observation[] {
  const out: Observation[] = [];
  for (const tr of table.querySelectorAll('tr')) {
    if (tr.closest('thead')) continue;
    const cells = tr.querySelectorAll('td').map((td) => td.text.replace(/\s+/g, ' ').trim());
    const [label = '', code = '', figure = ''] = cells;
    if (cells.length < 3 || !CURRENCY_CODE.test(code)) fail(`${name} table of ${date} has a row that is not [name, code, rate]: ${JSON.stringify(cells)}`);
    if (NOT_ISO.has(code)) continue;
    const stated = UNIT_IN_NAME.exec(label)?.[1];
    const unit = stated !== undefined ? Number(stated) : (HIDDEN_UNITS[code] ?? 1);
    const rate = decimalOf(fail, figure, `bad ${code} rate on ${date}`);
    // Gold and silver are per troy ounce ("Gold(OZ 1)"), which is what XAU and XAG denote.
    out.push({ date, quote: ISO_FOR[code] ?? code, rate, unit, direction: 'direct', table: name });
  }
  if (out.length === 0) fail(`${name} table of ${date} holds no rates`);
  return out;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Bank of Albania',
  countryCode: 'AL',
  countryName: 'Albania',
  currency: 'ALL',
  cadence: 'daily',
  // The minor currencies (HUF, RUB, CZK, MKD) are fixed once a week.
  tableCadence: { main: 'daily', weekly: 'weekly' },
  schedule: '*/30 10-12 * * 1-5',
  // Fixed from interbank quotes of 11:30–12:00 Tirana time (the recorded page was updated at 12:12);
  // CET (UTC+1) gives 11:00 UTC for the end of that window (10:00 in summer, CEST).
  publishedAtUtc: '11:00:00',
  feedUrl: 'https://www.bankofalbania.org/Markets/Official_exchange_rate/',
  baseUrl: 'https://www.bankofalbania.org',
  // SOURCE.md names no terms page ("BoA terms"); this is the page that publishes and describes the rates.
  termsUrl: 'https://www.bankofalbania.org/Markets/Official_exchange_rate/',
  terms: 'unknown',
  // Its Cloudflare front lets a plain GET with a browser's agent through (the peer's issue #371).
  headers: { 'user-agent': BROWSER_USER_AGENT },
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    // The page's meta charset decides (UTF-8 today).
    const html = decodeText(payload.body);
    // An HTML parser closes whatever is left open, so a cut-off page would read as a shorter table.
    wholeHtml(fail, payload.name, html);
    const root = parseHtml(html);
    const tables = root.querySelectorAll('table').filter((t) => LEK_PER_UNIT.test(t.querySelector('thead')?.text ?? ''));
    // The bid/ask averages are skipped: the official rate for USD and EUR is already in the main table.
    const rateTables = tables.filter((t) => !BID_ASK.test(t.querySelector('thead')?.text ?? ''));
    if (rateTables.length === 0) fail(`${payload.name} has no exchange-rate table`);
    return rateTables.flatMap((t) => {
      // "Main Currency" heads the daily table, plain "Currency" the weekly one.
      const name = /Main Currency/.test(t.querySelector('thead')!.text) ? 'main' : 'weekly';
      return rows(t, tableDate(t), name);
    });
  },
  requests(_window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // Only the latest page: the history is yearly XLSX archives of varying layout, not read here.
    return [{ url: `${ctx.base}/Markets/Official_exchange_rate/` }];
  },
};
