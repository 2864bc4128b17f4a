// Magyar Nemzeti Bank official rates from its SOAP service (arfolyamok.asmx). The result element holds a
// second XML document as escaped text, MNBExchangeRates/Day[@date]/Rate[@unit,@curr], with decimal
// commas: the envelope is parsed, that text taken out and parsed again. HUF per `unit` (100 JPY).
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { cleanDecimal } from '../money/decimal.js';
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type Source } from './types.js';
import { failFor } from './read.js';

const CODE = 'MANE';
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_CODE = /^[A-Z]{3}$/;
// The live endpoint (…/arfolyamok.asmx) and recorded copies (arfolyamok-asmx-GetExchangeRates-….xml).
const NAME = /(^|\/)arfolyamok[.-]asmx([-?#/]|$)/i;
const OPERATIONS = ['GetExchangeRates', 'GetCurrentExchangeRates'];
// GetExchangeRates answers only for the currencies it is asked about (none named: empty days). These
// are the ones the MNB quotes in 2025-2026; a currency it adds needs adding here.
const CURRENCIES = 'AUD,BRL,CAD,CHF,CNY,CZK,DKK,EUR,GBP,HKD,IDR,ILS,INR,ISK,JPY,KRW,MXN,MYR,NOK,NZD,PHP,PLN,RON,RSD,RUB,SEK,SGD,THB,TRY,UAH,USD,ZAR';

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  // Rates stay text: a parsed number would lose the published digits (484,00).
  parseAttributeValue: false,
  parseTagValue: false,
  isArray: (tag) => tag === 'Day' || tag === 'Rate',
});

const fail: (message: string) => never = failFor(CODE);

type Node = Record<string, unknown>;
const isNode = (x: unknown): x is Node => typeof x === 'object' && x !== null && !Array.isArray(x);
const list = (x: unknown): Node[] => (Array.isArray(x) ? x.filter(isNode) : []);

function parseXml(text: string, what: string): Node {
  const valid = XMLValidator.validate(text);
  if (valid !== true) fail(`malformed ${what}: ${valid.err.msg} (line ${valid.err.line})`);
  return xml.parse(text) as Node;
}

/** The escaped inner document of whichever operation answered. */
function innerDocument(text: string): string {
  const envelope = parseXml(text, 'SOAP envelope');
  const body = isNode(envelope.Envelope) ? envelope.Envelope.Body : undefined;
  if (!isNode(body)) fail('XML is not a SOAP envelope');
  if (isNode(body.Fault)) {
    // faultstring carries an xml:lang attribute, so it may come back as a node with its text inside.
    const reason = body.Fault.faultstring;
    fail(`SOAP fault: ${String(isNode(reason) ? reason['#text'] : (reason ?? 'no faultstring'))}`);
  }
  for (const op of OPERATIONS) {
    const response = body[`${op}Response`];
    if (isNode(response)) {
      const result = response[`${op}Result`];
      if (typeof result !== 'string' || result.trim() === '') fail(`${op} returned no document`);
      return result;
    }
  }
  fail(`SOAP body holds none of ${OPERATIONS.join(', ')}`);
}

function rate(date: string, row: Node): Observation {
  const { curr: quote, unit, '#text': raw } = row;
  if (typeof quote !== 'string' || !ISO_CODE.test(quote)) fail(`bad currency ${JSON.stringify(quote)} on ${date}`);
  if (typeof unit !== 'string' || !/^[1-9]\d*$/.test(unit)) fail(`bad ${quote} unit ${JSON.stringify(unit)} on ${date}`);
  if (typeof raw !== 'string') fail(`no ${quote} rate on ${date}`);
  try {
    // Hungarian decimal comma (235,26): cleanDecimal turns it into a point and keeps every digit.
    return { date, quote, rate: cleanDecimal(raw), unit: Number(unit), direction: 'direct' };
  } catch {
    fail(`bad ${quote} rate ${JSON.stringify(raw)} on ${date}`);
  }
}

export const source: Source = {
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
  // The terms let the site's information be distributed unchanged "subject to specifying the source".
  attribution: 'Source: Magyar Nemzeti Bank',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const text = payload.body.toString('utf8').replace(/^\uFEFF/, '').trim();
    if (!text.startsWith('<')) fail(`${payload.name} is not XML`);
    const doc = parseXml(innerDocument(text), 'inner MNBExchangeRates document');
    if (!isNode(doc.MNBExchangeRates) && doc.MNBExchangeRates !== '') fail('inner document is not MNBExchangeRates');
    // A window without business days comes back as an empty <MNBExchangeRates />: still no rates.
    const days = isNode(doc.MNBExchangeRates) ? list(doc.MNBExchangeRates.Day) : [];
    if (days.length === 0) fail(`${payload.name} holds no rates`);
    return days.flatMap((day) => {
      const date = day.date;
      if (typeof date !== 'string' || !ISO_DATE.test(date)) fail(`bad Day date ${JSON.stringify(date)}`);
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
