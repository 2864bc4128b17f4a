// Bank of Tanzania indicative rates: the "Previous Exchange Rates" page answers a form post with one
// table of S/NO | Currency | Buying | Selling | Mean | Transaction Date rows, a block per day, TZS per
// 1 unit. Mean is the bank's own middle rate and the one kept.
import { parse as parseHtml } from 'node-html-parser';
import { type FeedRequest, type FetchWindow, type FollowedPage, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { hiddenFields, postBack } from '../follow.js';
import { decimalOf, failFor, isoCode, wholeHtml } from '../read.js';
import { monthNumber } from '../months.js';

const CODE = 'TANZ';
const PATH = '/ExchangeRate/previous_rates';
const COLUMNS = 'S/NO|Currency|Buying|Selling|Mean|Transaction Date';
// …/ExchangeRate/previous_rates (live) or bot-previous_rates-….html (recorded).
const NAME = /(^|[/-])previous_rates([?#/.-]|$)/i;
// Labels the table uses for something other than the ISO code.
const RENAMED: Readonly<Record<string, string>> = { SDR: 'XDR' };
// Rows kept out on purpose. GOLD is a price per troy ounce, not a currency. The others are currencies
// that no longer exist, still printed with figures that are not theirs: ATS and NLG match no fixed
// euro conversion of the day's EUR rate; MZM (replaced in 2006) carries MZN's figure, 1000 times the
// old metical's; CUC (withdrawn in 2021) carries the CUP rate of 24 per USD; ZWD (gone since 2009)
// matches no current Zimbabwe rate. Relabelling them would be a guess, so they are dropped.
const SKIPPED = new Set(['GOLD', 'ATS', 'NLG', 'MZM', 'CUC', 'ZWD']);

const fail: (message: string) => never = failFor(CODE);

/** "28-Mar-26" → 2026-03-28. History starts in 1999, so two-digit years from 70 on are 19xx. */
function isoDate(text: string): string {
  const m = /^(\d{2})-([A-Z][a-z]{2})-(\d{2})$/.exec(text);
  const month = m ? monthNumber(m[2]!) : 0;
  if (!m || month === 0) fail(`bad transaction date ${JSON.stringify(text)}`);
  return `${Number(m[3]) >= 70 ? '19' : '20'}${m[3]}-${String(month).padStart(2, '0')}-${m[1]}`;
}

/** mm/dd/yyyy, as the form's date pickers write it. */
const formDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

export const source: SyncSource = {
  code: CODE,
  name: 'Bank of Tanzania',
  countryCode: 'TZ',
  countryName: 'Tanzania',
  currency: 'TZS',
  cadence: 'daily',
  grade: 'A',
  // Rates are published for every calendar day, weekends included.
  schedule: '*/30 8-10 * * *',
  // BoT documents no release time; the observed polling window opens at 08:00 UTC (11:00 in Dar es
  // Salaam, EAT = UTC+3, no daylight saving), so a day's figures are taken as published by then.
  publishedAtUtc: '08:00:00',
  // A day's figures are the previous day's market: on the recorded payloads they match the ECB of the
  // day before within 0.03% (median) and the same day's only within 0.32% (test/blend-real.test.ts).
  publishedDayOffset: -1,
  feedUrl: `https://www.bot.go.tz${PATH}`,
  baseUrl: 'https://www.bot.go.tz',
  // The site links no terms of use; the exchange-rate page is where the rates and their notes live.
  termsUrl: 'https://www.bot.go.tz/exchangerate/excrates',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const html = payload.body.toString('utf8');
    wholeHtml(fail, payload.name, html);
    const table = parseHtml(html).querySelector('table#table1');
    // Error pages and the bare form (a post without its token) have no rate table.
    if (table === null) fail(`${payload.name} has no rate table`);
    const header = table.querySelectorAll('thead th').map((th) => th.text.trim());
    if (header.join('|') !== COLUMNS) fail(`rate table columns are ${JSON.stringify(header)}`);
    const out: Observation[] = [];
    for (const row of table.querySelectorAll('tbody tr')) {
      const cells = row.querySelectorAll('td').map((td) => td.text.trim());
      if (cells.length !== 6) fail(`a row has ${cells.length} cells, expected 6`);
      const [, label, , , mean, day] = cells as [string, string, string, string, string, string];
      if (SKIPPED.has(label)) continue;
      const date = isoDate(day);
      const quote = isoCode(fail, RENAMED[label] ?? label, `row of ${date}`);
      out.push({ date, quote, rate: decimalOf(fail, mean, `${quote} mean on ${date}`), unit: 1, direction: 'direct' });
    }
    // BoT publishes every day, so a window without rows is a fault, not a holiday.
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  // One form post for the whole window. Since May 2026 the live form also wants the
  // __RequestVerificationToken field and cookie of a preceding GET of the page, which a pure request
  // list cannot carry (see the report on the contract); recorded pages and --from-dir imports work.
  // The page first: since May 2026 the post wants the form's __RequestVerificationToken and the
  // matching antiforgery cookie. The form's own page (a GET of the same address) carries both; the
  // answer to a post renders the same form.
  requests(_window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return [{ url: `${ctx.base}${PATH}`, follow: true }];
  },
  // One form post for the window, dates as mm/dd/yyyy.
  follow(page: FollowedPage, window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    const hidden = hiddenFields(page.body.toString('utf8'), `form[action="${PATH}"]`);
    if (!hidden.some(([name, value]) => name === '__RequestVerificationToken' && value !== '')) fail(`${page.name} has no previous-rates form with its verification token`);
    return [postBack(page, `${ctx.base}${PATH}`, [['dateFrom', formDate(window.from)], ['dateTo', formDate(window.to)]], hidden)];
  },
};
