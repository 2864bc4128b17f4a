// National Bank of Georgia official lari rates (nbg.gov.ge/gw/api/ct/monetarypolicy/currencies).
// GEL per `quantity` units (10 AED, 1000 AMD, 10000 IRR); the quantity is kept as `unit`. A set is
// fixed at 17:00 Tbilisi time and is valid from the next day: the payload dates it by that day.
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isoCode, isRecord, parseJsonKeepingDigits, unitOf, windowDays } from '../read.js';

const CODE = 'BNLN';
// …/monetarypolicy/currencies/?date=… and …/currencies/en/json/ (live), currencies-date-….json (recorded).
const NAME = /monetarypolicy\/currencies(\/|$)|(^|\/)currencies-date-\d{4}-\d{2}-\d{2}\.json$/;

const fail: (message: string) => never = failFor(CODE);


/** "2026-02-28T00:00:00.000Z" → "2026-02-28": the validity day as the bank writes it. */
function day(raw: unknown): string {
  const m = typeof raw === 'string' ? /^(\d{4}-\d{2}-\d{2})(T[\d:.]+Z?)?$/.exec(raw) : null;
  if (!m) fail(`bad date ${JSON.stringify(raw)}`);
  return m[1]!;
}

function observation(date: string, row: unknown): Observation {
  if (!isRecord(row)) fail(`rate entry on ${date} is not an object`);
  const quote = isoCode(fail, row.code, `rate entry on ${date}`);
  const unit = unitOf(fail, row.quantity, `bad ${quote} quantity on ${date}`);
  // rateFormated is the figure as published ("7.0960"); `rate` is the same as a JSON number (its
  // digits kept by the parse). Take the text, and the number only when an answer lacks the text.
  const raw = typeof row.rateFormated === 'string' ? row.rateFormated : row.rate;
  return { date, quote, rate: decimalOf(fail, raw, `bad ${quote} rate on ${date}`), unit, direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'National Bank of Georgia',
  countryCode: 'GE',
  countryName: 'Georgia',
  currency: 'GEL',
  cadence: 'daily',
  schedule: '*/30 8-10 * * 1-5',
  // Rates are set at 17:00 Tbilisi time (GET, UTC+4 all year) = 13:00 UTC, on the business day
  // before the date they are valid from. The contract joins this time with the validity date.
  publishedAtUtc: '13:00:00',
  // Dated by the day it is valid from, set the business day before.
  publishedDayOffset: -1,
  feedUrl: 'https://nbg.gov.ge/gw/api/ct/monetarypolicy/currencies/en/json/',
  baseUrl: 'https://nbg.gov.ge',
  // No separate terms page for the API was found; this page describes the official rate.
  termsUrl: 'https://nbg.gov.ge/en/page/foreign-exchange-market',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name.split(/[?#]/)[0]!);
  },
  parse(payload: Payload): Observation[] {
    // Rates are JSON numbers whose trailing zeros are the bank's digits (7.0960): kept as sent.
    const doc = parseJsonKeepingDigits(CODE, payload.name, payload.body.toString('utf8'), ['rate']);
    // Always an array of sets, one per validity day, even when a single day was asked for.
    if (!Array.isArray(doc)) fail(`${payload.name} is not an array of rate sets`);
    if (doc.length === 0) fail(`${payload.name} holds no rates`);
    return doc.flatMap((set: unknown) => {
      if (!isRecord(set)) fail('rate set is not an object');
      const date = day(set.date);
      if (!Array.isArray(set.currencies) || set.currencies.length === 0) fail(`no rates for ${date}`);
      return set.currencies.map((row: unknown) => observation(date, row));
    });
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // The API answers one date per request, with the set valid on that date (a Monday gets the set
    // dated Saturday, valid over the weekend). Every calendar day is asked for, so no holiday calendar
    // is needed here; a weekend answer repeats a set, and the ingest sees the same body as a duplicate.
    return windowDays(window).map((date) => ({ url: `${ctx.base}/gw/api/ct/monetarypolicy/currencies/?date=${date}` }));
  },
};
