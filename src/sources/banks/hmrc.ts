// HM Revenue & Customs' monthly exchange rates for customs and VAT (UK Trade Tariff service): period
// rates (D21), currency units per £1 (indirect), each in force from its start date to its end date,
// usually a calendar month. Read from the API's CSV (what requests() asks for; recorded) and the
// monthly XML (recorded from velikodniy/hmrc-rates, the same rows; the legacy hmrc.gov.uk files too).
// One row per country or territory, so a currency repeats (XOF eight times, always with one value).
import { csvCells } from '../csv.js';
import { monthNumber } from '../months.js';
import { windowMonths } from '../periods.js';
import { decimalOf, decodeText, failFor, fromDmy, isRecord, isoCode, parseXml, xmlParser } from '../read.js';
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';

const CODE = 'HMRC';
// The API's monthly_csv_YYYY-M.csv (month without a leading zero), its recorded 404, the API's
// monthly_xml_YYYY-M.xml and the legacy exrates-monthly-MMYY.xml.
const NAME = /(^|\/)monthly_csv_\d{4}-\d{1,2}(-404\.json|\.csv)$|(^|\/)monthly_xml_\d{4}-\d{1,2}\.xml$|(^|\/)exrates-monthly-\d{4}\.xml$/;
const FILES = '/uk/api/exchange_rates/files';
const HEADER = 'Country/Territories,Currency,Currency Code,Currency Units per £1,Start date,End date';
// Ecuador's row repeats the US dollar (Ecuador is dollarised) under the sucre's old code: the USA
// row carries USD, so it is left out.
const NOT_A_CURRENCY = new Set(['ECS']);

const fail: (message: string) => never = failFor(CODE);
const xml = xmlParser({ isArray: (tag) => tag === 'exchangeRate' });

const figure = (quote: string, rate: string, from: string, to: string): Observation => ({ date: from, validTo: to, quote, rate, unit: 1, direction: 'indirect' });

function fromCsv(name: string, text: string): Observation[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines[0] !== HEADER) fail(`${name} is not HMRC's monthly CSV (header ${JSON.stringify((lines[0] ?? '').slice(0, 80))})`);
  const out: Observation[] = [];
  for (const line of lines.slice(1)) {
    const [country, , code, value, start, end] = csvCells(fail, line);
    const quote = isoCode(fail, code, `${country}`);
    const from = fromDmy(start ?? '');
    const to = fromDmy(end ?? '');
    if (!from || !to) fail(`${quote}: bad period ${JSON.stringify(`${start} to ${end}`)}`);
    if (!NOT_A_CURRENCY.has(quote)) out.push(figure(quote, decimalOf(fail, value, `${quote} on ${from}`), from, to));
  }
  return out;
}

/** `01/Aug/2026` → 2026-08-01. */
function xmlDay(text: string): string | undefined {
  const m = /^(\d{2})\/([A-Za-z]{3})\/(\d{4})$/.exec(text);
  const month = m ? monthNumber(m[2]!) : 0;
  return m && month ? `${m[3]}-${String(month).padStart(2, '0')}-${m[1]}` : undefined;
}

function fromXml(name: string, text: string): Observation[] {
  const list = parseXml(CODE, name, text, xml).exchangeRateMonthList;
  if (!isRecord(list)) fail(`${name} has no exchangeRateMonthList`);
  const period = /^(\S+) to (\S+)$/.exec(String(list.Period ?? ''));
  const from = xmlDay(period?.[1] ?? '');
  const to = xmlDay(period?.[2] ?? '');
  if (!from || !to) fail(`${name}: bad Period ${JSON.stringify(list.Period)}`);
  return ((list.exchangeRate ?? []) as unknown[]).flatMap((row) => {
    if (!isRecord(row)) return fail(`${name}: an exchangeRate is not an element`);
    const quote = isoCode(fail, row.currencyCode, `${String(row.countryName)}`);
    return NOT_A_CURRENCY.has(quote) ? [] : [figure(quote, decimalOf(fail, row.rateNew, `${quote} on ${from}`), from, to)];
  });
}

export const source: SyncSource = {
  code: CODE,
  name: 'HM Revenue & Customs',
  countryCode: 'GB',
  countryName: 'United Kingdom',
  currency: 'GBP',
  cadence: 'monthly',
  periodRates: true,
  // Published on the penultimate Thursday of the month before the month they are for: a look every
  // weekday afternoon costs two small requests (the month in force, the coming one: 404 until then).
  schedule: '20 14 * * 1-5',
  // No time of day is documented; the Trade Tariff files have appeared by midday London time.
  publishedAtUtc: '12:00:00',
  feedUrl: `https://www.trade-tariff.service.gov.uk${FILES}/monthly_csv_2026-9.csv`,
  baseUrl: 'https://www.trade-tariff.service.gov.uk',
  termsUrl: 'https://www.nationalarchives.gov.uk/doc/open-government-licence/version/3/',
  terms: 'open',
  attribution: 'Contains public sector information licensed under the Open Government Licence v3.0 (HM Revenue & Customs)',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const text = decodeText(payload.body).trimStart();
    // The API's answer for a month not published yet (HTTP 404): {"errors":[{"detail":"not found"}]}.
    if (text.startsWith('{') && /"detail"\s*:\s*"not found"/.test(text)) throw new NoPublication(CODE, `${payload.name}: not published (yet): ${text.slice(0, 60)}`);
    const observations = text.startsWith('<') ? fromXml(payload.name, text) : fromCsv(payload.name, text);
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One file per month, and the coming month's, which answers 404 until HMRC publishes it.
    const months = windowMonths(window, 1);
    return months.map(([y, m], i) => ({ url: `${ctx.base}${FILES}/monthly_csv_${y}-${m}.csv`, ...(i === months.length - 1 ? { optional: true } : {}) }));
  },
};
