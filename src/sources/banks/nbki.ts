// National Bank of the Kyrgyz Republic official rates: XML/daily.xml (USD EUR CNY KZT RUB, set every
// trading day) and XML/weekly.xml (the rest, set once a week). Latest only; KGS per `Nominal` units.
import { type Observation, type Payload, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor, fromDmy, isoCode, parseXml, unitOf, xmlParser } from '../read.js';

const CODE = 'NBKI';
// XML/daily.xml and XML/weekly.xml (live) or XML-daily-….xml / XML-weekly-….xml (recorded).
const NAME = /(^|\/)XML[/-](daily|weekly)([.-]|$)/;
// The list's Name attribute says which table it is; the body, not the file name, decides.
const TABLES: Readonly<Record<string, string>> = { 'Daily Exchange Rates': 'daily', 'Weekly Exchange Rates': 'weekly' };
// The weekly list still carries BYR (per 100), the Belarusian rouble replaced 10 000:1 by BYN in 2016,
// next to BYN itself; its figure no longer agrees with BYN's, so it is a stale row and not a rate.
const DEFUNCT = new Set(['BYR']);

const xml = xmlParser({ isArray: (tag) => tag === 'Currency' });

const fail: (message: string) => never = failFor(CODE);

type Node = Record<string, unknown>;

function observation(date: string, table: string, currency: Node): Observation | undefined {
  const quote = isoCode(fail, currency.ISOCode, `ISOCode in the ${table} list`);
  if (DEFUNCT.has(quote)) return undefined;
  const unit = unitOf(fail, currency.Nominal, `bad ${quote} Nominal in the ${table} list`);
  // Decimal commas (87,4500) become points; the digits are kept.
  const rate = decimalOf(fail, currency.Value, `bad ${quote} Value in the ${table} list`);
  return { date, quote, rate, unit, direction: 'direct', table };
}

export const source: SyncSource = {
  code: CODE,
  name: 'National Bank of the Kyrgyz Republic',
  countryCode: 'KG',
  countryName: 'Kyrgyzstan',
  currency: 'KGS',
  cadence: 'daily',
  tableCadence: { daily: 'daily', weekly: 'weekly' },
  schedule: '*/30 8-10 * * 1-5',
  // The daily rates are determined from 15:00 to 15:30 Bishkek time (UTC+6 all year, no DST) on trading
  // days and apply from the next day: 09:30 UTC. The weekly list has no documented time.
  publishedAtUtc: '09:30:00',
  feedUrl: 'https://www.nbkr.kg/XML/daily.xml',
  baseUrl: 'https://www.nbkr.kg',
  termsUrl: 'https://www.nbkr.kg/index1.jsp?item=1562&lang=ENG',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    // The prolog declares windows-1251 (the content is ASCII today); decodeText follows it all the same.
    const root = parseXml(CODE, payload.name, decodeText(payload.body), xml).CurrencyRates;
    if (typeof root !== 'object' || root === null) fail(`${payload.name} has no CurrencyRates element`);
    const { Name: name, Date: rawDate, Currency: currencies } = root as Node;
    const table = typeof name === 'string' ? TABLES[name] : undefined;
    if (table === undefined) fail(`${payload.name} is neither the daily nor the weekly list (Name ${JSON.stringify(name)})`);
    // Date is the day the list applies from; the weekly list's ValidFor (7 days) is its validity span.
    const date = (typeof rawDate === 'string' ? fromDmy(rawDate) : undefined) ?? fail(`bad ${table} list Date ${JSON.stringify(rawDate)}`);
    const observations = ((currencies ?? []) as Node[])
      .map((c) => observation(date, table, c))
      .filter((o): o is Observation => o !== undefined);
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(_window, ctx) {
    // No history in XML (the archive is an HTML page per currency): both lists, latest, every time.
    return [{ url: `${ctx.base}/XML/daily.xml` }, { url: `${ctx.base}/XML/weekly.xml` }];
  },
};
