// Bank Indonesia transaction rates (Kurs Transaksi BI): a SharePoint page that answers a form post
// with one currency's Value/Sell/Buy/Date table, IDR per `Value` units with thousands separators.
// BI publishes no mid here; its middle rate (kurs tengah) is the average of sell and buy.
import { parse as parseHtml, type HTMLElement } from 'node-html-parser';
import { Decimal } from '../../money/decimal.js';
import { type FeedRequest, type FetchWindow, type FollowedPage, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { hiddenFields, postBack } from '../follow.js';
import { decimalOf, decodeText, failFor, unitOf, wholeHtml } from '../read.js';
import { monthName, monthNumber } from '../months.js';

const CODE = 'INDO';
const PATH = '/en/statistik/informasi-kurs/transaksi-bi/default.aspx';
// The web part's form field prefix; it is part of the page's markup, not of a session.
const FIELD = 'ctl00$PlaceHolderMain$g_6c89d4ad_107f_437d_bd54_8fda17b556bf$ctl00$';
// The page's currency drop-down (2026). A currency BI adds is missed until listed here.
const CURRENCIES = 'AED AUD BND CAD CHF CNY DKK EUR GBP HKD JPY KRW KWD LAK MYR NOK NZD PGK PHP SAR SEK SGD THB USD VND'.split(' ');
const COLUMNS = ['Value', 'Sell', 'Buy', 'Date'];
// "4,627.79": the English page groups thousands with commas.
const AMOUNT = /^\d{1,3}(,\d{3})*(\.\d+)?$/;
// Live …/transaksi-bi/default.aspx (name …#AED) or recorded transaksi-bi-<CCY>-<from>_<to>.html.
const NAME = /(^|\/)transaksi-bi([/-]|$)/i;

const fail: (message: string) => never = failFor(CODE);

/** "5 Mar 2026" → 2026-03-05. */
function isoDate(text: string): string {
  const m = /^(\d{1,2}) ([A-Z][a-z]{2})[a-z]* (\d{4})$/.exec(text);
  const month = m ? monthNumber(m[2]!) : 0;
  if (!m || month === 0) fail(`bad date ${JSON.stringify(text)}`);
  return `${m[3]}-${String(month).padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
}

/** A figure with thousands commas; a comma anywhere else would be read as a decimal comma. */
function amount(text: string, what: string): string {
  if (!AMOUNT.test(text)) fail(`bad ${what} ${JSON.stringify(text)}`);
  return decimalOf(fail, text.replaceAll(',', ''), `bad ${what}`);
}

const cells = (row: HTMLElement, tag: string) => row.querySelectorAll(tag).map((c) => c.text.replace(/\s+/g, ' ').trim());

/** dd-MMM-yyyy, as the page's date pickers write it (01-Mar-2026). */
function formDate(iso: string): string {
  return `${iso.slice(8, 10)}-${monthName(Number(iso.slice(5, 7)))}-${iso.slice(0, 4)}`;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Bank Indonesia',
  countryCode: 'ID',
  countryName: 'Indonesia',
  currency: 'IDR',
  cadence: 'daily',
  schedule: '*/30 1-3 * * 1-5',
  // BI documents no release time for transaction rates; we take the 10:00 Jakarta time (WIB, UTC+7,
  // no daylight saving) of the JISDOR reference rate published with them: 03:00 UTC.
  publishedAtUtc: '03:00:00',
  feedUrl: `https://www.bi.go.id${PATH}`,
  baseUrl: 'https://www.bi.go.id',
  // BI links no terms of use from these pages; the statistics section holds the rates and their notes.
  termsUrl: 'https://www.bi.go.id/en/statistik/informasi-kurs',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const html = decodeText(payload.body);
    wholeHtml(fail, payload.name, html);
    const root = parseHtml(html);
    const label = root.querySelector('[id$="lblKursTransaksiKTBI2"]')?.text ?? '';
    const quote = /^CURRENCIES ([A-Z]{3})$/.exec(label.trim())?.[1];
    const table = root.querySelector('table[id$="gvSearchResult2"]');
    // Error pages, the blank form and searches without results have no result table at all.
    if (quote === undefined || table === null) fail(`${payload.name} has no result table`);
    const [header, ...rows] = table.querySelectorAll('tr');
    if (header === undefined || cells(header, 'th').join('|') !== COLUMNS.join('|')) fail('result table is not Value|Sell|Buy|Date');
    const out = rows.map((row): Observation => {
      const cols = cells(row, 'td');
      if (cols.length !== 4) fail(`a ${quote} row has ${cols.length} cells, expected 4`);
      const [value, sell, buy, date] = cols as [string, string, string, string];
      // Value is written like a figure ("1.00", "1,000.00") but is a whole multiplier.
      const unit = unitOf(fail, amount(value, `${quote} Value`), `bad ${quote} Value`);
      // Exact decimal average: two figures of two decimals give at most three.
      const mid = new Decimal(amount(sell, `${quote} Sell`)).plus(amount(buy, `${quote} Buy`)).div(2);
      return { date: isoDate(date), quote, rate: mid.toString(), unit, direction: 'direct' };
    });
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  // The form page first: its postback wants the page's __VIEWSTATE, __EVENTVALIDATION and
  // __REQUESTDIGEST and the session cookie (see follow).
  requests(_window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return [{ url: `${ctx.base}${PATH}`, follow: true }];
  },
  // One postback per currency for the whole window, each carrying every hidden field of the page.
  follow(page: FollowedPage, window: FetchWindow): FeedRequest[] {
    const html = decodeText(page.body);
    const hidden = hiddenFields(html, 'form#aspnetForm');
    const names = new Set(hidden.map(([n]) => n));
    // Without the tokens (an error page, a changed site) the posts could only fail one by one.
    if (!names.has('__VIEWSTATE') || !names.has('__EVENTVALIDATION') || !html.includes(`${FIELD}txtFrom`)) {
      fail(`${page.name} is not the transaction-rate form (no ViewState, EventValidation or date fields)`);
    }
    return CURRENCIES.map((ccy) => ({
      ...postBack(page, page.url, [
        // The drop-down's values are codes padded to five characters ("AED  ").
        [`${FIELD}ddlmatauang1`, ccy.padEnd(5, ' ')],
        [`${FIELD}txtFrom`, formDate(window.from)],
        [`${FIELD}txtTo`, formDate(window.to)],
        [`${FIELD}txtTanggal`, ''],
        [`${FIELD}btnSearch1`, 'Search'],
        [`${FIELD}hidSourceID`, `${FIELD.replaceAll('$', '_')}btnSearch1`],
      ], hidden),
      name: `${page.url}#${ccy}`,
    }));
  },
};
