// U.S. Treasury Reporting Rates of Exchange (Bureau of the Fiscal Service, Fiscal Data API): period
// rates (D21), foreign units per US dollar (indirect), one figure per currency a quarter. A figure
// of record date D (a quarter's end) is in force from D to the day before the next quarter's end;
// an amendment, a later row under the same record date with its own effective date, is in force
// from that date to the same end (it replaces the quarter's figure from then on). Rows are keyed by
// "Country-Currency" labels, not codes: ../ustr-labels.ts maps them. Recorded: one JSON answer.
import { LABEL_RANK, labelCode } from '../ustr-labels.js';
import { addDays } from '../../time/days.js';
import { decimalOf, decodeText, failFor, isIsoDate, isRecord, parseJson } from '../read.js';
import type { FeedRequest, FetchWindow, Observation, Payload, RequestContext, SyncSource } from '../types.js';

const CODE = 'USTR';
const PATH = '/services/api/fiscal_service/v1/accounting/od/rates_of_exchange';
const NAME = /(^|\/)rates_of_exchange(\?|-|$)/;
const FIELDS = 'record_date,effective_date,country_currency_desc,exchange_rate';
/** Rows per page: the API's largest. A request asks for at most ten years, some 8,000 rows. */
const PAGE = 10_000;
const SPAN_YEARS = 10;
/** Amendments to a quarter arrive up to two months after its record date: a poll reads back this far. */
const AMENDMENT_MONTHS = 4;

const fail: (message: string) => never = failFor(CODE);

/** The day before the quarter end that follows `recordDate`: the last day its figures are in force. */
function quarterLastDay(recordDate: string): string {
  const y = Number(recordDate.slice(0, 4));
  const q = Math.floor((Number(recordDate.slice(5, 7)) - 1) / 3);
  // The end of the quarter after the record date's quarter: day 0 of the month after it.
  const next = new Date(Date.UTC(y, (q + 2) * 3, 0)).toISOString().slice(0, 10);
  return addDays(next, -1);
}

/** `day` moved back `months` months, to the first of its month. */
function monthsBefore(day: string, months: number): string {
  const d = new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1 - months, 1));
  return d.toISOString().slice(0, 10);
}

export const source: SyncSource = {
  code: CODE,
  name: 'U.S. Department of the Treasury, Bureau of the Fiscal Service',
  countryCode: 'US',
  countryName: 'United States',
  currency: 'USD',
  cadence: 'quarterly',
  periodRates: true,
  // A quarter's figures appear in the days after its end, amendments at any time: one request each
  // weekday afternoon.
  schedule: '30 15 * * 1-5',
  // No time of day is documented.
  publishedAtUtc: '12:00:00',
  feedUrl: `https://api.fiscaldata.treasury.gov${PATH}?fields=${FIELDS}&sort=record_date`,
  baseUrl: 'https://api.fiscaldata.treasury.gov',
  termsUrl: 'https://fiscaldata.treasury.gov/api-documentation/#license-and-authorization',
  // US federal government data: public domain.
  terms: 'open',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, decodeText(payload.body));
    if (!isRecord(doc) || !Array.isArray(doc.data) || !isRecord(doc.meta)) fail(`${payload.name} is not a Fiscal Data answer: ${decodeText(payload.body).slice(0, 80)}`);
    // A range longer than a page would lose rows: requests() keeps within one.
    if (Number(doc.meta['total-count']) > doc.data.length) fail(`${payload.name} holds ${doc.data.length} of ${String(doc.meta['total-count'])} rows`);
    const kept = new Map<string, { rank: number; o: Observation }>();
    for (const row of doc.data as unknown[]) {
      if (!isRecord(row)) fail(`${payload.name}: a row is not an object`);
      const { record_date: record, effective_date: from, country_currency_desc: label } = row;
      if (!isIsoDate(record) || !isIsoDate(from)) fail(`${String(label)}: bad record or effective date ${JSON.stringify([record, from])}`);
      const quote = typeof label === 'string' ? labelCode(label, from) : undefined;
      // Labels not in the table, and the dollar economies' own 1 (the base), are not rates to keep.
      if (quote === undefined || quote === 'USD') continue;
      const to = quarterLastDay(record);
      if (from > to) fail(`${label}: effective ${from}, after its quarter of record date ${record} ends`);
      const rank = LABEL_RANK.get(label as string)!;
      const key = `${from} ${quote}`;
      if ((kept.get(key)?.rank ?? Infinity) < rank) continue;
      kept.set(key, { rank, o: { date: from, validTo: to, quote, rate: decimalOf(fail, row.exchange_rate, `${label} on ${from}`), unit: 1, direction: 'indirect' } });
    }
    const observations = [...kept.values()].map((k) => k.o);
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // From a few months before the window, so that amendments to the quarter before it are read.
    const first = monthsBefore(window.from < window.to ? window.from : window.to, AMENDMENT_MONTHS);
    const out: FeedRequest[] = [];
    for (let from = first; from <= window.to; ) {
      const next = `${Number(from.slice(0, 4)) + SPAN_YEARS}${from.slice(4)}`;
      const to = next <= window.to ? addDays(next, -1) : window.to;
      const filter = `record_date:gte:${from},record_date:lte:${to}`;
      out.push({ url: `${ctx.base}${PATH}?fields=${FIELDS}&filter=${filter}&page%5Bnumber%5D=1&page%5Bsize%5D=${PAGE}&sort=record_date` });
      from = next;
    }
    return out;
  },
};
