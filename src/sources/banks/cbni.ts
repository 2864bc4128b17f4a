// Central Bank of Nigeria official rates: GetAllExchangeRates answers the whole history (2001-12-10 on)
// as [{currency (an English name), ratedate, buyingrate, centralrate, sellingrate}], NGN per 1 unit.
import { type FeedRequest, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, isRecord, parseJson } from '../read.js';

const CODE = 'CBNI';
const fail: (message: string) => never = failFor(CODE);

// The CBN names currencies instead of coding them, with spelling variants over the years. An unknown
// name rejects the payload: a guess could file one currency's rate under another.
const NAMES: Record<string, string> = {
  // The CBN lists one "CFA" franc; XOF (its ECOWAS neighbours') and XAF share the same euro parity.
  CFA: 'XOF',
  'DANISH KRONA': 'DKK',
  'DANISH KRONER': 'DKK',
  EURO: 'EUR',
  'JAPANESE YEN': 'JPY',
  YEN: 'JPY',
  'POUND STERLING': 'GBP',
  'POUNDS STERLING': 'GBP',
  // Saudi riyal: the only riyal on the list, at SAR's 3.75 USD peg (365.54 against USD 1371.81 NGN).
  RIYAL: 'SAR',
  SDR: 'XDR',
  'SOUTH AFRICAN RAND': 'ZAR',
  'SWISS FRANC': 'CHF',
  'UAE DIRHAM': 'AED',
  'US DOLLAR': 'USD',
  'YUAN/RENMINBI': 'CNY',
};
// The West African Unit of Account (ECOWAS) has no ISO 4217 code: not a currency we can file.
const NOT_CURRENCIES = new Set(['WAUA']);


export const source: SyncSource = {
  code: CODE,
  name: 'Central Bank of Nigeria',
  countryCode: 'NG',
  countryName: 'Nigeria',
  currency: 'NGN',
  cadence: 'daily',
  grade: 'B',
  schedule: '*/30 15-17 * * 1-5',
  // No documented time; the start of the observed poll window, 15:00 UTC (16:00 in Lagos, WAT = UTC+1).
  publishedAtUtc: '15:00:00',
  feedUrl: 'https://www.cbn.gov.ng/api/GetAllExchangeRates',
  baseUrl: 'https://www.cbn.gov.ng/api',
  termsUrl: 'https://www.cbn.gov.ng/Legal.html',
  terms: 'attribution',
  // The legal notice allows redistribution with attribution, content unaltered.
  attribution: 'Source: Central Bank of Nigeria',
  accepts(name) {
    return /(^|[/-])GetAllExchangeRates([-_.?/]|$)/i.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    if (!Array.isArray(doc)) fail(`${payload.name} is not an array of rates`);
    const observations: Observation[] = [];
    for (const [i, row] of doc.entries()) {
      if (!isRecord(row)) fail(`record ${i} is not an object`);
      const { currency, ratedate: date, centralrate } = row;
      const name = typeof currency === 'string' ? currency.trim().replace(/\s+/g, ' ').toUpperCase() : '';
      if (!isIsoDate(date)) fail(`record ${i} has a bad ratedate ${JSON.stringify(date)}`);
      if (NOT_CURRENCIES.has(name)) continue;
      const quote = NAMES[name] ?? fail(`unknown currency name ${JSON.stringify(currency)} on ${date}`);
      // The central rate is the CBN's official figure (the mid of its buying and selling rates).
      observations.push({ date, quote, rate: decimalOf(fail, centralrate, `${quote} on ${date}`), unit: 1, direction: 'direct' });
    }
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(_window, ctx: RequestContext): FeedRequest[] {
    // The endpoint has no date filter: every call brings the whole history, ingest keeps what is new.
    return [{ url: `${ctx.base}/GetAllExchangeRates` }];
  },
};
