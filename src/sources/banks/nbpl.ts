// Narodowy Bank Polski mid rates from api.nbp.pl: table A (major currencies, every business day) and
// table B (the rest, Wednesdays). The API has already divided out the unit multipliers of the printed
// tables (100 HUF, 100 JPY), so every mid is PLN per 1 unit.
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, isoCode, isRecord, parseJsonKeepingDigits, windowDays } from '../read.js';

const CODE = 'NBPL';
const TABLES = new Set(['A', 'B']);
// api/exchangerates/tables/A/… (live) or tables-A-….json (recorded). Table C (bid/ask) has no mid.
const NAME = /(^|\/)tables[/-][AB]([/-]|$)/i;
// The API refuses a range longer than 93 days (both ends counted).
const MAX_RANGE_DAYS = 93;

/** The window cut into consecutive ranges the API accepts. */
function ranges(window: FetchWindow): [string, string][] {
  const days = windowDays(window);
  const out: [string, string][] = [];
  for (let i = 0; i < days.length; i += MAX_RANGE_DAYS) out.push([days[i]!, days[Math.min(i + MAX_RANGE_DAYS, days.length) - 1]!]);
  return out;
}

const fail: (message: string) => never = failFor(CODE);

// Mids are JSON numbers whose trailing zeros are the bank's digits (3.6770): kept as sent.
const readJson = (payload: Payload): unknown => parseJsonKeepingDigits(CODE, payload.name, payload.body.toString('utf8'), ['mid']);


function parseTable(table: unknown): Observation[] {
  if (!isRecord(table)) fail('table is not an object');
  const { table: letter, no, effectiveDate: date, rates } = table;
  if (typeof letter !== 'string' || !TABLES.has(letter)) fail(`table ${JSON.stringify(letter)} is not A or B`);
  if (!isIsoDate(date)) fail(`table ${String(no)} has bad effectiveDate ${JSON.stringify(date)}`);
  if (!Array.isArray(rates) || rates.length === 0) fail(`table ${String(no)} has no rates`);
  return rates.map((r: unknown): Observation => {
    if (!isRecord(r)) fail(`table ${String(no)} has a rate that is not an object`);
    const quote = isoCode(fail, r.code, `table ${String(no)} code`);
    // Table C rows have bid and ask instead: say so rather than "not a number".
    if (r.mid === undefined || r.mid === null) fail(`table ${String(no)} has no mid for ${quote}`);
    const rate = decimalOf(fail, r.mid, `table ${String(no)} has bad ${quote} mid`);
    return { date, quote, rate, unit: 1, direction: 'direct', table: letter };
  });
}

export const source: SyncSource = {
  code: CODE,
  name: 'Narodowy Bank Polski',
  countryCode: 'PL',
  countryName: 'Poland',
  currency: 'PLN',
  cadence: 'daily',
  tableCadence: { A: 'daily', B: 'weekly' },
  schedule: '*/30 11-13 * * 1-5',
  // Tables are published between 11:45 and 12:15 Warsaw time; we take the end of that window so a
  // timestamp is never earlier than the figure, and CET (UTC+1) gives 11:15 UTC (10:15 in summer, CEST).
  publishedAtUtc: '11:15:00',
  feedUrl: 'https://api.nbp.pl/api/exchangerates/tables/A/?format=json',
  baseUrl: 'https://api.nbp.pl/api',
  termsUrl: 'https://api.nbp.pl/en.html',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name) && !/format=xml|\.xml$/i.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = readJson(payload);
    // The API always answers with an array of tables, even for a single day.
    if (!Array.isArray(doc)) fail(`${payload.name} is not an array of tables`);
    if (doc.length === 0) fail(`${payload.name} holds no tables`);
    return doc.flatMap(parseTable);
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // Both tables for every range. NBP answers 404 for a range with no table (table B on a range without
    // a Wednesday, either table over holidays): no publication, not a fault, so each request is optional.
    return ranges(window).flatMap(([from, to]) =>
      ['A', 'B'].map((table) => ({ url: `${ctx.base}/exchangerates/tables/${table}/${from}/${to}/?format=json`, optional: true })),
    );
  },
};
