// National Bank of Moldova official rates: official_exchange_rates?get_xml=1&date=DD.MM.YYYY, one date
// per request, ValCurs/Valute(CharCode, Nominal, Value) with MDL per `Nominal` units, decimal points.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { cleanDecimal } from '../money/decimal.js';
import { type Observation, type Payload, type Source } from './types.js';
import { failFor } from './read.js';

const CODE = 'NBMD';
const ISO_CODE = /^[A-Z]{3}$/;
// {lang}/official_exchange_rates?get_xml=1&date=… (live) or official_exchange_rates-DD.MM.YYYY.xml
// (recorded). The same page without get_xml=1 is HTML.
const NAME = /(^|\/)official_exchange_rates(\?(.*&)?get_xml=1(&|$)|-[^/]*\.xml$)/;

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // Rates stay text: a parsed number would lose the published digits.
  parseAttributeValue: false,
  parseTagValue: false,
  isArray: (tag) => tag === 'Valute',
});

const fail: (message: string) => never = failFor(CODE);

type Node = Record<string, unknown>;

/** "06.04.2026" → "2026-04-06". */
function isoDate(raw: unknown): string {
  const m = typeof raw === 'string' ? /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(raw) : null;
  if (!m) fail(`bad ValCurs Date ${JSON.stringify(raw)}`);
  return `${m[3]}-${m[2]}-${m[1]}`;
}

function observation(date: string, valute: Node): Observation {
  const { CharCode: quote, Nominal: nominal, Value: raw } = valute;
  if (typeof quote !== 'string' || !ISO_CODE.test(quote)) fail(`bad currency code ${JSON.stringify(quote)} on ${date}`);
  if (typeof nominal !== 'string' || !/^[1-9]\d*$/.test(nominal)) fail(`bad ${quote} Nominal ${JSON.stringify(nominal)} on ${date}`);
  let rate: string;
  try {
    rate = cleanDecimal(typeof raw === 'string' ? raw : '');
  } catch {
    fail(`bad ${quote} Value ${JSON.stringify(raw)} on ${date}`);
  }
  return { date, quote, rate, unit: Number(nominal), direction: 'direct' };
}

/** DD.MM.YYYY of every calendar day in the window: how the BNM answers a weekend date is unverified, so
 *  ask for each day and keep the date each answer states. */
function calendarDays(from: string, to: string): string[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end)) throw new RangeError(`${CODE}: bad window ${from}..${to}`);
  const days: string[] = [];
  for (let t = start; t <= end; t += 86_400_000) {
    const [y, m, d] = new Date(t).toISOString().slice(0, 10).split('-');
    days.push(`${d}.${m}.${y}`);
  }
  return days;
}

export const source: Source = {
  code: CODE,
  name: 'National Bank of Moldova',
  countryCode: 'MD',
  countryName: 'Moldova',
  currency: 'MDL',
  cadence: 'daily',
  schedule: '*/30 13-15 * * 1-5',
  // No documented time: rates are set on business days and valid from the next day. We take the
  // start of the observed poll window, 15:00 Chisinau time in winter (EET, UTC+2) = 13:00 UTC.
  publishedAtUtc: '13:00:00',
  feedUrl: 'https://www.bnm.md/en/official_exchange_rates?get_xml=1',
  baseUrl: 'https://www.bnm.md',
  termsUrl: 'https://www.bnm.md/en/official_exchange_rates',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const text = payload.body.toString('utf8').replace(/^\uFEFF/, '');
    const valid = XMLValidator.validate(text);
    if (valid !== true) fail(`${payload.name} is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
    const root = (xml.parse(text) as Node).ValCurs;
    if (typeof root !== 'object' || root === null) fail(`${payload.name} has no ValCurs element`);
    // Date is the day the rates are valid for (set on the business day before).
    const date = isoDate((root as Node).Date);
    const observations = (((root as Node).Valute ?? []) as Node[]).map((v) => observation(date, v));
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window, ctx) {
    return calendarDays(window.from, window.to).map((day) => ({ url: `${ctx.base}/en/official_exchange_rates?get_xml=1&date=${day}` }));
  },
};
