// Bank of Jamaica counter rates (weighted averages of the dealers' rates), read from the wpDataTables
// endpoint behind its counter-rates page (table 134, 2006 onwards): rows of [date, currency name,
// buying DMD & TT, buying notes, buying coins, selling DMD, TT & cash], JMD per unit.
import { Decimal } from '../../money/decimal.js';
import { NoPublication, type FeedRequest, type FetchWindow, type FollowedPage, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { hiddenFields, postBack } from '../follow.js';
import { decimalOf, failFor, parseJson } from '../read.js';
import { monthNumber } from '../months.js';

const CODE = 'BAJA';
const TABLE_ID = '134';
const PAGE = '/market/foreign-exchange/counter-rates/';
const NONCE_FIELD = `wdtNonceFrontendServerSide_${TABLE_ID}`;
// admin-ajax.php?action=get_wdtable&table_id=134 or boja-wdtable-134-….json (the data); the
// counter-rates page or boja-counter-rates-page-….html (the page that carries the nonce).
const NAME = /[?&]action=get_wdtable&table_id=134(&|$)|(^|\/)boja-wdtable-134-[^/]*\.json$|\/market\/foreign-exchange\/counter-rates\/?$|(^|\/)boja-counter-rates-page-[^/]*\.html$/;

// Every name of the table's currency filter (35, 2026), exactly as written; the data pad some with a
// blank ("DOMINICAN REP. PESO "). An unknown name fails the payload rather than being guessed.
const CURRENCIES: Readonly<Record<string, string | null>> = {
  'AUSTRALIAN DOLLAR': 'AUD', 'BAHAMAS DOLLAR': 'BSD', 'BARBADOS DOLLAR': 'BBD', 'BELIZE DOLLAR': 'BZD',
  'BERMUDA DOLLAR': 'BMD', 'BRAZIL REAL': 'BRL', 'CANADA DOLLAR': 'CAD', 'CAYMAN DOLLAR': 'KYD',
  'CHINESE YUAN': 'CNY', 'DANISH KRONE': 'DKK', 'DOMINICAN REP. PESO': 'DOP', 'E. C. DOLLAR': 'XCD',
  EURO: 'EUR', 'GIBRALTAR POUND': 'GIP', 'GREAT BRITAIN POUND': 'GBP', 'GUYANA DOLLAR': 'GYD',
  'HONG KONG DOLLAR': 'HKD', 'INDIAN RUPEE': 'INR', 'JAPANESE YEN': 'JPY', 'MALAYSIA RINGGIT': 'MYR',
  'MEXICAN PESO': 'MXN', 'NEW ZEALAND DOLLAR': 'NZD', 'NORWEGIAN KRONE': 'NOK', 'SINGAPORE DOLLAR': 'SGD',
  'SOUTH AFRICA RAND': 'ZAR', 'SOUTH KOREA WON': 'KRW', 'SRI LANKA RUPEE': 'LKR', 'SWEDISH KRONA': 'SEK',
  'SWISS FRANC': 'CHF', 'T&T DOLLAR': 'TTD', 'TAIWAN N.T. DOLLAR': 'TWD', 'THAILAND BAHT': 'THB',
  'U.S. DOLLAR': 'USD',
  // Skipped on purpose. Northern Ireland banks' notes are sterling, not a currency of their own: a
  // second, different GBP figure for the same day. The bolivar row does not say which of VEB, VEF
  // or VES (two redenominations) it is quoted in.
  'NORTHERN IRELAND POUND': null,
  'VENEZUELAN BOLIVAR': null,
};

const fail: (message: string) => never = failFor(CODE);

function observation(cells: unknown): Observation | undefined {
  if (!Array.isArray(cells) || cells.length !== 6) fail(`row ${JSON.stringify(cells)} is not [date, currency, 3 buying rates, selling rate]`);
  const [day, name, buyTransfer, , , sellRaw] = cells as unknown[];
  const d = typeof day === 'string' ? /^(\d{2}) ([A-Z][a-z]{2}) (\d{4})$/.exec(day.trim()) : null;
  const month = d ? monthNumber(d[2]!) : 0;
  if (!d || month === 0) fail(`bad date ${JSON.stringify(day)}`);
  const date = `${d[3]}-${String(month).padStart(2, '0')}-${d[1]}`;
  const label = typeof name === 'string' ? name.trim() : '';
  if (!Object.hasOwn(CURRENCIES, label)) fail(`unknown currency ${JSON.stringify(name)} on ${date}`);
  const quote = CURRENCIES[label];
  if (quote === null || quote === undefined) return undefined;
  const buy = new Decimal(decimalOf(fail, buyTransfer, `${quote} buying DMD & TT on ${date}`));
  const sell = new Decimal(decimalOf(fail, sellRaw, `${quote} selling on ${date}`));
  // "0.0000" is the table's way of saying "not quoted": without both sides there is no rate.
  if (buy.isZero() || sell.isZero()) return undefined;
  // The BOJ publishes buying and selling averages and defines no mid. The rate kept is the exact
  // midpoint of the two transfer columns, DMD & TT bought and DMD, TT & cash sold: our reading, the
  // same instrument on both sides (the notes and coins buying rates are cash). 155.3493 and
  // 157.2639 give 156.3066.
  return { date, quote, rate: buy.plus(sell).div(2).toString(), unit: 1, direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Bank of Jamaica',
  countryCode: 'JM',
  countryName: 'Jamaica',
  currency: 'JMD',
  cadence: 'daily',
  schedule: '*/30 18-20 * * 1-5',
  // No release time is documented; the observed polling window opens at 18:00 UTC (13:00 in
  // Kingston, EST = UTC-5 all year), so a day's rates are taken as published by then.
  publishedAtUtc: '18:00:00',
  feedUrl: `https://boj.org.jm/wp-admin/admin-ajax.php?action=get_wdtable&table_id=${TABLE_ID}`,
  baseUrl: 'https://boj.org.jm',
  termsUrl: 'https://boj.org.jm/disclaimer/',
  terms: 'unknown',
  // The disclaimer allows extracting and reproducing the information provided the source is acknowledged.
  attribution: 'Source: Bank of Jamaica',
  grade: 'B',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const text = payload.body.toString('utf8');
    // The page itself holds no rates: it is the first half of the round trip and carries the nonce
    // the data request needs. A valid answer without rates by design, not a broken feed.
    if (text.includes(`id="${NONCE_FIELD}"`)) throw new NoPublication(CODE, `${payload.name} is the counter-rates page: it carries the table's nonce, not its rates`);
    const doc = parseJson(CODE, payload.name, text);
    const rows = typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>).data : undefined;
    // WordPress answers a bad or expired nonce with "0" or "-1": no data rows.
    if (!Array.isArray(rows)) fail(`${payload.name} has no data array`);
    const observations = rows.map(observation).filter((o) => o !== undefined);
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  // The counter-rates page first: the table's endpoint wants the page's wpDataTables nonce.
  requests(_window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return [{ url: `${ctx.base}${PAGE}`, follow: true }];
  },
  // The endpoint takes no dates: length=-1 returns the whole table (~105,000 rows) and ingest keeps
  // the window.
  follow(page: FollowedPage, _window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    const nonce = hiddenFields(page.body.toString('utf8')).find(([name]) => name === NONCE_FIELD)?.[1];
    if (!nonce) fail(`${page.name} carries no ${NONCE_FIELD}`);
    return [postBack(page, `${ctx.base}/wp-admin/admin-ajax.php?action=get_wdtable&table_id=${TABLE_ID}`, [['draw', '1'], ['start', '0'], ['length', '-1'], ['wdtNonce', nonce]], [])];
  },
};
