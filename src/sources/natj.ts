// National Bank of Tajikistan official rates: kurs/export_xml.php?date=YYYY-MM-DD&export=xmlout, one date
// per request, ValCurs/Valute(CharCode, Nominal, Value) with TJS per `Nominal` units.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { cleanDecimal } from '../money/decimal.js';
import { type Observation, type Payload, type Source } from './types.js';
import { failFor } from './read.js';

const CODE = 'NATJ';
const ISO_CODE = /^[A-Z]{3}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
// {lang}/kurs/export_xml.php?… (live) or export_xml-YYYY-MM-DD.xml (recorded).
const NAME = /(^|\/)export_xml([.-]|$)/;

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

// The Valute ID is a numeric currency code (RUB still as the pre-1998 810); CharCode is the one read.
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

/** Every calendar day of the window: the rates are daily and weekend behaviour is unverified (Frankfurter
 *  polls all seven days), so ask for each day and keep the date each answer states. */
function calendarDays(from: string, to: string): string[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end)) throw new RangeError(`${CODE}: bad window ${from}..${to}`);
  const days: string[] = [];
  for (let t = start; t <= end; t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

export const source: Source = {
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
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const text = payload.body.toString('utf8').replace(/^\uFEFF/, '');
    const valid = XMLValidator.validate(text);
    if (valid !== true) fail(`${payload.name} is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
    const root = (xml.parse(text) as Node).ValCurs;
    if (typeof root !== 'object' || root === null) fail(`${payload.name} has no ValCurs element`);
    // Unlike its CBR-style siblings the NBT writes the ValCurs Date as YYYY-MM-DD.
    const date = (root as Node).Date;
    if (typeof date !== 'string' || !ISO_DATE.test(date)) fail(`bad ValCurs Date ${JSON.stringify(date)}`);
    const observations = (((root as Node).Valute ?? []) as Node[]).map((v) => observation(date, v));
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window, ctx) {
    return calendarDays(window.from, window.to).map((day) => ({ url: `${ctx.base}/en/kurs/export_xml.php?date=${day}&export=xmlout` }));
  },
};
