// Czech National Bank exchange rate fixing: the JSON API (api.cnb.cz) and the pipe-delimited text file
// in its English (daily.txt, decimal point) and Czech (denni_kurz.txt, decimal comma) forms.
// Rates are CZK per `amount` units (100 JPY, 1000 IDR); the multiplier is kept as `unit`.
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor, fromDmy, isIsoDate, isoCode, parseJsonKeepingDigits, unitOf } from '../read.js';
import { monthNumber } from '../months.js';

const CODE = 'CNBA';
// The column line names the layout; anything else (year.txt, an HTML page) is not this file.
const COLUMNS = ['Country|Currency|Amount|Code|Rate', 'země|měna|množství|kód|kurz'];
// exrates/daily(-year) (live JSON, under cnbapi/ or an overridden base), cnbapi-exrates-daily-year-….json
// (recorded), daily.txt, denni_kurz.txt and recorded copies of them. year.txt has a different layout
// and is not read here.
const NAME = /(^|[/-])exrates[/-]daily(-year)?([?/-]|$)|(^|\/)(daily|denni_kurz)([-_.][^/]*)?\.txt(\?|$)/;

const fail: (message: string) => never = failFor(CODE);

function observation(date: string, code: unknown, amount: unknown, raw: unknown): Observation {
  const quote = isoCode(fail, code, `row of ${date}`);
  const unit = unitOf(fail, amount, `bad ${quote} amount on ${date}`);
  return { date, quote, rate: decimalOf(fail, raw, `bad ${quote} rate on ${date}`), unit, direction: 'direct' };
}

function parseJson(text: string): Observation[] {
  // Rates are JSON numbers whose trailing zeros are the bank's digits (24.170): kept as sent.
  const doc = parseJsonKeepingDigits(CODE, 'payload', text, ['rate']);
  const rates = typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>).rates : undefined;
  // API errors are JSON too ({"description": …, "errorCode": …}) and have no rates array.
  if (!Array.isArray(rates)) fail('JSON has no rates array');
  return rates.map((r: unknown) => {
    if (typeof r !== 'object' || r === null) fail('rate entry is not an object');
    const { validFor, currencyCode, amount, rate } = r as Record<string, unknown>;
    if (typeof validFor !== 'string' || !isIsoDate(validFor)) fail(`bad validFor ${JSON.stringify(validFor)}`);
    return observation(validFor, currencyCode, amount, rate);
  });
}

/** "28.03.2022 #61" (Czech file) or "28 Mar 2022 #61" (English file). */
function headerDate(line: string): string {
  const czech = /^(\S+) #\d+$/.exec(line)?.[1];
  const date = czech === undefined ? undefined : fromDmy(czech);
  if (date !== undefined) return date;
  const english = /^(\d{2}) ([A-Z][a-z]{2}) (\d{4}) #\d+$/.exec(line);
  const month = english ? monthNumber(english[2]!) : 0;
  if (!english || month === 0) fail(`first line ${JSON.stringify(line.slice(0, 40))} is not "DD.MM.YYYY #n"`);
  return `${english[3]}-${String(month).padStart(2, '0')}-${english[1]}`;
}

function parseText(text: string): Observation[] {
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const date = headerDate(lines[0] ?? '');
  if (!COLUMNS.includes(lines[1] ?? '')) fail(`unexpected column line ${JSON.stringify(lines[1] ?? '')}`);
  return lines.slice(2).map((line, i) => {
    const cells = line.split('|');
    if (cells.length !== 5) fail(`line ${i + 3} has ${cells.length} fields, expected 5`);
    const [, , amount, quote, rate] = cells;
    return observation(date, quote, amount, rate);
  });
}

export const source: SyncSource = {
  code: CODE,
  name: 'Czech National Bank',
  countryCode: 'CZ',
  countryName: 'Czechia',
  currency: 'CZK',
  cadence: 'daily',
  schedule: '*/30 13-15 * * 1-5',
  // Fixing declared after 14:30 Prague time; CET (UTC+1) gives 13:30 UTC (12:30 in summer, CEST).
  publishedAtUtc: '13:30:00',
  feedUrl: 'https://api.cnb.cz/cnbapi/exrates/daily?lang=EN',
  baseUrl: 'https://api.cnb.cz/cnbapi',
  termsUrl: 'https://www.cnb.cz/en/privacy-statement-and-disclaimer/disclaimer-copyright/',
  terms: 'attribution',
  // The terms let anyone reproduce the rates provided the CNB is always stated as the source.
  attribution: 'Source: Czech National Bank',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const text = decodeText(payload.body).trim();
    const observations = text.startsWith('{') ? parseJson(text) : parseText(text);
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // The JSON API serves history a calendar year at a time: one request per year the window touches.
    // Days outside the window come along; they are the CNB's own figures, and ingest keeps what it wants.
    const first = Number(window.from.slice(0, 4));
    const last = Number(window.to.slice(0, 4));
    const years = Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
    return years.map((year) => ({ url: `${ctx.base}/exrates/daily-year?year=${year}&lang=EN` }));
  },
};
