// Bulgarian National Bank: the lev's daily rates against foreign currencies, XML ROWSET (UTF-8 with
// BOM). The first ROW is a caption row; then RATE = BGN per RATIO units (1..10000), REVERSERATE its
// inverse per 1 BGN, and a gold row per troy ounce. The lev ended with 2025: from 2026 the same
// download quotes currencies per euro, which this BGN-based source refuses (see `discontinued`).
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor, fromDmy, isoCode, parseXml, unitOf, windowDays, xmlParser } from '../read.js';

const CODE = 'BNBG';
const PATH = '/index.htm';
// The caption row's RATE header states the currency the rates are in: "Лева (BGN)" (English "Levs (BGN)").
const BGN_CAPTION = /\(BGN\)\s*$/;
// …/StERForeignCurrencies/index.htm?…type=XML or download=xml (live; an overriding base replaces the
// folder) or bnb-exchange-rates-2019-02-01.xml (recorded).
const NAME = /\/index\.htm\?(.*&)?(type=XML|download=xml)(&|$)|(^|\/)bnb-exchange-rates-[^/]*\.xml$/i;

const fail: (message: string) => never = failFor(CODE);
const parser = xmlParser({ isArray: (name) => name === 'ROW' });

function observation(row: Record<string, unknown>, i: number): Observation {
  const quote = isoCode(fail, row.CODE, `ROW ${i + 1}`);
  const date = typeof row.CURR_DATE === 'string' ? fromDmy(row.CURR_DATE) : undefined;
  if (!date) fail(`${quote} has bad CURR_DATE ${JSON.stringify(row.CURR_DATE)}`);
  // GOLD=1 currencies, GOLD=2 gold: the row names it "Злато (в трой унции)", per troy ounce, which is
  // what XAU denotes, so RATIO 1 is its unit as for any currency.
  if (row.GOLD !== '1' && !(row.GOLD === '2' && quote === 'XAU')) fail(`${quote} row has GOLD=${JSON.stringify(row.GOLD)}`);
  return { date, quote, rate: decimalOf(fail, row.RATE, `${quote} on ${date}`), unit: unitOf(fail, row.RATIO, `${quote} on ${date}`), direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Bulgarian National Bank',
  countryCode: 'BG',
  countryName: 'Bulgaria',
  currency: 'BGN',
  cadence: 'daily',
  // Never polled (see `discontinued`); a weekday run after the publication deadline, should it ever be.
  schedule: '30 16 * * 1-5',
  // Since 1 July 2016 the BNB publishes each business day's rates by 18:00 Sofia time (press release of
  // 16 June 2016); EET (UTC+2) gives 16:00 UTC (15:00 in summer, EEST).
  publishedAtUtc: '16:00:00',
  feedUrl: 'https://www.bnb.bg/Statistics/StExternalSector/StExchangeRates/StERForeignCurrencies/index.htm?download=xml&search=&lang=EN',
  baseUrl: 'https://www.bnb.bg/Statistics/StExternalSector/StExchangeRates/StERForeignCurrencies',
  // SOURCE.md knows no terms page; this is the page that publishes the rates.
  termsUrl: 'https://www.bnb.bg/Statistics/StExternalSector/StExchangeRates/StERForeignCurrencies/index.htm',
  terms: 'unknown',
  grade: 'F',
  // The lev's last day: Bulgaria adopted the euro on 1 January 2026, and the BNB's list is now per euro.
  discontinued: '2025-12-31',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseXml(CODE, payload.name, decodeText(payload.body), parser);
    const rows = (doc.ROWSET as { ROW?: unknown } | undefined)?.ROW;
    if (!Array.isArray(rows)) fail(`${payload.name} is not a ROWSET of ROWs`);
    const [caption, ...data] = rows as Record<string, unknown>[];
    // The caption row (GOLD=0) holds the column titles; its RATE title says which currency RATE is in.
    if (caption?.GOLD !== '0' || typeof caption.RATE !== 'string' || !BGN_CAPTION.test(caption.RATE)) {
      fail(`${payload.name}: caption row does not declare rates in BGN (${JSON.stringify(caption?.RATE)})`);
    }
    if (data.length === 0) fail(`${payload.name} holds no rates`);
    return data.map(observation);
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // The history download takes one day; a day without a list answers with an HTML page, not a 404.
    return windowDays(window, { weekdaysOnly: true }).map((day) => ({
      url: `${ctx.base}${PATH}?downloadOper=true&group1=first&firstDays=${day.slice(8, 10)}&firstMonths=${day.slice(5, 7)}&firstYear=${day.slice(0, 4)}&search=true&type=XML`,
    }));
  },
};
