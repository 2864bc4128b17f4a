// Palestine Monetary Authority: its daily exchange-rate table (Sunday to Thursday), exported as an
// XLSX by a form whose hidden field (name and value) and PHPSESSID cookie change every session:
// the form page first, then the form posted back. Rows are pairs with no common base: `USD/ILS` (ILS
// per USD), `GBP/USD` (USD per GBP), `JOD/ILS` (ILS per JOD); every cell is text, buy and sell with
// thousands separators (`89,446.50`), the published mid without (`89623.25`).
import { NoPublication, type FeedRequest, type FetchWindow, type FollowedPage, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { Decimal } from '../../money/decimal.js';
import { decimalOf, decodeText, failFor, firstSheetRows, isIsoDate, isoCode } from '../read.js';
import { hiddenFields, postBack } from '../follow.js';

const CODE = 'PMAP';
const PATH = '/ar/webtools/currency/export';
// …/ar/webtools/currency/export (the form, and the workbook it answers, live) or
// pma-currencies-ar-<from>-<to>.xlsx (the attachment's own name, recorded).
const NAME = /(^|\/)(ar\/webtools\/currency\/export|pma-currencies-ar-[^/]*\.xlsx)$/;
// Date, pair, buy, sell, mid.
const HEADER = ['التاريخ', 'العملة', 'الشراء', 'البيع', 'الوسطي'];

const fail: (message: string) => never = failFor(CODE);

/** A buy or sell cell: `89,446.50`, its thousands separators dropped. */
const leg = (raw: unknown, where: string) => new Decimal(decimalOf(fail, typeof raw === 'string' ? raw.replaceAll(',', '') : raw, where));

/**
 * One row against the base, USD: 22 of the 25 pairs have USD on one side, so USD is the base.
 * `USD/XXX` is XXX per USD (indirect), `XXX/USD` USD per XXX (direct; XAU and XAG per troy ounce).
 * The three pairs against the shekel alone (JOD/ILS, EUR/ILS, EGP/ILS) are left out: they are not
 * against the base, a figure computed from them would not be the one published, and all three
 * currencies are published against USD in the same table.
 */
function observation(row: unknown[]): Observation | undefined {
  const [day, pair, buy, sell, mid] = row;
  const date = typeof day === 'string' ? day.trim().replaceAll('/', '-') : '';
  if (!isIsoDate(date)) fail(`bad date cell ${JSON.stringify(day)}`);
  const m = typeof pair === 'string' ? /^([A-Z]{3})\/([A-Z]{3})$/.exec(pair.trim()) : null;
  if (!m) fail(`bad pair ${JSON.stringify(pair)} on ${date}`);
  const [, left, right] = m;
  if (left !== 'USD' && right !== 'USD') return undefined;
  const quote = isoCode(fail, left === 'USD' ? right : left, `pair on ${date}`);
  // The mid is published (the mean of buy and sell rounded to the pair's decimals; USD/LBP's equals
  // its sell rate on 2026-09-06 and 07): it is the figure kept, checked to lie between the two.
  const rate = decimalOf(fail, mid, `${pair} mid on ${date}`);
  const [b, s] = [leg(buy, `${pair} buy on ${date}`), leg(sell, `${pair} sell on ${date}`)];
  if (new Decimal(rate).lt(Decimal.min(b, s)) || new Decimal(rate).gt(Decimal.max(b, s))) fail(`${pair} on ${date}: mid ${rate} is not between buy ${b} and sell ${s}`);
  return { date, quote, rate, unit: 1, direction: left === 'USD' ? 'indirect' : 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Palestine Monetary Authority',
  countryCode: 'PS',
  countryName: 'Palestine',
  // No currency of its own (ILS, JOD and USD circulate): USD, the side most pairs share (observation()).
  currency: 'USD',
  cadence: 'daily',
  // Sunday to Thursday; Ramallah is UTC+2 in winter, UTC+3 in summer.
  schedule: '*/30 8-12 * * 0-4',
  // No time is stated: taken as published by 12:00 in Ramallah in winter (13:00 in summer).
  publishedAtUtc: '10:00:00',
  feedUrl: `https://wcur.pma.ps${PATH}`,
  baseUrl: 'https://wcur.pma.ps',
  termsUrl: 'https://wcur.pma.ps/terms-of-use',
  // "Information may be used for non-commercial purposes, provided that the source is properly
  // acknowledged"; reproduction or redistribution needs prior permission.
  terms: 'non-commercial',
  attribution: 'Source: Palestine Monetary Authority',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const rows = firstSheetRows(CODE, payload.name, payload.body, 'xlsx');
    if (!HEADER.every((h, i) => rows[0]?.[i] === h)) fail(`${payload.name} has no ${HEADER.join(' | ')} header`);
    const data = rows.slice(1).filter((r) => r.some((c) => c !== null && c !== ''));
    // The header alone: the window held no working day (a Friday and Saturday).
    if (data.length === 0) throw new NoPublication(CODE, `${payload.name} holds no rates: no working day in the window`);
    const observations = data.map(observation).filter((o) => o !== undefined);
    if (observations.length === 0) fail(`${payload.name} holds no pair against USD`);
    return observations;
  },
  // The export page first: its form's hidden field and the session cookie must come back with the
  // window (see follow). Every fetch starts a new session, so each gets a fresh token.
  requests(_window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return [{ url: `${ctx.base}${PATH}`, follow: true }];
  },
  // The form posted back to its own URL (it has no action) with the window; the whole archive, from
  // 2020-09-01, fits in one answer of about 1 MB.
  follow(page: FollowedPage, window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    const html = decodeText(page.body);
    const hidden = hiddenFields(html, 'form');
    if (hidden.length !== 1 || hidden[0]![1] === '' || !/name="from"/.test(html) || !/name="to"/.test(html)) fail(`${page.name} is not the export form with its session field`);
    return [postBack(page, `${ctx.base}${PATH}`, [['from', window.from], ['to', window.to]], hidden)];
  },
};
