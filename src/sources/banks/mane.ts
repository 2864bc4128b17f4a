// Magyar Nemzeti Bank official rates from its SOAP service (arfolyamok.asmx). The result element holds a
// second XML document as escaped text, MNBExchangeRates/Day[@date]/Rate[@unit,@curr], with decimal
// commas: the envelope is parsed, that text taken out and parsed again. HUF per `unit` (100 JPY).
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor, isIsoDate, isoCode, isRecord, parseXml, unitOf, xmlParser } from '../read.js';

const CODE = 'MANE';
// The live endpoint (…/arfolyamok.asmx) and recorded copies (arfolyamok-asmx-GetExchangeRates-….xml).
const NAME = /(^|\/)arfolyamok[.-]asmx([-?#/]|$)/i;
const OPERATIONS = ['GetExchangeRates', 'GetCurrentExchangeRates'];
// GetExchangeRates answers only for the currencies it is asked about (none named: empty days). These
// are the ones the MNB quotes in 2025-2026; a currency it adds needs adding here.
const CURRENCIES = 'AUD,BRL,CAD,CHF,CNY,CZK,DKK,EUR,GBP,HKD,IDR,ILS,INR,ISK,JPY,KRW,MXN,MYR,NOK,NZD,PHP,PLN,RON,RSD,RUB,SEK,SGD,THB,TRY,UAH,USD,ZAR';

// One Day or Rate comes back as an object, several as an array: always an array.
const xml = xmlParser({ isArray: (tag) => tag === 'Day' || tag === 'Rate' });

const fail: (message: string) => never = failFor(CODE);

type Node = Record<string, unknown>;
const list = (x: unknown): Node[] => (Array.isArray(x) ? x.filter(isRecord) : []);

// Errors keep the "malformed <document>" wording this adapter has always used.
const parseDocument = (text: string, what: string): Node => parseXml(CODE, `malformed ${what}`, text, xml);

/** Which operation answered, and its escaped inner document. */
function innerDocument(text: string): { op: string; document: string } {
  const envelope = parseDocument(text, 'SOAP envelope');
  const body = isRecord(envelope.Envelope) ? envelope.Envelope.Body : undefined;
  if (!isRecord(body)) fail('XML is not a SOAP envelope');
  if (isRecord(body.Fault)) {
    // faultstring carries an xml:lang attribute, so it may come back as a node with its text inside.
    const reason = body.Fault.faultstring;
    fail(`SOAP fault: ${String(isRecord(reason) ? reason['#text'] : (reason ?? 'no faultstring'))}`);
  }
  for (const op of OPERATIONS) {
    const response = body[`${op}Response`];
    if (isRecord(response)) {
      const result = response[`${op}Result`];
      if (typeof result !== 'string' || result.trim() === '') fail(`${op} returned no document`);
      return { op, document: result };
    }
  }
  fail(`SOAP body holds none of ${OPERATIONS.join(', ')}`);
}

function rate(date: string, row: Node): Observation {
  const quote = isoCode(fail, row.curr, `Rate of ${date}`);
  const unit = unitOf(fail, row.unit, `bad ${quote} unit on ${date}`);
  // Hungarian decimal comma (235,26): turned into a point, every digit kept.
  return { date, quote, rate: decimalOf(fail, row['#text'], `bad ${quote} rate on ${date}`), unit, direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Magyar Nemzeti Bank',
  countryCode: 'HU',
  countryName: 'Hungary',
  currency: 'HUF',
  cadence: 'daily',
  schedule: '*/30 10-12 * * 1-5',
  // Official rates are set from late-morning market quotes and published around noon Budapest time
  // (the exact minute is not documented); CET (UTC+1) gives 11:00 UTC (10:00 in summer, CEST).
  publishedAtUtc: '11:00:00',
  feedUrl: 'http://www.mnb.hu/arfolyamok.asmx',
  baseUrl: 'http://www.mnb.hu',
  termsUrl: 'https://www.mnb.hu/en/the-central-bank/practical-issues/disclaimer',
  terms: 'unknown',
  // The terms let the site's information be distributed unchanged "subject to specifying the source".
  attribution: 'Source: Magyar Nemzeti Bank',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const text = decodeText(payload.body).trim();
    if (!text.startsWith('<')) fail(`${payload.name} is not XML`);
    const { op, document } = innerDocument(text);
    const doc = parseDocument(document, 'inner MNBExchangeRates document');
    if (!isRecord(doc.MNBExchangeRates) && doc.MNBExchangeRates !== '') fail('inner document is not MNBExchangeRates');
    const days = isRecord(doc.MNBExchangeRates) ? list(doc.MNBExchangeRates.Day) : [];
    // A window without business days (weekend, holiday) comes back as an empty <MNBExchangeRates />;
    // the current rates (GetCurrentExchangeRates) are never empty, so there it is a fault.
    if (days.length === 0 && op === 'GetExchangeRates') throw new NoPublication(CODE, `${payload.name} holds no rates`);
    if (days.length === 0) fail(`${payload.name} holds no rates`);
    return days.flatMap((day) => {
      const date = day.date;
      if (!isIsoDate(date)) fail(`bad Day date ${JSON.stringify(date)}`);
      const rows = list(day.Rate);
      if (rows.length === 0) fail(`no rates for ${date}`);
      return rows.map((row) => rate(date, row));
    });
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One POST covers the whole window; SOAPAction as the service's WSDL names it (sent unquoted,
    // which the service has been seen to accept).
    const body = [
      '<?xml version="1.0" encoding="utf-8"?>',
      '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:web="http://www.mnb.hu/webservices/">',
      '<soap:Body><web:GetExchangeRates>',
      `<web:startDate>${window.from}</web:startDate><web:endDate>${window.to}</web:endDate>`,
      `<web:currencyNames>${CURRENCIES}</web:currencyNames>`,
      '</web:GetExchangeRates></soap:Body></soap:Envelope>',
    ].join('\n');
    return [
      {
        url: `${ctx.base}/arfolyamok.asmx`,
        method: 'POST',
        headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: 'http://www.mnb.hu/webservices/MNBArfolyamServiceSoap/GetExchangeRates' },
        body,
      },
    ];
  },
};
