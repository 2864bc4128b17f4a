// National Bank of Kazakhstan official (market) rates from get_rates.cfm?fdate=DD.MM.YYYY: one date
// per request, each <item> a currency (<title>), its rate in <description>, KZT per <quant> units.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { cleanDecimal } from '../money/decimal.js';
import { type Observation, type Payload, type Source } from './types.js';
import { failFor } from './read.js';

const CODE = 'NBRK';
const ISO_CODE = /^[A-Z]{3}$/;
// rss/get_rates.cfm?fdate=… (live) or get_rates-DD.MM.YYYY.xml (recorded). rates_all.xml (the feedUrl)
// is an RSS channel with another layout; nothing requests it and, with no recorded sample, it is not read.
const NAME = /(^|\/)get_rates([.-]|$)/;

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // Rates stay text: a parsed number would lose the published digits.
  parseAttributeValue: false,
  parseTagValue: false,
  isArray: (tag, jpath) => jpath === 'rates.item',
});

const fail: (message: string) => never = failFor(CODE);

type Node = Record<string, unknown>;

/** "01.04.2026" → "2026-04-01". */
function isoDate(raw: unknown): string {
  const m = typeof raw === 'string' ? /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(raw.trim()) : null;
  if (!m) fail(`bad date ${JSON.stringify(raw)}`);
  return `${m[3]}-${m[2]}-${m[1]}`;
}

function observation(date: string, item: Node): Observation {
  const { title: quote, description: raw, quant } = item;
  if (typeof quote !== 'string' || !ISO_CODE.test(quote)) fail(`bad currency code ${JSON.stringify(quote)} on ${date}`);
  if (typeof quant !== 'string' || !/^[1-9]\d*$/.test(quant)) fail(`bad ${quote} quant ${JSON.stringify(quant)} on ${date}`);
  let rate: string;
  try {
    // The NBK writes two decimals and drops trailing zeros itself (126.6, and JPY as plain 3).
    rate = cleanDecimal(typeof raw === 'string' ? raw : '');
  } catch {
    fail(`bad ${quote} rate ${JSON.stringify(raw)} on ${date}`);
  }
  return { date, quote, rate, unit: Number(quant), direction: 'direct' };
}

/** DD.MM.YYYY of each Monday–Friday in the window: the NBK sets rates on business days only. */
function businessDays(from: string, to: string): string[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end)) throw new RangeError(`${CODE}: bad window ${from}..${to}`);
  const days: string[] = [];
  for (let t = start; t <= end; t += 86_400_000) {
    const day = new Date(t);
    if (day.getUTCDay() === 0 || day.getUTCDay() === 6) continue;
    const [y, m, d] = day.toISOString().slice(0, 10).split('-');
    days.push(`${d}.${m}.${y}`);
  }
  return days;
}

export const source: Source = {
  code: CODE,
  name: 'National Bank of Kazakhstan',
  countryCode: 'KZ',
  countryName: 'Kazakhstan',
  currency: 'KZT',
  cadence: 'daily',
  schedule: '*/30 9-11 * * 1-5',
  // Set from the 15:30 KASE USD rate and 16:00 cross rates (Astana time, UTC+5 all year since March
  // 2024) on the trading day before the date it is official for; 16:00 gives 11:00 UTC.
  publishedAtUtc: '11:00:00',
  feedUrl: 'https://nationalbank.kz/rss/rates_all.xml',
  baseUrl: 'https://nationalbank.kz',
  termsUrl: 'https://nationalbank.kz/en/exchangerates/ezhednevnye-oficialnye-rynochnye-kursy-valyut',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const text = payload.body.toString('utf8').replace(/^\uFEFF/, '');
    const valid = XMLValidator.validate(text);
    if (valid !== true) fail(`${payload.name} is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
    const root = (xml.parse(text) as Node).rates;
    if (typeof root !== 'object' || root === null) fail(`${payload.name} has no rates element`);
    const { date, item } = root as Node;
    // The list's own date is the day the rates are official for (the fdate asked for).
    const day = isoDate(date);
    const observations = ((item ?? []) as Node[]).map((i) => observation(day, i));
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window, ctx) {
    return businessDays(window.from, window.to).map((day) => ({ url: `${ctx.base}/rss/get_rates.cfm?fdate=${day}` }));
  },
};
