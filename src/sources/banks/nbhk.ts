// Norges Bank exchange rates from its SDMX API as "csvdata" (one row per series and day). In SDMX terms
// the foreign currency is BASE_CUR and NOK the QUOTE_CUR: OBS_VALUE is NOK per 10^UNIT_MULT units of it.
import { type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor, isIsoDate, isoCode } from '../read.js';

const CODE = 'NBHK';
const PATH = '/api/data/EXR/B..NOK.SP';
const COLUMNS = ['FREQ', 'BASE_CUR', 'QUOTE_CUR', 'UNIT_MULT', 'TIME_PERIOD', 'OBS_VALUE'] as const;
// …/api/data/EXR/B..NOK.SP?format=csvdata… (live) or EXR-B..NOK.SP-….csv (recorded); SDMX-JSON,
// SDMX-ML and the labelled "csv" form are other layouts.
const NAME = /(^|\/)EXR([/-])B\.\.NOK\.SP(\?[^#]*\bformat=csvdata\b|-[^/?]*\.csv$)/;
// Synthetic series in the same flow that are indices, not currencies: the trade-weighted (TWI) and
// import-weighted (I44) krone indices. XDR is synthetic too (CALCULATED=true) but is a real rate.
const INDICES = new Set(['TWI', 'I44']);

const fail: (message: string) => never = failFor(CODE);

export const source: SyncSource = {
  code: CODE,
  name: 'Norges Bank',
  countryCode: 'NO',
  countryName: 'Norway',
  currency: 'NOK',
  cadence: 'daily',
  schedule: '*/30 14-16 * * 1-5',
  // Mid rates fixed at the 14:15 CET concertation, published about 16:00 CET: CET (UTC+1) gives
  // 15:00 UTC (14:00 in summer, CEST).
  publishedAtUtc: '15:00:00',
  feedUrl: `https://data.norges-bank.no${PATH}?format=csvdata&lastNObservations=1&locale=en`,
  baseUrl: 'https://data.norges-bank.no',
  termsUrl: 'https://www.norges-bank.no/en/topics/Statistics/open-data/',
  terms: 'attribution',
  // Norges Bank's open data are free to reuse provided Norges Bank is credited as the source.
  attribution: 'Source: Norges Bank',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    // trimEnd: the body ends in a newline, which is no row.
    const lines = decodeText(payload.body).trimEnd().split(/\r?\n/);
    // locale=en writes commas; the Norwegian locale writes semicolons and decimal commas.
    const sep = (lines[0] ?? '').includes(';') ? ';' : ',';
    const header = (lines[0] ?? '').split(sep).map((cell) => cell.trim());
    const at = COLUMNS.map((name) => header.indexOf(name));
    // An HTML or SDMX error message has no such header.
    if (at.some((i) => i < 0)) fail(`${payload.name} is not SDMX csvdata with ${COLUMNS.join(',')} (first line ${JSON.stringify((lines[0] ?? '').slice(0, 60))})`);
    const [freq, base, quote, mult, period, value] = at as [number, number, number, number, number, number];
    const out: Observation[] = [];
    for (let n = 1; n < lines.length; n++) {
      const cells = lines[n]!.split(sep).map((cell) => cell.trim());
      if (cells.length !== header.length) fail(`line ${n + 1} has ${cells.length} cells, header has ${header.length}`);
      const date = cells[period]!;
      // We ask for B..NOK.SP; another frequency or a rate not against NOK is not this request.
      if (cells[freq] !== 'B' || cells[quote] !== 'NOK') fail(`line ${n + 1} is ${cells[freq]}.${cells[base]}.${cells[quote]}, expected B.*.NOK`);
      if (!isIsoDate(date)) fail(`line ${n + 1} has bad TIME_PERIOD ${JSON.stringify(date)}`);
      if (INDICES.has(cells[base]!)) continue;
      const currency = isoCode(fail, cells[base], `line ${n + 1} BASE_CUR`);
      // UNIT_MULT is a power of ten (2: NOK per 100 JPY, SEK, DKK…), not a count as unitOf reads.
      if (!/^\d$/.test(cells[mult]!)) fail(`${currency} on ${date} has bad UNIT_MULT ${JSON.stringify(cells[mult])}`);
      const rate = decimalOf(fail, cells[value], `bad ${currency} rate on ${date}`);
      out.push({ date, quote: currency, rate, unit: 10 ** Number(cells[mult]), direction: 'direct' });
    }
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // locale=en pins the separator and decimal point; the recorded request had no locale and got the same.
    return [{ url: `${ctx.base}${PATH}?format=csvdata&startPeriod=${window.from}&endPeriod=${window.to}&locale=en` }];
  },
};
