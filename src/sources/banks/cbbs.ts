// Central Bank of Bosnia and Herzegovina (CBBH): the official middle rates of the convertible mark,
// BAM per Units (1 or 100), from its JSON export (pretty-printed, CRLF). A list is dated the day it
// applies (Tuesday to Saturday) and published the working day before, from that day's ECB reference
// rates (1 EUR = 1.95583 BAM, the currency board). 1998 lists name the ECU `XBA` and the peseta `ESB`.
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, isoCode, isRecord, parseJson, unitOf } from '../read.js';
import { addDays } from '../../time/days.js';

const CODE = 'CBBS';
const PATH = '/CurrencyExchange';
// …/GetJsonForPeriod?dateFrom=…&dateTo=… and …/GetJson?date=… (live), GetJsonForPeriod-….json and
// GetJson-….json (recorded).
const NAME = /(^|\/)GetJson(ForPeriod)?(\?.*|-[^/]*\.json)$/;
// The answer to a range without a list (HTTP 404) and, with the same words, to a failed export.
const NO_LIST = 'Problem with export';
// The bank's own codes for currencies ISO 4217 names otherwise: the ECU (its XBA, numeric 955, is the
// European Composite Unit's code; the ECU's is XEU) and the Spanish peseta (numeric 995).
const CODES: Readonly<Record<string, string>> = { XBA: 'XEU', ESB: 'ESP' };

const fail: (message: string) => never = failFor(CODE);

function list(node: unknown): Observation[] {
  if (!isRecord(node) || !Array.isArray(node.CurrencyExchangeItems)) fail('a list without CurrencyExchangeItems');
  const date = typeof node.Date === 'string' ? node.Date.replace(/T00:00:00$/, '') : undefined;
  if (!isIsoDate(date)) fail(`bad list Date ${JSON.stringify(node.Date)}`);
  const observations: Observation[] = [];
  for (const row of node.CurrencyExchangeItems) {
    if (!isRecord(row)) fail(`list of ${date}: a row is not an object`);
    // A row with every figure empty (KWD in 1998) quotes nothing. Middle is the official rate; Buy
    // and Sell are Middle ∓ 0.25% (and empty for the SDR).
    if ([row.Units, row.Buy, row.Middle, row.Sell].every((v) => v === '')) continue;
    const code = isoCode(fail, row.AlphaCode, `list of ${date} AlphaCode`);
    const quote = CODES[code] ?? code;
    const unit = unitOf(fail, row.Units, `${code} Units on ${date}`);
    observations.push({ date, quote, rate: decimalOf(fail, row.Middle, `${code} Middle on ${date}`), unit, direction: 'direct' });
  }
  return observations;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Central Bank of Bosnia and Herzegovina',
  countryCode: 'BA',
  countryName: 'Bosnia and Herzegovina',
  currency: 'BAM',
  cadence: 'daily',
  // Working days after about 16:00 in Sarajevo (CET/CEST).
  schedule: '*/30 14-17 * * 1-5',
  // About 16:00 in Sarajevo, 15:00 UTC in winter (14:00 in summer), the working day before the date
  // a list applies from. The figures are the ECB's reference rates of that day (fixing.ts).
  publishedAtUtc: '15:00:00',
  publishedDayOffset: -1,
  feedUrl: `https://www.cbbh.ba${PATH}/GetJsonForPeriod?dateFrom=2026-09-24&dateTo=2026-09-26`,
  baseUrl: 'https://www.cbbh.ba',
  termsUrl: 'https://www.cbbh.ba/Content/Read/473',
  // "It is forbidden to use the materials from this Web site for commercial purposes"; quoting with
  // the CBBH named as the source and a link to www.cbbh.ba.
  terms: 'non-commercial',
  attribution: 'Source: Central Bank of Bosnia and Herzegovina (www.cbbh.ba)',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    // GetJson answers one list, GetJsonForPeriod an array of them, or this string for an empty range.
    if (doc === NO_LIST) throw new NoPublication(CODE, `${payload.name}: no list in the range ("${NO_LIST}")`);
    const observations = (Array.isArray(doc) ? doc : [doc]).flatMap(list);
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // Today's list is dated tomorrow: the range reaches one day past the window. A range per calendar
    // year (about 1 MB; lists since 1998-01-06). A range without a list (a weekend, a holiday)
    // answers 404: no publication.
    const last = addDays(window.to, 1);
    const requests: FeedRequest[] = [];
    for (let year = Number(window.from.slice(0, 4)); year <= Number(last.slice(0, 4)); year++) {
      const from = year === Number(window.from.slice(0, 4)) ? window.from : `${year}-01-01`;
      const to = year === Number(last.slice(0, 4)) ? last : `${year}-12-31`;
      requests.push({ url: `${ctx.base}${PATH}/GetJsonForPeriod?dateFrom=${from}&dateTo=${to}`, optional: true });
    }
    return requests;
  },
};
