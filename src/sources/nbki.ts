// National Bank of the Kyrgyz Republic official rates: XML/daily.xml (USD EUR CNY KZT RUB, set every
// trading day) and XML/weekly.xml (the rest, set once a week). Latest only; KGS per `Nominal` units.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { cleanDecimal } from '../money/decimal.js';
import { type Observation, type Payload, type Source } from './types.js';
import { failFor } from './read.js';

const CODE = 'NBKI';
const ISO_CODE = /^[A-Z]{3}$/;
// XML/daily.xml and XML/weekly.xml (live) or XML-daily-….xml / XML-weekly-….xml (recorded).
const NAME = /(^|\/)XML[/-](daily|weekly)([.-]|$)/;
// The list's Name attribute says which table it is; the body, not the file name, decides.
const TABLES: Readonly<Record<string, string>> = { 'Daily Exchange Rates': 'daily', 'Weekly Exchange Rates': 'weekly' };
// The weekly list still carries BYR (per 100), the Belarusian rouble replaced 10 000:1 by BYN in 2016,
// next to BYN itself; its figure no longer agrees with BYN's, so it is a stale row and not a rate.
const DEFUNCT = new Set(['BYR']);

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // Rates stay text: a parsed number would lose the published digits.
  parseAttributeValue: false,
  parseTagValue: false,
  isArray: (tag) => tag === 'Currency',
});

const fail: (message: string) => never = failFor(CODE);

type Node = Record<string, unknown>;

/** The prolog declares windows-1251 (the content is ASCII today); decode by it all the same. */
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

function observation(date: string, table: string, currency: Node): Observation | undefined {
  const { ISOCode: quote, Nominal: nominal, Value: raw } = currency;
  if (typeof quote !== 'string' || !ISO_CODE.test(quote)) fail(`bad ISOCode ${JSON.stringify(quote)} in the ${table} list`);
  if (DEFUNCT.has(quote)) return undefined;
  if (typeof nominal !== 'string' || !/^[1-9]\d*$/.test(nominal)) fail(`bad ${quote} Nominal ${JSON.stringify(nominal)} in the ${table} list`);
  let rate: string;
  try {
    // Decimal commas (87,4500); cleanDecimal turns them into points and keeps the digits.
    rate = cleanDecimal(typeof raw === 'string' ? raw : '');
  } catch {
    fail(`bad ${quote} Value ${JSON.stringify(raw)} in the ${table} list`);
  }
  return { date, quote, rate, unit: Number(nominal), direction: 'direct', table };
}

export const source: Source = {
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
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const text = decode(payload.body).replace(/^\uFEFF/, '');
    const valid = XMLValidator.validate(text);
    if (valid !== true) fail(`${payload.name} is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
    const root = (xml.parse(text) as Node).CurrencyRates;
    if (typeof root !== 'object' || root === null) fail(`${payload.name} has no CurrencyRates element`);
    const { Name: name, Date: rawDate, Currency: currencies } = root as Node;
    const table = typeof name === 'string' ? TABLES[name] : undefined;
    if (table === undefined) fail(`${payload.name} is neither the daily nor the weekly list (Name ${JSON.stringify(name)})`);
    // Date is the day the list applies from; the weekly list's ValidFor (7 days) is its validity span.
    const m = typeof rawDate === 'string' ? /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(rawDate) : null;
    if (!m) fail(`bad ${table} list Date ${JSON.stringify(rawDate)}`);
    const date = `${m[3]}-${m[2]}-${m[1]}`;
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
