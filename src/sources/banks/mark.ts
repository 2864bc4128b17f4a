// Deutsche Bundesbank: the official Frankfurt fixings of the Deutsche Mark (1948-06-21 to 1998-12-30),
// series BBEX3.D.<ccy>.DEM.AA.AC.000 of the statistics API as SDMX-CSV (semicolons, UTF-8 BOM, CRLF).
// Rates are DEM per N foreign units, and N is written only in the German title ("100 ATS = ... DEM").
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor, isIsoDate, isoCode, unitOf } from '../read.js';

const CODE = 'MARK';
// data/BBEX3/D..DEM.AA.AC.000?… (live) or bbk-BBEX3-D..DEM.AA.AC.000-….csv (recorded).
const NAME = /(^|[/-])BBEX3[/-]D\.\.DEM\.AA\.AC\.000(\?[^/]*|-[\d_-]+\.csv)?$/;
const COLUMNS = ['BBK_STD_CURRENCY', 'BBK_ERX_PARTNER_CURRENCY', 'TIME_PERIOD', 'OBS_VALUE', 'BBK_UNIT_MULT', 'BBK_TITLE'] as const;
// "Devisenkurse der Frankfurter Börse / 1 000 ITL = ... DEM / Italien": the unit and the currency.
const TITLE_UNIT = /\/\s*(\d{1,3}(?: \d{3})*)\s+([A-Z]{3})\s*=\s*\.\.\.\s*DEM\s*\//;
// SDMX writes a missing observation (holidays, weekends; OBS_STATUS K) as a lone dot.
const MISSING = '.';

const fail: (message: string) => never = failFor(CODE);

type Row = Record<(typeof COLUMNS)[number], string>;

function rows(text: string): Row[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const header = (lines[0] ?? '').split(';');
  if (header[0] !== 'DATAFLOW') fail(`first line ${JSON.stringify(header.join(';').slice(0, 40))} is not an SDMX-CSV header`);
  const at = COLUMNS.map((name) => {
    const i = header.indexOf(name);
    if (i < 0) fail(`the header has no ${name} column`);
    return i;
  });
  // Fields are not quoted in these files; a row of another width is cut off or not this layout.
  return lines.slice(1).map((line, n) => {
    const cells = line.split(';');
    if (cells.length !== header.length) fail(`line ${n + 2} has ${cells.length} fields, expected ${header.length}`);
    return Object.fromEntries(COLUMNS.map((name, k) => [name, cells[at[k]!]!])) as Row;
  });
}

function observation(row: Row): Observation {
  const quote = isoCode(fail, row.BBK_STD_CURRENCY, `row of ${row.TIME_PERIOD}`);
  const date = row.TIME_PERIOD;
  const where = `${quote} on ${date}`;
  if (!isIsoDate(date)) fail(`${quote}: bad TIME_PERIOD ${JSON.stringify(date)}`);
  if (row.BBK_ERX_PARTNER_CURRENCY !== 'DEM') fail(`${where} is quoted in ${row.BBK_ERX_PARTNER_CURRENCY}, not DEM`);
  // BBK_UNIT_MULT is 0 on every fixing; anything else would be a power of ten we do not expect.
  if (row.BBK_UNIT_MULT !== '0') fail(`${where}: unexpected BBK_UNIT_MULT ${row.BBK_UNIT_MULT}`);
  const title = TITLE_UNIT.exec(row.BBK_TITLE);
  if (!title || title[2] !== quote) fail(`${where}: no "N ${quote} = ... DEM" in the title ${JSON.stringify(row.BBK_TITLE)}`);
  return { date, quote, rate: decimalOf(fail, row.OBS_VALUE, where), unit: unitOf(fail, title[1], where), direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Deutsche Bundesbank',
  countryCode: 'DE',
  countryName: 'Germany',
  currency: 'DEM',
  cadence: 'daily',
  // Never polled (see `discontinued`); a weekday run after the fixing, should it ever be.
  schedule: '0 13 * * 1-5',
  // The official Frankfurt fixing (amtliche Devisenkursfeststellung) was held at 13:00 Frankfurt
  // time; CET (UTC+1) gives 12:00 UTC (11:00 in summer, CEST).
  publishedAtUtc: '12:00:00',
  feedUrl: 'https://api.statistiken.bundesbank.de/rest/data/BBEX3/D..DEM.AA.AC.000?format=sdmx_csv',
  baseUrl: 'https://api.statistiken.bundesbank.de/rest',
  termsUrl: 'https://www.bundesbank.de/de/startseite/benutzerhinweise/nutzungsbedingungen-fuer-den-allgemeinen-gebrauch-der-website-763554',
  terms: 'attribution',
  // The terms ask for the source to be named.
  attribution: 'Quelle: Deutsche Bundesbank',
  grade: 'A',
  // The euro replaced the Mark on 1999-01-01; the last fixing was on 1998-12-30.
  discontinued: '1998-12-31',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const all = rows(decodeText(payload.body));
    if (all.length === 0) fail(`${payload.name} holds no rows`);
    const fixed = all.filter((row) => row.OBS_VALUE !== MISSING);
    // A window of holidays and weekends is a valid answer in which every value is missing.
    if (fixed.length === 0) throw new NoPublication(CODE, `${payload.name} has no fixing on any day of its period`);
    return fixed.map(observation);
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One request for every currency over the whole window.
    return [{ url: `${ctx.base}/data/BBEX3/D..DEM.AA.AC.000?format=sdmx_csv&startPeriod=${window.from}&endPeriod=${window.to}` }];
  },
};
