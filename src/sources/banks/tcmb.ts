// Central Bank of the Republic of Türkiye indicative rates: EVDS (JSON, needs a free key; series
// TP.DK.<CCY>.A.YTL buying and .S.YTL selling) and the legacy kurlar XML (today.xml and the
// YYYYMM/DDMMYYYY.xml archive, ISO-8859-9 in older copies). TRY per `unit` (100 JPY).
import { cleanDecimal, Decimal } from '../../money/decimal.js';
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor, fromDmy, isoCode, isRecord, parseJson, parseXml, toDmy, unitOf, xmlParser } from '../read.js';

const CODE = 'TCMB';
// EVDS series URLs and recorded evds-TP.DK-….json; kurlar/today.xml, kurlar/YYYYMM/DDMMYYYY.xml and
// recorded kurlar-today-….xml.
const NAME = /series=TP\.DK\.|(^|\/)evds-TP\.DK-[^/]*\.json$|(^|\/)kurlar(\/today|\/\d{6}\/\d{8}|-today(-\d{4}-\d{2}-\d{2})?)\.xml$/;
// The currencies TCMB publishes indicative rates for in 2026 (XDR has no buying/selling pair).
const CURRENCIES = 'AED AUD AZN CAD CHF CNY DKK EUR GBP JPY KRW KWD KZT NOK PKR QAR RON RUB SAR SEK USD'.split(' ');
// EVDS values carry no unit. TCMB quotes the yen per 100 (today.xml says <Unit>100</Unit>; an EVDS
// JPY figure of 28.0 against 43.8 for USD is only right per 100 yen), every other series per 1.
const EVDS_UNITS: Record<string, number> = { JPY: 100 };

const xml = xmlParser({ isArray: (tag) => tag === 'Currency' });

const fail: (message: string) => never = failFor(CODE);


/**
 * TCMB has no published mid, but defines one: it averages interbank quotes into a "mid-rate" and sets
 * the buying and selling rates by a discount and a premium on it (0.09% each way for USD: 43.8000 and
 * 43.8789 around 43.83945). Their average recovers that mid, so we report it, computed in decimal.
 * A currency missing either side has no mid and is skipped (XDR in today.xml, EVDS holiday gaps).
 */
function mid(date: string, quote: string, unit: number, buying: unknown, selling: unknown): Observation | null {
  if (buying === null || buying === '' || selling === null || selling === '') return null;
  const where = `bad ${quote} buying/selling on ${date}`;
  // Both feeds write these as text; a JSON number would already have lost digits.
  if (typeof buying !== 'string' || typeof selling !== 'string') fail(where);
  const average = new Decimal(decimalOf(fail, buying, where)).plus(decimalOf(fail, selling, where)).div(2);
  return { date, quote, rate: cleanDecimal(average.toString()), unit, direction: 'direct' };
}

/** "06-03-2026" (EVDS) or "06.03.2026" (kurlar) → 2026-03-06. */
const dayOf = (raw: unknown, what: string): string => (typeof raw === 'string' ? fromDmy(raw) : undefined) ?? fail(`bad ${what} ${JSON.stringify(raw)}`);

function parseEvds(text: string, name: string): Observation[] {
  const doc = parseJson(CODE, name, text);
  const items = isRecord(doc) ? doc.items : undefined;
  if (!Array.isArray(items)) fail('EVDS answer has no items array');
  const observations = items.flatMap((item: unknown) => {
    if (!isRecord(item)) fail('EVDS item is not an object');
    const date = dayOf(item.Tarih, 'EVDS Tarih');
    return Object.keys(item).flatMap((key) => {
      const quote = /^TP_DK_([A-Z]{3})_A_YTL$/.exec(key)?.[1];
      if (quote === undefined) return [];
      return mid(date, quote, EVDS_UNITS[quote] ?? 1, item[key], item[`TP_DK_${quote}_S_YTL`]) ?? [];
    });
  });
  // Weekends and holidays come as items whose every value is null: a window of only those is a valid
  // answer with no publication. No items at all is not that answer.
  if (observations.length === 0 && items.length > 0) throw new NoPublication(CODE, `${name} holds no rates: every day of the window is a non-publication day`);
  return observations;
}

function parseBulletin(body: Buffer, name: string): Observation[] {
  // Older files declare (and are) ISO-8859-9; today's are UTF-8. Only names use non-ASCII letters,
  // but a wrong decoding would still corrupt them, so the declaration is honoured.
  // The label keeps "malformed XML" in the message, the wording this feed's errors have always had.
  const root = parseXml(CODE, `${name} (malformed XML)`, decodeText(body), xml).Tarih_Date;
  if (!isRecord(root)) fail('XML is not a Tarih_Date bulletin');
  // Tarih is DD.MM.YYYY; the English Date attribute (MM/DD/YYYY) must agree with it.
  const date = dayOf(root.Tarih, 'Tarih');
  if (root.Date !== undefined && root.Date !== `${date.slice(5, 7)}/${date.slice(8, 10)}/${date.slice(0, 4)}`) fail(`Tarih ${String(root.Tarih)} and Date ${String(root.Date)} disagree`);
  const currencies = Array.isArray(root.Currency) ? root.Currency.filter(isRecord) : [];
  if (currencies.length === 0) fail(`no currencies on ${date}`);
  return currencies.flatMap((c) => {
    const quote = isoCode(fail, c.CurrencyCode ?? c.Kod, `currency on ${date}`);
    return mid(date, quote, unitOf(fail, c.Unit, `bad ${quote} Unit on ${date}`), c.ForexBuying, c.ForexSelling) ?? [];
  });
}

export const source: SyncSource = {
  code: CODE,
  name: 'Central Bank of the Republic of Türkiye',
  countryCode: 'TR',
  countryName: 'Türkiye',
  currency: 'TRY',
  cadence: 'daily',
  schedule: '*/30 12-14 * * 1-5',
  // Indicative rates are announced at 15:30 Istanbul time; TRT is UTC+3 all year, so 12:30 UTC.
  publishedAtUtc: '12:30:00',
  // A bulletin is dated by the day its rates apply, announced the business day before: on the recorded
  // payloads a day's figures match the ECB of the day before (test/blend-real.test.ts).
  publishedDayOffset: -1,
  // The keyless latest file. Requests go to EVDS instead: the XML archive answers 404 on every
  // non-publication day, which would fail a whole window, and lives on another host.
  feedUrl: 'https://www.tcmb.gov.tr/kurlar/today.xml',
  baseUrl: 'https://evds3.tcmb.gov.tr/igmevdsms-dis',
  termsUrl: 'https://www.tcmb.gov.tr/wps/wcm/connect/EN/TCMB+EN/Main+Menu/Core+Functions/Exchange+Rate+Policy/Foreign+Exchange+and+Banknotes+Markets/Indicative+Exchange+Rates',
  terms: 'unknown',
  // The site's disclaimer lets its information be quoted "by specific reference thereto".
  attribution: 'Source: Central Bank of the Republic of Türkiye (CBRT)',
  needsKey: true,
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const head = payload.body.subarray(0, 64).toString('latin1').replace(/^\xEF\xBB\xBF/, '').trimStart();
    let observations: Observation[];
    if (head.startsWith('<')) observations = parseBulletin(payload.body, payload.name);
    else observations = parseEvds(decodeText(payload.body), payload.name);
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    if (!ctx.key) throw new Error(`${CODE}: EVDS needs an API key (KURS_SOURCE_${CODE}_KEY)`);
    // EVDS takes its series list in the path, not a query string, and the key in a "key" header.
    const series = CURRENCIES.flatMap((c) => [`TP.DK.${c}.A.YTL`, `TP.DK.${c}.S.YTL`]).join('-');
    const url = `${ctx.base}/series=${series}&startDate=${toDmy(window.from, '-')}&endDate=${toDmy(window.to, '-')}&type=json&frequency=1`;
    return [{ url, headers: { key: ctx.key } }];
  },
};
