// National Bank of Moldova official rates: official_exchange_rates?get_xml=1&date=DD.MM.YYYY, one date
// per request, ValCurs/Valute(CharCode, Nominal, Value) with MDL per `Nominal` units, decimal points.
import { type Observation, type Payload, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor, fromDmy, isoCode, parseXml, toDmy, unitOf, windowDays, xmlParser } from '../read.js';

const CODE = 'NBMD';
// {lang}/official_exchange_rates?get_xml=1&date=… (live) or official_exchange_rates-DD.MM.YYYY.xml
// (recorded). The same page without get_xml=1 is HTML.
const NAME = /(^|\/)official_exchange_rates(\?(.*&)?get_xml=1(&|$)|-[^/]*\.xml$)/;

const xml = xmlParser({ isArray: (tag) => tag === 'Valute' });

const fail: (message: string) => never = failFor(CODE);

type Node = Record<string, unknown>;

function observation(date: string, valute: Node): Observation {
  const quote = isoCode(fail, valute.CharCode, `CharCode on ${date}`);
  const unit = unitOf(fail, valute.Nominal, `bad ${quote} Nominal on ${date}`);
  const rate = decimalOf(fail, valute.Value, `bad ${quote} Value on ${date}`);
  return { date, quote, rate, unit, direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'National Bank of Moldova',
  countryCode: 'MD',
  countryName: 'Moldova',
  currency: 'MDL',
  cadence: 'daily',
  schedule: '*/30 13-15 * * 1-5',
  // No documented time: rates are set on business days and valid from the next day (hence the day
  // offset). We take the
  // start of the observed poll window, 15:00 Chisinau time in winter (EET, UTC+2) = 13:00 UTC.
  publishedAtUtc: '13:00:00',
  publishedDayOffset: -1,
  feedUrl: 'https://www.bnm.md/en/official_exchange_rates?get_xml=1',
  baseUrl: 'https://www.bnm.md',
  termsUrl: 'https://www.bnm.md/en/official_exchange_rates',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const root = parseXml(CODE, payload.name, decodeText(payload.body), xml).ValCurs;
    if (typeof root !== 'object' || root === null) fail(`${payload.name} has no ValCurs element`);
    // Date ("06.04.2026") is the day the rates are valid for (set on the business day before).
    const raw = (root as Node).Date;
    const date = (typeof raw === 'string' ? fromDmy(raw) : undefined) ?? fail(`bad ValCurs Date ${JSON.stringify(raw)}`);
    const observations = (((root as Node).Valute ?? []) as Node[]).map((v) => observation(date, v));
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window, ctx) {
    // Every calendar day: how the BNM answers a weekend date is unverified, so ask for each day and
    // keep the date each answer states.
    return windowDays(window).map((day) => ({ url: `${ctx.base}/en/official_exchange_rates?get_xml=1&date=${toDmy(day)}` }));
  },
};
