// National Bank of Tajikistan official rates: kurs/export_xml.php?date=YYYY-MM-DD&export=xmlout, one date
// per request, ValCurs/Valute(CharCode, Nominal, Value) with TJS per `Nominal` units.
import { type Observation, type Payload, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor, isIsoDate, isoCode, parseXml, unitOf, windowDays, xmlParser } from '../read.js';

const CODE = 'NATJ';
// {lang}/kurs/export_xml.php?… (live) or export_xml-YYYY-MM-DD.xml (recorded).
const NAME = /(^|\/)export_xml([.-]|$)/;

// One Valute comes back as an object, several as an array: always an array.
const xml = xmlParser({ isArray: (tag) => tag === 'Valute' });

const fail: (message: string) => never = failFor(CODE);

type Node = Record<string, unknown>;

// The Valute ID is a numeric currency code (RUB still as the pre-1998 810); CharCode is the one read.
function observation(date: string, valute: Node): Observation {
  const quote = isoCode(fail, valute.CharCode, `Valute of ${date}`);
  const unit = unitOf(fail, valute.Nominal, `bad ${quote} Nominal on ${date}`);
  return { date, quote, rate: decimalOf(fail, valute.Value, `bad ${quote} Value on ${date}`), unit, direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'National Bank of Tajikistan',
  countryCode: 'TJ',
  countryName: 'Tajikistan',
  currency: 'TJS',
  cadence: 'daily',
  schedule: '*/30 4-6 * * *',
  // No documented time. We take the start of the observed poll window: 09:00 in Dushanbe (UTC+5 all
  // year, no DST) = 04:00 UTC.
  publishedAtUtc: '04:00:00',
  feedUrl: 'https://www.nbt.tj/en/kurs/export_xml.php?export=xmlout',
  baseUrl: 'https://www.nbt.tj',
  termsUrl: 'https://www.nbt.tj/en/',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const root = parseXml(CODE, payload.name, decodeText(payload.body), xml).ValCurs;
    if (typeof root !== 'object' || root === null) fail(`${payload.name} has no ValCurs element`);
    // Unlike its CBR-style siblings the NBT writes the ValCurs Date as YYYY-MM-DD.
    const date = (root as Node).Date;
    if (!isIsoDate(date)) fail(`bad ValCurs Date ${JSON.stringify(date)}`);
    const observations = (((root as Node).Valute ?? []) as Node[]).map((v) => observation(date, v));
    // Per Frankfurter's NBT adapter the bank carries the last rates over weekends and holidays, so an
    // empty list is a fault, not a day off.
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window, ctx) {
    // Every calendar day (Frankfurter polls all seven too); each answer states the date of its rates.
    return windowDays(window).map((day) => ({ url: `${ctx.base}/en/kurs/export_xml.php?date=${day}&export=xmlout` }));
  },
};
