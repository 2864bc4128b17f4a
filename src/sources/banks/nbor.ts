// Banca Naţională a României reference rates: nbrfxrates.xml (latest), nbrfxrates10days.xml and the
// yearly files/xml/years/nbrfxrates{YYYY}.xml share one layout, DataSet/Body/Cube[@date]/Rate[@currency].
// Rates are RON per `multiplier` units (100 HUF, JPY, KRW…); the multiplier is kept as `unit`. Gold is
// per gram.
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { perTroyOunce } from '../../currencies/troy-ounce.js';
import { decimalOf, decodeText, failFor, isIsoDate, isoCode, isRecord, parseXml, unitOf, xmlParser } from '../read.js';

const CODE = 'NBOR';
// nbrfxrates.xml, nbrfxrates10days.xml, nbrfxrates2026.xml, and recorded copies
// (nbrfxrates2026-as-of-2026-08-19.xml), on curs.bnr.ro or the older www.bnr.ro.
const NAME = /(^|\/)nbrfxrates(10days|\d{4})?(-as-of-\d{4}-\d{2}-\d{2})?\.xml$/;
// BNR quotes gold in RON per gram (its XAU row, without a multiplier); XAU is one troy ounce, so the
// figure is restated per ounce, exactly (D19): /v1/bank/NBOR shows 31.1034768 times BNR's gram price.
const PER_GRAM = new Set(['XAU']);

// The namespace moved from http://www.bnr.ro/xsd to https://www.bnr.ro/xsd in 2026. It is a default
// namespace, so element names carry no prefix and nothing here depends on it (xmlParser drops a
// prefixed form's prefix too).
const xml = xmlParser({ isArray: (tag) => tag === 'Cube' || tag === 'Rate' });

const fail: (message: string) => never = failFor(CODE);

type Node = Record<string, unknown>;
const list = (x: unknown): Node[] => (Array.isArray(x) ? x.filter(isRecord) : []);

function rate(date: string, row: Node): Observation {
  const quote = isoCode(fail, row.currency, `currency on ${date}`);
  const unit = unitOf(fail, row.multiplier ?? '1', `bad ${quote} multiplier on ${date}`);
  const rate = decimalOf(fail, row['#text'], `bad ${quote} rate on ${date}`);
  if (PER_GRAM.has(quote)) {
    if (unit !== 1) fail(`${quote} on ${date} has multiplier ${unit}; BNR's gold is per gram`);
    return { date, quote, rate: perTroyOunce(rate), unit, direction: 'direct' };
  }
  return { date, quote, rate, unit, direction: 'direct' };
}

function dataSet(doc: Node): Observation[] {
  const body = isRecord(doc.DataSet) ? doc.DataSet.Body : undefined;
  if (!isRecord(body)) fail('XML is not a BNR DataSet with a Body');
  if (body.OrigCurrency !== undefined && body.OrigCurrency !== 'RON') fail(`rates are against ${String(body.OrigCurrency)}, not RON`);
  const cubes = list(body.Cube);
  if (cubes.length === 0) fail('DataSet holds no dated Cube');
  return cubes.flatMap((cube) => {
    const date = cube.date;
    if (!isIsoDate(date)) fail(`bad Cube date ${JSON.stringify(date)}`);
    const rows = list(cube.Rate);
    if (rows.length === 0) fail(`no rates for ${date}`);
    return rows.map((row) => rate(date, row));
  });
}

export const source: SyncSource = {
  code: CODE,
  name: 'Banca Naţională a României',
  countryCode: 'RO',
  countryName: 'Romania',
  currency: 'RON',
  cadence: 'daily',
  schedule: '*/30 11-13 * * 1-5',
  // Reference rates are published shortly after 13:00 Bucharest time; EET (UTC+2) gives 11:00 UTC
  // (10:00 in summer, EEST).
  publishedAtUtc: '11:00:00',
  feedUrl: 'https://curs.bnr.ro/nbrfxrates.xml',
  baseUrl: 'https://curs.bnr.ro',
  // No separate terms page for the feed was found; the rates page is where BNR describes them.
  termsUrl: 'https://www.bnr.ro/Exchange-rates-1224.aspx',
  accepts(name) {
    return NAME.test(name.split(/[?#]/)[0]!);
  },
  parse(payload: Payload): Observation[] {
    const text = decodeText(payload.body).trim();
    if (!text.startsWith('<')) fail(`${payload.name} is not XML`);
    // The label keeps "malformed XML" in the message, the wording this feed's errors have always had.
    return dataSet(parseXml(CODE, `${payload.name} (malformed XML)`, text, xml));
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // The yearly file is the only one that reaches any past date; without a clock we cannot tell
    // whether the 10-day file would cover the window. One file per calendar year the window touches.
    const requests: FeedRequest[] = [];
    for (let year = Number(window.from.slice(0, 4)); year <= Number(window.to.slice(0, 4)); year++) {
      requests.push({ url: `${ctx.base}/files/xml/years/nbrfxrates${year}.xml` });
    }
    return requests;
  },
};
