// Bank of Israel representative rates, ILS per UNIT units (JPY per 100, LBP per 10), in three formats:
// the legacy currency.xml (recorded, 2014; its site is retired), the SDMX series RER_<CCY>_ILS as CSV
// (what requests() asks for) and the PublicApi's GetExchangeRates JSON (the latest day only).
// Neither of the current two was recorded: their readers follow public client code and the
// hand-written, format-faithful pages in testdata/ (ISRA-*), not a captured answer.
import { NoPublication, type Observation, type Payload, type SyncSource } from '../types.js';
import { csvCells } from '../csv.js';
import { decimalOf, decodeText, failFor, isIsoDate, isoCode, isRecord, parseJsonKeepingDigits, parseXml, unitOf, xmlParser } from '../read.js';

const CODE = 'ISRA';
// currency.xml[?rdate=YYYYMMDD] (legacy live) and currency-….xml (recorded); …/PublicApi/GetExchangeRates
// (JSON; not with asXml=true); the SDMX dataflow …/EXR/1.0/[series]?…&format=csv.
const NAME = /(^|\/)currency([.-][^/?]*)?\.xml(\?|$)|(^|\/)PublicApi\/GetExchangeRates(\?(?![^#]*asXml=true)|$)|\/EXR\/1\.0\/[^?]*\?[^#]*format=csv/i;
const SDMX = '/FusionEdgeServer/sdmx/v2/data/dataflow/BOI.STATISTICS/EXR/1.0';
// Every series of the representative rate (DATA_TYPE OF00), as Frankfurter asks for them:
// a currency the bank adds comes with them.
const REPRESENTATIVE = 'c[DATA_TYPE]=OF00';

// One CURRENCY comes back as an object, several as an array: always an array.
const xml = xmlParser({ isArray: (tag) => tag === 'CURRENCY' });

const fail: (message: string) => never = failFor(CODE);

type Node = Record<string, unknown>;

function fromLegacyXml(name: string, text: string): Observation[] {
  const root = parseXml(CODE, name, text, xml).CURRENCIES;
  if (!isRecord(root)) fail(`${name} has no CURRENCIES element`);
  // A day without a rate (a holiday, a weekend) is still HTTP 200: REQUESTED_DATE and ERROR1..3
  // ("No exchange rate published for this date"), no LAST_UPDATE.
  if (root.LAST_UPDATE === undefined && root.ERROR1 !== undefined) {
    throw new NoPublication(CODE, `no rate published for ${String(root.REQUESTED_DATE)}: ${[root.ERROR1, root.ERROR2].join(' ')}`);
  }
  const date = root.LAST_UPDATE;
  if (!isIsoDate(date)) fail(`${name}: bad LAST_UPDATE ${JSON.stringify(date)}`);
  // CHANGE is the percent change from the previous rate: not read.
  const rows = (root.CURRENCY ?? []) as Node[];
  return rows.map((row) => {
    const quote = isoCode(fail, row.CURRENCYCODE, `CURRENCY of ${date}`);
    const unit = unitOf(fail, row.UNIT, `bad ${quote} UNIT on ${date}`);
    return { date, quote, rate: decimalOf(fail, row.RATE, `bad ${quote} RATE on ${date}`), unit, direction: 'direct' };
  });
}

function fromPublicApi(name: string, text: string): Observation[] {
  const doc = parseJsonKeepingDigits(CODE, name, text, ['currentExchangeRate']);
  // A refusal is {"succeeded":false,…,"message":"…"}.
  if (!isRecord(doc) || !Array.isArray(doc.exchangeRates)) fail(`${name} has no exchangeRates: ${text.slice(0, 120)}`);
  return doc.exchangeRates.map((row: unknown) => {
    if (!isRecord(row)) fail(`${name}: an exchange rate is not an object`);
    const quote = isoCode(fail, row.key, 'exchangeRates key');
    // lastUpdate is the UTC instant of the publication ("2023-01-04T13:24:03.9204638Z"), mid-afternoon
    // in Israel and so on the same calendar day there: its date is the rate's date.
    const date = typeof row.lastUpdate === 'string' ? row.lastUpdate.slice(0, 10) : undefined;
    if (!isIsoDate(date)) fail(`bad ${quote} lastUpdate ${JSON.stringify(row.lastUpdate)}`);
    const unit = unitOf(fail, row.unit, `bad ${quote} unit on ${date}`);
    return { date, quote, rate: decimalOf(fail, row.currentExchangeRate, `bad ${quote} currentExchangeRate on ${date}`), unit, direction: 'direct' };
  });
}

function fromSdmxCsv(name: string, text: string): Observation[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const header = csvCells(fail, lines[0] ?? '');
  const column = (field: string): number => {
    const i = header.indexOf(field);
    if (i < 0) fail(`${name} has no ${field} column (header ${JSON.stringify(header.join(',').slice(0, 80))})`);
    return i;
  };
  const [series, base, counter, mult, period, value] = ['SERIES_CODE', 'BASE_CURRENCY', 'COUNTER_CURRENCY', 'UNIT_MULT', 'TIME_PERIOD', 'OBS_VALUE'].map(column) as number[];
  const observations: Observation[] = [];
  for (const line of lines.slice(1)) {
    const cells = csvCells(fail, line);
    // Only the representative rates against the shekel; the dataflow also holds effective-rate
    // indices (NER_ILS_BSK_…).
    if (!/^RER_[A-Z]{3}_ILS$/.test(cells[series!] ?? '')) continue;
    const quote = isoCode(fail, cells[base!], `${cells[series!]} BASE_CURRENCY`);
    if (cells[counter!] !== 'ILS') fail(`${cells[series!]} is quoted in ${JSON.stringify(cells[counter!])}, not ILS`);
    const date = cells[period!];
    if (!isIsoDate(date)) fail(`${cells[series!]}: bad TIME_PERIOD ${JSON.stringify(date)}`);
    // SDMX's UNIT_MULT is a power of ten: 2 for JPY per 100, 1 for LBP per 10.
    if (!/^[0-6]$/.test(cells[mult!] ?? '')) fail(`${quote} on ${date}: bad UNIT_MULT ${JSON.stringify(cells[mult!])}`);
    const unit = 10 ** Number(cells[mult!]);
    observations.push({ date, quote, rate: decimalOf(fail, cells[value!], `bad ${quote} OBS_VALUE on ${date}`), unit, direction: 'direct' });
  }
  // A header alone is the answer for a window without a business day.
  if (observations.length === 0) throw new NoPublication(CODE, `${name} holds no representative rate`);
  return observations;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Bank of Israel',
  countryCode: 'IL',
  countryName: 'Israel',
  currency: 'ILS',
  cadence: 'daily',
  // Business days (Monday to Friday: a Friday rate is published too, earlier in the day).
  schedule: '*/30 10-14 * * 1-5',
  // Around 15:15 Israel time: 13:15 UTC in winter (IST, UTC+2), 12:15 UTC in summer (IDT, UTC+3).
  publishedAtUtc: '13:15:00',
  feedUrl: `https://edge.boi.gov.il${SDMX}/?${REPRESENTATIVE}&format=csv`,
  // The SDMX service, not boi.org.il: one base must hold every request, and only the SDMX series
  // serve any window (GetExchangeRates answers the latest day whatever it is asked).
  baseUrl: 'https://edge.boi.gov.il',
  // SOURCE.md names no terms page (they were not checked); this is the bank's statistics site.
  termsUrl: 'https://www.boi.org.il/en/economic-roles/statistics/',
  terms: 'unknown',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    // The rdate= answers start with a BOM; the SDMX CSV does too. decodeText drops it.
    const text = decodeText(payload.body).trimStart();
    const observations = text.startsWith('<') ? fromLegacyXml(payload.name, text) : text.startsWith('{') ? fromPublicApi(payload.name, text) : fromSdmxCsv(payload.name, text);
    if (observations.length === 0) fail(`${payload.name} holds no rates`);
    return observations;
  },
  requests(window, ctx) {
    // One request for the whole window, every currency at once. SDMX answers 404 when the window holds
    // no observation (a weekend, a holiday): that is no publication, not a failing feed.
    const query = `${REPRESENTATIVE}&startperiod=${window.from}&endperiod=${window.to}&format=csv`;
    return [{ url: `${ctx.base}${SDMX}/?${query}`, optional: true }];
  },
};
