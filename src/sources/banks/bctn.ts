// Banque Centrale de Tunisie: average rates of the currencies quoted on the interbank market, one HTML
// fragment per day (POST cours_archiv.jsp). TND per "Unité" units (JPY per 1000, DKK/NOK per 100,
// SAR/CHF/… per 10), decimal comma. The page's second table (manual exchange and travellers' cheques,
// rounded to 3 decimals) is a retail figure derived from the first and is not read.
import { parse as parseHtml, type HTMLElement } from 'node-html-parser';
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource, NoPublication } from '../types.js';
import { decimalOf, failFor, fromDmy, isoCode, unitOf, windowDays } from '../read.js';

const CODE = 'BCTN';
const PAGE = '/cours_archiv.jsp';
const INTERBANK = /Cours Moyens des Devises Cot.es en dinar tunisien\s*sur le March. des Changes interbancaire/i;
const DAY = /Journ.e du\s+(\d{2}\/\d{2}\/\d{4})/;
const COLUMNS = 'Monnaie Sigle Unité Valeur';
// cours_archiv.jsp (live, POST) or bct-cours_archiv-2026-05-18.html (recorded); not the _xls downloads.
const NAME = /(^|\/)cours_archiv\.jsp(\?input=\d{4}-\d{2}-\d{2})?$|(^|\/)bct-cours_archiv-\d{4}-\d{2}-\d{2}\.html$/;

const fail: (message: string) => never = failFor(CODE);

function rows(table: HTMLElement, date: string): Observation[] {
  const head = table.querySelectorAll('thead td').map((td) => td.text.trim()).join(' ');
  if (head !== COLUMNS) fail(`interbank table columns are ${JSON.stringify(head)}, expected "${COLUMNS}"`);
  return table.querySelectorAll('tbody tr').map((tr, i) => {
    const cells = tr.querySelectorAll('td').map((td) => td.text.trim());
    if (cells.length !== 4) fail(`row ${i + 1} of ${date} has ${cells.length} cells, expected 4`);
    const [, sigle, unite, valeur] = cells;
    const quote = isoCode(fail, sigle, `row ${i + 1} of ${date}`);
    return { date, quote, rate: decimalOf(fail, valeur, `${quote} on ${date}`), unit: unitOf(fail, unite, `${quote} on ${date}`), direction: 'direct' as const };
  });
}

export const source: SyncSource = {
  code: CODE,
  name: 'Banque Centrale de Tunisie',
  countryCode: 'TN',
  countryName: 'Tunisia',
  currency: 'TND',
  cadence: 'daily',
  schedule: '*/30 17-19 * * 1-5',
  // No documented time: the averages cover the day's interbank deals, so they come after the market
  // closes. We take the start of the observed polling window; Tunis keeps UTC+1 all year (18:00 local).
  publishedAtUtc: '17:00:00',
  feedUrl: 'https://www.bct.gov.tn/bct/siteprod/cours_archiv.jsp',
  baseUrl: 'https://www.bct.gov.tn/bct/siteprod',
  // SOURCE.md knows no terms page; this is the page that publishes the rates.
  termsUrl: 'https://www.bct.gov.tn/bct/siteprod/cours_archive.jsp',
  terms: 'unknown',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    // The fragment's meta tag says ISO-8859-1, but the bytes (and the HTTP header) are UTF-8.
    const text = payload.body.toString('utf8');
    // A day without a fixing answers with an "Exhausted Resultset" page instead of tables.
    if (/Exhausted Resultset/i.test(text)) throw new NoPublication(CODE, `${payload.name}: no rates for that day (Exhausted Resultset)`);
    const root = parseHtml(text);
    const title = root.querySelectorAll('h3').find((h) => INTERBANK.test(h.text.replace(/\s+/g, ' ')));
    if (!title) fail(`${payload.name} has no interbank average rate table`);
    const module = title.parentNode ?? root;
    // The date is echoed as "Journée du DD/MM/YYYY": for a day without a fixing the BCT may silently
    // answer with a nearby trading day, and the echoed date is the one the figures belong to.
    const day = DAY.exec(module.text);
    const date = day ? fromDmy(day[1]!) : undefined;
    if (!date) fail(`${payload.name} has no "Journée du DD/MM/YYYY"`);
    const table = module.querySelector('table');
    if (!table) fail(`${payload.name}: interbank table of ${date} is missing`);
    const out = rows(table, date);
    if (out.length === 0) fail(`${payload.name}: interbank table of ${date} holds no rates`);
    return out;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One form POST per business day; the site wants a Referer from its own archive page. The name
    // carries the day, since every request goes to the same URL.
    return windowDays(window, { weekdaysOnly: true }).map((day) => ({
      url: `${ctx.base}${PAGE}`,
      name: `${ctx.base}${PAGE}?input=${day}`,
      method: 'POST' as const,
      headers: { 'content-type': 'application/x-www-form-urlencoded', referer: `${ctx.base}/cours_archive.jsp` },
      body: `input=${day}&langue=_AN`,
    }));
  },
};
