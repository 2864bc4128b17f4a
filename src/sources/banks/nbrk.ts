// National Bank of Kazakhstan official (market) rates from get_rates.cfm?fdate=DD.MM.YYYY: one date
// per request, each <item> a currency (<title>), its rate in <description>, KZT per <quant> units.
import { type Observation, type Payload, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor, fromDmy, isoCode, parseXml, toDmy, unitOf, windowDays, xmlParser } from '../read.js';

const CODE = 'NBRK';
// rss/get_rates.cfm?fdate=… (live) or get_rates-DD.MM.YYYY.xml (recorded). rates_all.xml (the feedUrl)
// is an RSS channel with another layout; nothing requests it and, with no recorded sample, it is not read.
const NAME = /(^|\/)get_rates([.-]|$)/;

const xml = xmlParser({ isArray: (_tag, jpath) => jpath === 'rates.item' });

const fail: (message: string) => never = failFor(CODE);

type Node = Record<string, unknown>;

function observation(date: string, item: Node): Observation {
  const quote = isoCode(fail, item.title, `title on ${date}`);
  const unit = unitOf(fail, item.quant, `bad ${quote} quant on ${date}`);
  // The NBK writes two decimals and drops trailing zeros itself (126.6, and JPY as plain 3).
  return { date, quote, rate: decimalOf(fail, item.description, `bad ${quote} rate on ${date}`), unit, direction: 'direct' };
}

export const source: SyncSource = {
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
  // Dated by the day it is official for, set on the trading day before.
  publishedDayOffset: -1,
  feedUrl: 'https://nationalbank.kz/rss/rates_all.xml',
  baseUrl: 'https://nationalbank.kz',
  termsUrl: 'https://nationalbank.kz/en/exchangerates/ezhednevnye-oficialnye-rynochnye-kursy-valyut',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const root = parseXml(CODE, payload.name, decodeText(payload.body), xml).rates;
    if (typeof root !== 'object' || root === null) fail(`${payload.name} has no rates element`);
    const { date, item } = root as Node;
    // The list's own date ("01.04.2026") is the day the rates are official for (the fdate asked for).
    const day = (typeof date === 'string' ? fromDmy(date) : undefined) ?? fail(`bad date ${JSON.stringify(date)}`);
    const observations = ((item ?? []) as Node[]).map((i) => observation(day, i));
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window, ctx) {
    // Monday to Friday only: the NBK sets rates on business days.
    return windowDays(window, { weekdaysOnly: true }).map((day) => ({ url: `${ctx.base}/rss/get_rates.cfm?fdate=${toDmy(day)}` }));
  },
};
