// Bank of Russia official rates from its XML service: XML_daily (every currency on one date) and
// XML_dynamic (one currency over a range). windows-1251, decimal commas, RUB per `Nominal` units.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { cleanDecimal } from '../money/decimal.js';
import { type Observation, type Payload, type Source } from './types.js';
import { failFor } from './read.js';

const CODE = 'CBRF';
const ISO_CODE = /^[A-Z]{3}$/;
// scripts/XML_daily.asp, XML_daily_eng.asp, XML_dynamic.asp (live) or XML_daily-….xml (recorded).
const NAME = /(^|\/)XML_(daily(_eng)?|dynamic)([.-]|$)/;
/** XML_dynamic names its currency only by the CBR's internal id. An id is tied to one currency (a
 *  redenomination gets a new suffix: R01700J is TRY), so this list, taken from the 2026 XML_daily, only
 *  needs to grow when the CBR adds a currency. */
const VALUTE_IDS: Readonly<Record<string, string>> = Object.fromEntries(
  ('R01010:AUD R01020A:AZN R01030:DZD R01035:GBP R01060:AMD R01080:BHD R01090B:BYN R01105:BOB R01115:BRL ' +
    'R01135:HUF R01150:VND R01200:HKD R01210:GEL R01215:DKK R01230:AED R01235:USD R01239:EUR R01240:EGP ' +
    'R01270:INR R01280:IDR R01300:IRR R01335:KZT R01350:CAD R01355:QAR R01370:KGS R01375:CNY R01395:CUP ' +
    'R01500:MDL R01503:MNT R01520:NGN R01530:NZD R01535:NOK R01540:OMR R01565:PLN R01580:SAR R01585F:RON ' +
    'R01589:XDR R01625:SGD R01670:TJS R01675:THB R01685:BDT R01700J:TRY R01710A:TMT R01717:UZS R01720:UAH ' +
    'R01760:CZK R01770:SEK R01775:CHF R01800:ETB R01805F:RSD R01810:ZAR R01815:KRW R01820:JPY R02005:MMK')
    .split(' ')
    .map((pair) => pair.split(':')),
);

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // Rates stay text: a parsed number would lose the published digits.
  parseAttributeValue: false,
  parseTagValue: false,
  isArray: (tag) => tag === 'Valute' || tag === 'Record',
});

const fail: (message: string) => never = failFor(CODE);

type Node = Record<string, unknown>;

/** The prolog declares windows-1251; decode by it so the Cyrillic names survive (an error page has none). */
function decode(body: Buffer): string {
  const label = /^\s*<\?xml[^>]*encoding=["']([\w-]+)["']/i.exec(body.subarray(0, 200).toString('latin1'))?.[1] ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    fail(`unknown encoding ${JSON.stringify(label)}`);
  }
  return decoder.decode(body);
}

/** "25.04.2026" → "2026-04-25". */
function isoDate(raw: unknown): string {
  const m = typeof raw === 'string' ? /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(raw) : null;
  if (!m) fail(`bad date ${JSON.stringify(raw)}`);
  return `${m[3]}-${m[2]}-${m[1]}`;
}

function observation(date: string, quote: unknown, node: Node): Observation {
  if (typeof quote !== 'string' || !ISO_CODE.test(quote)) fail(`bad currency code ${JSON.stringify(quote)} on ${date}`);
  const { Nominal: nominal, Value: value } = node;
  if (typeof nominal !== 'string' || !/^[1-9]\d*$/.test(nominal)) fail(`bad ${quote} Nominal ${JSON.stringify(nominal)} on ${date}`);
  let rate: string;
  try {
    // Value (per Nominal) is the published figure; VunitRate is the CBR's own division of it, not read.
    rate = cleanDecimal(typeof value === 'string' ? value : '');
  } catch {
    fail(`bad ${quote} Value ${JSON.stringify(value)} on ${date}`);
  }
  return { date, quote, rate, unit: Number(nominal), direction: 'direct' };
}

function parseDaily(root: Node): Observation[] {
  // Date is the day the rates are effective: set on the business day before, kept over weekends.
  const date = isoDate(root.Date);
  const valutes = (root.Valute ?? []) as Node[];
  return valutes.map((v) => observation(date, v.CharCode, v));
}

function parseDynamic(root: Node): Observation[] {
  const quote = typeof root.ID === 'string' ? VALUTE_IDS[root.ID] : undefined;
  if (quote === undefined) fail(`unknown CBR currency id ${JSON.stringify(root.ID)}`);
  const records = (root.Record ?? []) as Node[];
  return records.map((r) => observation(isoDate(r.Date), quote, r));
}

/** DD/MM/YYYY for each calendar day of the window: Saturday is an effective date too, and a day
 *  without its own rates (Sunday, Monday, holidays) comes back under the date those rates took effect. */
function requestDays(from: string, to: string): string[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end)) throw new RangeError(`${CODE}: bad window ${from}..${to}`);
  const days: string[] = [];
  for (let t = start; t <= end; t += 86_400_000) {
    const [y, m, d] = new Date(t).toISOString().slice(0, 10).split('-');
    days.push(`${d}/${m}/${y}`);
  }
  return days;
}

export const source: Source = {
  code: CODE,
  name: 'Central Bank of the Russian Federation',
  countryCode: 'RU',
  countryName: 'Russia',
  currency: 'RUB',
  cadence: 'daily',
  schedule: '*/30 9-11 * * 1-5',
  // Rates are set as of 15:30 Moscow time (UTC+3 all year, no DST): 12:30 UTC. That happens on the
  // business day before the effective date an observation carries, so date + time runs a day (or more) late.
  publishedAtUtc: '12:30:00',
  feedUrl: 'https://www.cbr.ru/scripts/XML_daily.asp',
  baseUrl: 'https://www.cbr.ru',
  // The XML service's own page.
  termsUrl: 'https://www.cbr.ru/development/SXML/',
  // cbr.ru material is free to reuse provided the Bank of Russia is credited as the source.
  attribution: 'Source: Bank of Russia (cbr.ru)',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const text = decode(payload.body).replace(/^\uFEFF/, '');
    const valid = XMLValidator.validate(text);
    if (valid !== true) fail(`${payload.name} is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
    const root = (xml.parse(text) as Node).ValCurs;
    // The service answers bad parameters with 200 and "<ValCurs>Error in parameters</ValCurs>".
    if (typeof root !== 'object' || root === null) fail(`${payload.name} has no ValCurs element`);
    const observations = 'DateRange1' in root ? parseDynamic(root as Node) : parseDaily(root as Node);
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window, ctx) {
    // XML_daily gives every currency for a date; XML_dynamic would take one request per currency.
    return requestDays(window.from, window.to).map((day) => ({ url: `${ctx.base}/scripts/XML_daily.asp?date_req=${day}` }));
  },
};
