// Bank of Russia official rates from its XML service: XML_daily (every currency on one date) and
// XML_dynamic (one currency over a range). windows-1251, decimal commas, RUB per `Nominal` units.
import { type Observation, type Payload, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor, fromDmy, isoCode, parseXml, toDmy, unitOf, windowDays, xmlParser } from '../read.js';

const CODE = 'CBRF';
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

// One Valute or Record comes back as an object, several as an array: always an array.
const xml = xmlParser({ isArray: (tag) => tag === 'Valute' || tag === 'Record' });

const fail: (message: string) => never = failFor(CODE);

type Node = Record<string, unknown>;

/** "25.04.2026" → "2026-04-25". */
function isoDate(raw: unknown): string {
  const date = typeof raw === 'string' ? fromDmy(raw) : undefined;
  if (date === undefined) fail(`bad date ${JSON.stringify(raw)}`);
  return date;
}

function observation(date: string, code: unknown, node: Node): Observation {
  const quote = isoCode(fail, code, `Valute of ${date}`);
  const unit = unitOf(fail, node.Nominal, `bad ${quote} Nominal on ${date}`);
  // Value (per Nominal) is the published figure; VunitRate is the CBR's own division of it, not read.
  return { date, quote, rate: decimalOf(fail, node.Value, `bad ${quote} Value on ${date}`), unit, direction: 'direct' };
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

export const source: SyncSource = {
  code: CODE,
  name: 'Central Bank of the Russian Federation',
  countryCode: 'RU',
  countryName: 'Russia',
  currency: 'RUB',
  cadence: 'daily',
  schedule: '*/30 9-11 * * 1-5',
  // Rates are set as of 15:30 Moscow time (UTC+3 all year, no DST): 12:30 UTC. That happens on the
  // business day before the effective date an observation carries: hence the day offset.
  publishedAtUtc: '12:30:00',
  publishedDayOffset: -1,
  feedUrl: 'https://www.cbr.ru/scripts/XML_daily.asp',
  baseUrl: 'https://www.cbr.ru',
  // The XML service's own page.
  termsUrl: 'https://www.cbr.ru/development/SXML/',
  terms: 'attribution',
  // cbr.ru material is free to reuse provided the Bank of Russia is credited as the source.
  attribution: 'Source: Bank of Russia (cbr.ru)',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    // The prolog declares windows-1251: decoded by it, the Cyrillic names survive.
    const root = parseXml(CODE, payload.name, decodeText(payload.body), xml).ValCurs;
    // The service answers bad parameters with 200 and "<ValCurs>Error in parameters</ValCurs>".
    if (typeof root !== 'object' || root === null) fail(`${payload.name} has no ValCurs element`);
    const observations = 'DateRange1' in root ? parseDynamic(root as Node) : parseDaily(root as Node);
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window, ctx) {
    // XML_daily gives every currency for a date; XML_dynamic would take one request per currency.
    // Every calendar day, as DD/MM/YYYY: Saturday is an effective date too, and a day without its own
    // rates (Sunday, Monday, holidays) comes back under the date those rates took effect.
    return windowDays(window).map((day) => ({ url: `${ctx.base}/scripts/XML_daily.asp?date_req=${toDmy(day, '/')}` }));
  },
};
