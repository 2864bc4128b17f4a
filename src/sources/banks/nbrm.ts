// National Bank of the Republic of North Macedonia exchange rate lists (KLServiceNOV/GetExchangeRate,
// JSON). Each row is one currency on one list: `sreden` (middle rate) is MKD per `nomin` units.
// A list has an application date (`datum`, weekends included) and the fixing it was built from (`datum_f`).
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor, isoCode, parseJson, toDmy, unitOf } from '../read.js';

const CODE = 'NBRM';
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

function observation(row: unknown): Observation {
  if (!isRow(row)) fail('rate entry is not an object');
  // The application date is what the list is for (the same rates are "the rate" on every day it
  // applies), the date the ingest files it under; datum_f only says which fixing it came from.
  const date = day(row.datum);
  const quote = isoCode(fail, row.oznaka, `oznaka on ${date}`);
  const unit = unitOf(fail, row.nomin, `bad ${quote} nomin on ${date}`);
  // A missing figure is said as such, apart from one that is not a number.
  if (row.sreden === null || row.sreden === undefined) fail(`no ${quote} middle rate on ${date}`);
  // A JSON number: for the list's 4 decimals its shortest text is the published figure, less
  // trailing zeros (0.0030 → 0.003), which JSON itself does not keep.
  return { date, quote, rate: decimalOf(fail, row.sreden, `bad ${quote} middle rate on ${date}`), unit, direction: 'direct' };
}

export const source: SyncSource = {
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
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name) && !/format=xml/i.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, decodeText(payload.body));
    // A bare array of rows, one per currency and application date, even for a single day.
    if (!Array.isArray(doc)) fail(`${payload.name} is not an array of rates`);
    if (doc.length === 0) fail(`${payload.name} holds no rates`);
    return doc.map(observation);
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return [{ url: `${ctx.base}/KLServiceNOV/GetExchangeRate?StartDate=${toDmy(window.from)}&EndDate=${toDmy(window.to)}&format=json` }];
  },
};
