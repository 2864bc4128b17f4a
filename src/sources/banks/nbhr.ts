// Hrvatska narodna banka exchange rate lists from api.hnb.hr. Since the euro (2023) the v3 API
// (tecajn-eur/v3) gives foreign units per 1 EUR; the legacy v2 API (tecajn/v2) holds the kuna-era
// lists, HRK per `jedinica` units. Rates are decimal-comma strings; we take the middle rate.
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, parseJson, unitOf } from '../read.js';

const CODE = 'NBHR';
// HNB writes codes in upper case; isoCode would upper-case a lower-case one, which here means a layout
// we do not know, so the code is checked as it stands.
const ISO_CODE = /^[A-Z]{3}$/;
// tecajn-eur/v3 and tecajn/v2 (live), tecajn-eur-v3-….json and tecajn-v2-….json (recorded).
const NAME = /(^|\/)tecajn(-eur)?[/-]v[23]([-?#/.]|$)/;
/** Kuna lists end with the one applying from 2022-12-31; v3 starts on 2023-01-01. */
const EURO_DAY = '2023-01-01';

const fail: (message: string) => never = failFor(CODE);

type Row = Record<string, unknown>;
const isRow = (x: unknown): x is Row => typeof x === 'object' && x !== null && !Array.isArray(x);

// "1,066600": the decimal comma becomes a point and all six decimals are kept.
const middle = (row: Row, date: string, quote: string): string => decimalOf(fail, row.srednji_tecaj, `bad ${quote} middle rate on ${date}`);

function observation(row: Row): Observation | null {
  // v3 names the application date datum_primjene; the v2 API now answers with "datum" (older v2
  // answers used datum_primjene too).
  const date = row.datum_primjene ?? row.datum;
  const quote = row.valuta;
  if (!isIsoDate(date)) fail(`bad application date ${JSON.stringify(date)}`);
  if (typeof quote !== 'string' || !ISO_CODE.test(quote)) fail(`bad currency ${JSON.stringify(quote)} on ${date}`);
  if (row.jedinica === undefined) {
    // v3: "1 EUR = x units of the currency", always per 1 euro.
    return { date, quote, rate: middle(row, date, quote), unit: 1, direction: 'indirect' };
  }
  const unit = unitOf(fail, row.jedinica, `bad ${quote} jedinica on ${date}`);
  // v2 rows are HRK per `jedinica` units of the currency. The source's base is the euro and an
  // observation cannot name another base, so of a kuna list only the euro row is expressible: read
  // against the euro it is the HRK price of `jedinica` EUR, an indirect quote of HRK. The other rows
  // are kuna crosses and are left out (the ingest would otherwise file them as EUR prices).
  if (quote !== 'EUR') return null;
  return { date, quote: 'HRK', rate: middle(row, date, quote), unit, direction: 'indirect' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Hrvatska narodna banka',
  countryCode: 'HR',
  countryName: 'Croatia',
  currency: 'EUR',
  cadence: 'daily',
  schedule: '*/30 12-14 * * *',
  // The list applying from a date is set on the working day before it, once the ECB publishes its
  // reference rates at about 16:00 CET (15:00 UTC, 14:00 in summer); its middle rates are the ECB's.
  // The contract joins this time with the application date, a day after the real publication.
  publishedAtUtc: '15:00:00',
  feedUrl: 'https://api.hnb.hr/tecajn-eur/v3',
  baseUrl: 'https://api.hnb.hr',
  // No separate terms page for the API was found; this is the API's own documentation page.
  termsUrl: 'https://api.hnb.hr/',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    // Both versions answer with a bare array of rows, one per currency and application date.
    if (!Array.isArray(doc)) fail(`${payload.name} is not an array of rates`);
    const observations = doc
      .map((row: unknown) => {
        if (!isRow(row)) fail('rate entry is not an object');
        return observation(row);
      })
      .filter((o): o is Observation => o !== null);
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    const requests: FeedRequest[] = [];
    // Dates before the euro are only in the kuna lists of v2, later ones only in v3.
    if (window.from < EURO_DAY) {
      const to = window.to < EURO_DAY ? window.to : '2022-12-31';
      requests.push({ url: `${ctx.base}/tecajn/v2?datum-primjene-od=${window.from}&datum-primjene-do=${to}` });
    }
    if (window.to >= EURO_DAY) {
      const from = window.from >= EURO_DAY ? window.from : EURO_DAY;
      requests.push({ url: `${ctx.base}/tecajn-eur/v3?datum-primjene-od=${from}&datum-primjene-do=${window.to}` });
    }
    return requests;
  },
};
