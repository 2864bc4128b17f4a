// European Central Bank euro reference rates. One adapter reads every shape the ECB serves (daily and
// history XML, daily and history CSV, and the CSVs zipped), telling them apart by content, not by name.
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { csvCells } from '../csv.js';
import { decimalOf, decodeText, failFor, isIsoDate, isoCode, parseXml, xmlParser } from '../read.js';
import { monthNumber } from '../months.js';
import { unzip } from '../unzip.js';
import { DAY_MS } from '../../time/days.js';

const CODE = 'ECBF';
// eurofxref-daily.xml, eurofxref-hist(-90d).xml, eurofxref.zip, eurofxref-hist.zip, and recorded copies
// named with their date (eurofxref-2026-04-13.csv, eurofxref-hist-90d-2025-04-04.xml).
const NAME = /^eurofxref(-daily|-hist(-90d)?)?(-\d{4}-\d{2}-\d{2})?\.(xml|csv|zip)$/;
// The daily XML holds the last fixing only, the 90-day XML the last 90 calendar days; anything longer
// needs the whole history, of which the ZIP (0.6 MB) is the smallest form.
const DAILY_SPAN_DAYS = 3;
const RECENT_SPAN_DAYS = 90;

// Cube nests three deep (all days / a day / a rate), one or many at each level: always an array.
const xml = xmlParser({ isArray: (tag) => tag === 'Cube' });

const fail: (message: string) => never = failFor(CODE);

function observation(date: string, code: unknown, raw: unknown): Observation {
  if (!isIsoDate(date)) fail(`bad date ${JSON.stringify(date)}`);
  const quote = isoCode(fail, code, `rate of ${date}`);
  return { date, quote, rate: decimalOf(fail, raw, `bad ${quote} rate on ${date}`), unit: 1, direction: 'indirect' };
}

type Node = Record<string, unknown>;
const children = (node: unknown): Node[] =>
  typeof node === 'object' && node !== null && Array.isArray((node as Node).Cube)
    ? ((node as Node).Cube as unknown[]).filter((c): c is Node => typeof c === 'object' && c !== null)
    : [];

function fromXml(text: string): Observation[] {
  const doc = parseXml(CODE, 'XML', text, xml);
  if (typeof doc.Envelope !== 'object' || doc.Envelope === null) fail('XML is not a gesmes:Envelope');
  const days = children(doc.Envelope).flatMap(children);
  if (days.length === 0) fail('XML holds no dated Cube');
  return days.flatMap((day) => {
    const rates = children(day);
    if (rates.length === 0) fail(`no rates for ${String(day.time)}`);
    return rates.map((c) => observation(String(day.time), c.currency, c.rate));
  });
}

/** "13 April 2026" (daily CSV) or "2026-04-13" (history CSV). */
function csvDate(text: string): string {
  if (isIsoDate(text)) return text;
  const m = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(text);
  const month = m ? monthNumber(m[2]!) : 0;
  if (!m || month === 0) fail(`bad CSV date ${JSON.stringify(text)}`);
  return `${m[3]}-${String(month).padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
}

function parseCsv(text: string): Observation[] {
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  const header = csvCells(fail, lines[0]!);
  if (header[0] !== 'Date') fail('CSV does not start with a Date column');
  // Both CSVs end every line with a separator; the empty last column that gives is no currency.
  const columns = header.length - (header[header.length - 1] === '' ? 1 : 0);
  for (let i = 1; i < columns; i++) isoCode(fail, header[i], `CSV column ${i + 1}`);
  if (lines.length < 2) fail('CSV has no rows');
  const out: Observation[] = [];
  for (let n = 1; n < lines.length; n++) {
    const cells = csvCells(fail, lines[n]!);
    // A short or long row means a cut-off or foreign file: never guess which column is which.
    if (cells.length !== header.length) fail(`CSV line ${n + 1} has ${cells.length} cells, header has ${header.length}`);
    const date = csvDate(cells[0]!);
    for (let i = 1; i < columns; i++) {
      // The history CSV writes N/A before a currency joined and after it left (RUB, HRK, BGN…).
      if (cells[i] !== 'N/A') out.push(observation(date, header[i]!, cells[i]!));
    }
  }
  return out;
}

function csvFromZip(body: Buffer): Buffer {
  let entries;
  try {
    entries = unzip(body);
  } catch (err) {
    fail(`unreadable ZIP: ${(err as Error).message}`);
  }
  const csv = entries.filter((e) => e.name.toLowerCase().endsWith('.csv'));
  if (csv.length !== 1) fail(`ZIP holds ${csv.length} CSV members, expected 1`);
  return csv[0]!.data;
}

export const source: SyncSource = {
  code: CODE,
  name: 'European Central Bank',
  countryCode: 'EU',
  countryName: 'Euro area',
  currency: 'EUR',
  cadence: 'daily',
  schedule: '*/30 14-16 * * 1-5',
  // Published ~16:00 CET; CET (UTC+1) gives 15:00 UTC. In summer (CEST) it is 14:00 UTC, an hour earlier.
  publishedAtUtc: '15:00:00',
  feedUrl: 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml',
  baseUrl: 'https://www.ecb.europa.eu/stats/eurofxref',
  termsUrl: 'https://www.ecb.europa.eu/home/disclaimer/html/index.en.html',
  terms: 'attribution',
  attribution: 'Source: European Central Bank',
  accepts(name) {
    return NAME.test(name.split(/[?#]/)[0]!.split('/').pop()!);
  },
  parse(payload: Payload): Observation[] {
    const body = payload.body;
    const isZip = body.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'));
    const text = decodeText(isZip ? csvFromZip(body) : body).trimStart();
    let observations: Observation[];
    if (text.startsWith('<')) observations = fromXml(text);
    else if (text.startsWith('Date')) observations = parseCsv(text);
    else fail(`${payload.name} is neither ECB XML, CSV nor ZIP`);
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // The ECB files have no date parameter, so the span picks the file. requests() has no clock: it
    // takes the window to end about now (what a poll or a recent backfill asks for), so a span of at
    // most 90 days lies inside the 90-day file; an older short window would need the history ZIP.
    const span = (Date.parse(window.to) - Date.parse(window.from)) / DAY_MS;
    const file = span <= DAILY_SPAN_DAYS ? 'eurofxref-daily.xml' : span <= RECENT_SPAN_DAYS ? 'eurofxref-hist-90d.xml' : 'eurofxref-hist.zip';
    return [{ url: `${ctx.base}/${file}` }];
  },
};
