// Central Bank of Armenia market rates from its SOAP service (api.cba.am/exchangerates.asmx):
// ExchangeRatesLatest / ExchangeRatesByDate (CurrentDate + Rates/ExchangeRate) and
// ExchangeRatesByDateRangeByISO (an ADO.NET diffgram of ExchangeRatesByRange rows with a RateDate).
// AMD per `Amount` units (10 JPY, 100 IRR); the amount is kept as `unit`. Gold and silver per gram.
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { perTroyOunce } from '../../currencies/troy-ounce.js';
import { decimalOf, decodeText, failFor, isoCode, isRecord, parseXml, unitOf, xmlParser } from '../read.js';

const CODE = 'CBRA';
// The live endpoint (…/exchangerates.asmx) and recorded copies (exchangerates-asmx-….xml).
const NAME = /(^|\/)exchangerates[.-]asmx([-?#/]|$)/i;
// The CBA quotes gold and silver in AMD per gram (60871 for XAU on 2026-03-18, with USD at 377.39:
// 161 USD, the price of a gram); XAU and XAG are one troy ounce each, so the figure is restated per
// ounce, exactly (D19): /v1/bank/CBRA shows 31.1034768 times the CBA's gram price.
const PER_GRAM = new Set(['XAU', 'XAG']);
// ExchangeRatesByDateRangeByISO answers only for the codes it is asked about: the currencies and
// metals the CBA quotes in 2026. A currency it adds needs adding here.
const ISO_CODES = 'USD,GBP,AUD,EUR,XDR,IRR,PLN,CAD,INR,NOK,JPY,SEK,CHF,CZK,CNY,SGD,BRL,AED,KGS,KZT,RUB,UAH,UZS,BYN,TJS,GEL,HKD,NZD,XAU,XAG';

// One row comes back as an object, several as an array: always an array.
const xml = xmlParser({ isArray: (tag) => tag === 'ExchangeRate' || tag === 'ExchangeRatesByRange' });

const fail: (message: string) => never = failFor(CODE);

type Node = Record<string, unknown>;
const list = (x: unknown): Node[] => (Array.isArray(x) ? x.filter(isRecord) : []);

/** "2026-03-18T00:00:00" or "2026-03-02T00:00:00+04:00": the date as written, never shifted. */
function day(raw: unknown): string {
  const m = typeof raw === 'string' ? /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}:\d{2}([+-]\d{2}:\d{2}|Z)?$/.exec(raw) : null;
  if (!m) fail(`bad date ${JSON.stringify(raw)}`);
  return m[1]!;
}

function observation(date: string, row: Node): Observation {
  const quote = isoCode(fail, row.ISO, `row of ${date}`);
  const unit = unitOf(fail, row.Amount, `bad ${quote} amount on ${date}`);
  const rate = decimalOf(fail, row.Rate, `bad ${quote} rate on ${date}`);
  if (PER_GRAM.has(quote)) {
    if (unit !== 1) fail(`${quote} on ${date} has Amount ${unit}; the CBA's metals are per gram`);
    return { date, quote, rate: perTroyOunce(rate), unit, direction: 'direct' };
  }
  return { date, quote, rate, unit, direction: 'direct' };
}

function fromBody(body: Node): Observation[] {
  if (isRecord(body.Fault)) {
    const reason = body.Fault.faultstring;
    fail(`SOAP fault: ${String(isRecord(reason) ? reason['#text'] : (reason ?? 'no faultstring'))}`);
  }
  const range = body.ExchangeRatesByDateRangeByISOResponse;
  if (isRecord(range)) {
    const result = range.ExchangeRatesByDateRangeByISOResult;
    if (!isRecord(result) || !('diffgram' in result)) fail('ExchangeRatesByDateRangeByISO returned no diffgram');
    // A window without rates (weekend, holiday) comes back as an empty diffgram, without DocumentElement.
    const rows = isRecord(result.diffgram) ? result.diffgram.DocumentElement : undefined;
    if (!isRecord(rows)) throw new NoPublication(CODE, 'the window holds no rates (empty diffgram)');
    return list(rows.ExchangeRatesByRange).map((row) => observation(day(row.RateDate), row));
  }
  for (const op of ['ExchangeRatesLatest', 'ExchangeRatesByDate']) {
    const response = body[`${op}Response`];
    if (!isRecord(response)) continue;
    const result = response[`${op}Result`];
    if (!isRecord(result)) fail(`${op} returned no result`);
    const date = day(result.CurrentDate);
    const rates = isRecord(result.Rates) ? list(result.Rates.ExchangeRate) : [];
    return rates.map((row) => observation(date, row));
  }
  fail('SOAP body holds no exchange-rate response');
}

export const source: SyncSource = {
  code: CODE,
  name: 'Central Bank of Armenia',
  countryCode: 'AM',
  countryName: 'Armenia',
  currency: 'AMD',
  cadence: 'daily',
  schedule: '*/30 12-14 * * 1-5',
  // No publication time is documented. The day's rates (the market average of that day) were not out
  // by 14:48 Yerevan time in the recording, so we take 16:00 Yerevan (AMT, UTC+4 all year) = 12:00 UTC,
  // the start of the observed polling window.
  publishedAtUtc: '12:00:00',
  feedUrl: 'https://api.cba.am/exchangerates.asmx',
  baseUrl: 'https://api.cba.am',
  termsUrl: 'https://www.cba.am/en/SitePages/copyright.aspx',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const text = decodeText(payload.body).trim();
    if (!text.startsWith('<')) fail(`${payload.name} is not XML`);
    // The error keeps the "malformed XML" wording this adapter has always used.
    const doc = parseXml(CODE, `malformed XML: ${payload.name}`, text, xml);
    const body = isRecord(doc.Envelope) ? doc.Envelope.Body : undefined;
    if (!isRecord(body)) fail('XML is not a SOAP envelope');
    const observations = fromBody(body);
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One POST covers the window; the SOAPAction is quoted, as SOAP 1.1 and the service's WSDL have it.
    const body = [
      '<?xml version="1.0" encoding="utf-8"?>',
      '<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">',
      '<soap:Body><ExchangeRatesByDateRangeByISO xmlns="http://www.cba.am/">',
      `<ISOCodes>${ISO_CODES}</ISOCodes><DateFrom>${window.from}</DateFrom><DateTo>${window.to}</DateTo>`,
      '</ExchangeRatesByDateRangeByISO></soap:Body></soap:Envelope>',
    ].join('\n');
    return [
      {
        url: `${ctx.base}/exchangerates.asmx`,
        method: 'POST',
        headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '"http://www.cba.am/ExchangeRatesByDateRangeByISO"' },
        body,
      },
    ];
  },
};
