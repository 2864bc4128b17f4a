// National Bank of the Republic of North Macedonia exchange rate lists (KLServiceNOV/GetExchangeRate,
// JSON). Each row is one currency on one list: `sreden` (middle rate) is MKD per `nomin` units.
// A list has an application date (`datum`, weekends included) and the fixing it was built from (`datum_f`).
import { cleanDecimal } from '../money/decimal.js';
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type Source } from './types.js';
import { failFor, parseJson } from './read.js';

const CODE = 'NBRM';
const ISO_CODE = /^[A-Z]{3}$/;
// …/KLServiceNOV/GetExchangeRate?… (live) and GetExchangeRate-30.05.2026.json (recorded). The XML
// form (format=xml) is not read here.
const NAME = /(^|\/)GetExchangeRate([?-]|$)/;

const fail: (message: string) => never = failFor(CODE);

type Row = Record<string, unknown>;
const isRow = (x: unknown): x is Row => typeof x === 'object' && x !== null && !Array.isArray(x);

/** "2026-05-30T00:00:00" → "2026-05-30". */
function day(raw: unknown): string {
  const m = typeof raw === 'string' ? /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}:\d{2})?$/.exec(raw) : null;
  if (!m) fail(`bad datum ${JSON.stringify(raw)}`);
  return m[1]!;
}

/** 2026-03-02 → 02.03.2026, the service's date format. */
const dotted = (iso: string) => `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;

function observation(row: unknown): Observation {
  if (!isRow(row)) fail('rate entry is not an object');
  // The application date is what the list is for (the same rates are "the rate" on every day it
  // applies), the date the ingest files it under; datum_f only says which fixing it came from.
  const date = day(row.datum);
  const { oznaka: quote, nomin: unit, sreden: raw } = row;
  if (typeof quote !== 'string' || !ISO_CODE.test(quote)) fail(`bad currency ${JSON.stringify(quote)} on ${date}`);
  if (typeof unit !== 'number' || !Number.isSafeInteger(unit) || unit <= 0) fail(`bad ${quote} nomin ${JSON.stringify(unit)} on ${date}`);
  if (typeof raw !== 'number' && typeof raw !== 'string') fail(`no ${quote} middle rate on ${date}`);
  try {
    // A JSON number: for the list's 4 decimals its shortest text is the published figure, less
    // trailing zeros (0.0030 → 0.003), which JSON itself does not keep.
    return { date, quote, rate: cleanDecimal(raw), unit, direction: 'direct' };
  } catch {
    fail(`bad ${quote} middle rate ${JSON.stringify(raw)} on ${date}`);
  }
}

export const source: Source = {
  code: CODE,
  name: 'National Bank of the Republic of North Macedonia',
  countryCode: 'MK',
  countryName: 'North Macedonia',
  currency: 'MKD',
  cadence: 'daily',
  schedule: '*/30 10-12 * * *',
  // No publication time is documented; we take the start of the observed polling window, 10:00 UTC
  // (11:00 CET). The contract joins it with the application date, which is after the fixing day.
  publishedAtUtc: '10:00:00',
  // The service always takes a date range; the latest list is the one for today's date.
  feedUrl: 'https://www.nbrm.mk/KLServiceNOV/GetExchangeRate?StartDate=DD.MM.YYYY&EndDate=DD.MM.YYYY&format=json',
  baseUrl: 'https://www.nbrm.mk',
  termsUrl: 'https://www.nbrm.mk/kursna_lista-en.nspx',
  accepts(name) {
    return NAME.test(name) && !/format=xml/i.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8').replace(/^\uFEFF/, ''));
    // A bare array of rows, one per currency and application date, even for a single day.
    if (!Array.isArray(doc)) fail(`${payload.name} is not an array of rates`);
    if (doc.length === 0) fail(`${payload.name} holds no rates`);
    return doc.map(observation);
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return [{ url: `${ctx.base}/KLServiceNOV/GetExchangeRate?StartDate=${dotted(window.from)}&EndDate=${dotted(window.to)}&format=json` }];
  },
};
