// Central Bank of the Republic of Türkiye indicative rates: EVDS (JSON, needs a free key; series
// TP.DK.<CCY>.A.YTL buying and .S.YTL selling) and the legacy kurlar XML (today.xml and the
// YYYYMM/DDMMYYYY.xml archive, ISO-8859-9 in older copies). TRY per `unit` (100 JPY).
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { cleanDecimal, Decimal } from '../money/decimal.js';
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type Source } from './types.js';
import { failFor, parseJson } from './read.js';

const CODE = 'TCMB';
const ISO_CODE = /^[A-Z]{3}$/;
// EVDS series URLs and recorded evds-TP.DK-….json; kurlar/today.xml, kurlar/YYYYMM/DDMMYYYY.xml and
// recorded kurlar-today-….xml.
const NAME = /series=TP\.DK\.|(^|\/)evds-TP\.DK-[^/]*\.json$|(^|\/)kurlar(\/today|\/\d{6}\/\d{8}|-today(-\d{4}-\d{2}-\d{2})?)\.xml$/;
// The currencies TCMB publishes indicative rates for in 2026 (XDR has no buying/selling pair).
const CURRENCIES = 'AED AUD AZN CAD CHF CNY DKK EUR GBP JPY KRW KWD KZT NOK PKR QAR RON RUB SAR SEK USD'.split(' ');
// EVDS values carry no unit. TCMB quotes the yen per 100 (today.xml says <Unit>100</Unit>; an EVDS
// JPY figure of 28.0 against 43.8 for USD is only right per 100 yen), every other series per 1.
const EVDS_UNITS: Record<string, number> = { JPY: 100 };

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
const isNode = (x: unknown): x is Node => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * TCMB has no published mid, but defines one: it averages interbank quotes into a "mid-rate" and sets
 * the buying and selling rates by a discount and a premium on it (0.09% each way for USD: 43.8000 and
 * 43.8789 around 43.83945). Their average recovers that mid, so we report it, computed in decimal.
 * A currency missing either side has no mid and is skipped (XDR in today.xml, EVDS holiday gaps).
 */
function mid(date: string, quote: string, unit: number, buying: unknown, selling: unknown): Observation | null {
  if (buying === null || buying === '' || selling === null || selling === '') return null;
  if (typeof buying !== 'string' || typeof selling !== 'string') fail(`bad ${quote} buying/selling on ${date}`);
  try {
    const average = new Decimal(cleanDecimal(buying)).plus(cleanDecimal(selling)).div(2);
    return { date, quote, rate: cleanDecimal(average.toString()), unit, direction: 'direct' };
  } catch {
    fail(`bad ${quote} buying/selling ${JSON.stringify([buying, selling])} on ${date}`);
  }
}

function parseEvds(text: string, name: string): Observation[] {
  const doc = parseJson(CODE, name, text);
  const items = isNode(doc) ? doc.items : undefined;
  if (!Array.isArray(items)) fail('EVDS answer has no items array');
  return items.flatMap((item: unknown) => {
    if (!isNode(item)) fail('EVDS item is not an object');
    const m = typeof item.Tarih === 'string' ? /^(\d{2})-(\d{2})-(\d{4})$/.exec(item.Tarih) : null;
    if (!m) fail(`bad EVDS Tarih ${JSON.stringify(item.Tarih)}`);
    const date = `${m[3]}-${m[2]}-${m[1]}`;
    // Weekends and holidays come as items whose every value is null: no publication, no rows.
    return Object.keys(item).flatMap((key) => {
      const quote = /^TP_DK_([A-Z]{3})_A_YTL$/.exec(key)?.[1];
      if (quote === undefined) return [];
      return mid(date, quote, EVDS_UNITS[quote] ?? 1, item[key], item[`TP_DK_${quote}_S_YTL`]) ?? [];
    });
  });
}

function parseXml(body: Buffer): Observation[] {
  // Older files declare (and are) ISO-8859-9; today's are UTF-8. Only names use non-ASCII letters,
  // but a wrong decoding would still corrupt them, so honour the declaration.
  const declared = /encoding="([^"]+)"/i.exec(body.subarray(0, 200).toString('latin1'))?.[1]?.toLowerCase();
  const legacy = declared === 'iso-8859-9' || declared === 'windows-1254';
  const text = (legacy ? new TextDecoder('iso-8859-9').decode(body) : body.toString('utf8')).replace(/^\uFEFF/, '');
  const valid = XMLValidator.validate(text);
  if (valid !== true) fail(`malformed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const root = (xml.parse(text) as Node).Tarih_Date;
  if (!isNode(root)) fail('XML is not a Tarih_Date bulletin');
  // Tarih is DD.MM.YYYY; the English Date attribute (MM/DD/YYYY) must agree with it.
  const tr = typeof root.Tarih === 'string' ? /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(root.Tarih) : null;
  if (!tr) fail(`bad Tarih ${JSON.stringify(root.Tarih)}`);
  if (root.Date !== undefined && root.Date !== `${tr[2]}/${tr[1]}/${tr[3]}`) fail(`Tarih ${String(root.Tarih)} and Date ${String(root.Date)} disagree`);
  const date = `${tr[3]}-${tr[2]}-${tr[1]}`;
  const currencies = Array.isArray(root.Currency) ? root.Currency.filter(isNode) : [];
  if (currencies.length === 0) fail(`no currencies on ${date}`);
  return currencies.flatMap((c) => {
    const quote = c.CurrencyCode ?? c.Kod;
    if (typeof quote !== 'string' || !ISO_CODE.test(quote)) fail(`bad currency ${JSON.stringify(quote)} on ${date}`);
    if (typeof c.Unit !== 'string' || !/^[1-9]\d*$/.test(c.Unit)) fail(`bad ${quote} Unit ${JSON.stringify(c.Unit)} on ${date}`);
    return mid(date, quote, Number(c.Unit), c.ForexBuying, c.ForexSelling) ?? [];
  });
}

/** 2026-03-02 → 02-03-2026, EVDS's date format. */
const dashed = (iso: string) => `${iso.slice(8, 10)}-${iso.slice(5, 7)}-${iso.slice(0, 4)}`;

export const source: Source = {
  code: CODE,
  name: 'Central Bank of the Republic of Türkiye',
  countryCode: 'TR',
  countryName: 'Türkiye',
  currency: 'TRY',
  cadence: 'daily',
  schedule: '*/30 12-14 * * 1-5',
  // Indicative rates are announced at 15:30 Istanbul time; TRT is UTC+3 all year, so 12:30 UTC.
  publishedAtUtc: '12:30:00',
  // The keyless latest file. Requests go to EVDS instead: the XML archive answers 404 on every
  // non-publication day, which would fail a whole window, and lives on another host.
  feedUrl: 'https://www.tcmb.gov.tr/kurlar/today.xml',
  baseUrl: 'https://evds3.tcmb.gov.tr/igmevdsms-dis',
  termsUrl: 'https://www.tcmb.gov.tr/wps/wcm/connect/EN/TCMB+EN/Main+Menu/Core+Functions/Exchange+Rate+Policy/Foreign+Exchange+and+Banknotes+Markets/Indicative+Exchange+Rates',
  // The site's disclaimer lets its information be quoted "by specific reference thereto".
  attribution: 'Source: Central Bank of the Republic of Türkiye (CBRT)',
  needsKey: true,
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const head = payload.body.subarray(0, 64).toString('latin1').replace(/^\uFEFF|^\xEF\xBB\xBF/, '').trimStart();
    let observations: Observation[];
    if (head.startsWith('<')) observations = parseXml(payload.body);
    else observations = parseEvds(payload.body.toString('utf8'), payload.name);
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    if (!ctx.key) throw new Error(`${CODE}: EVDS needs an API key (KURS_SOURCE_${CODE}_KEY)`);
    // EVDS takes its series list in the path, not a query string, and the key in a "key" header.
    const series = CURRENCIES.flatMap((c) => [`TP.DK.${c}.A.YTL`, `TP.DK.${c}.S.YTL`]).join('-');
    const url = `${ctx.base}/series=${series}&startDate=${dashed(window.from)}&endDate=${dashed(window.to)}&type=json&frequency=1`;
    return [{ url, headers: { key: ctx.key } }];
  },
};
