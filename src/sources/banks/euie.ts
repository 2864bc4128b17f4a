// The European Commission's InforEuro monthly accounting rates (DG BUDG): period rates (D21), units
// per euro (indirect), one per currency for the calendar month asked for, set on the penultimate
// working day of the month before. Before January 1999 the rates are per ECU, not per euro: those
// figures are table XEU, whose base is the ECU (tableBase). The answer does not say which month it
// is for: the request (month=, year=) or the recording's name (monthly-rates-YYYY-MM.json) does.
import { monthPeriod, windowMonths } from '../periods.js';
import { decimalOf, decodeText, failFor, isRecord, parseJsonKeepingDigits } from '../read.js';
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';

const CODE = 'EUIE';
const PATH = '/budg/inforeuro/api/public/monthly-rates';
const NAME = /\/monthly-rates\?(?=[^#]*\bmonth=\d{1,2}\b)(?=[^#]*\byear=\d{4}\b)|(^|\/)monthly-rates-\d{4}-\d{2}\.json$/;
/** Labels that are not the currency's ISO code: the Congolese franc before March 1999, the new
 *  kwanza of January and February 2000 (still named "Kwanza Reajustado"), Zimbabwe's gold. */
const RELABELLED: Readonly<Record<string, string>> = { FRC: 'CDF', AOK: 'AOA', ZIG: 'ZWG' };
/** The euro replaced the ECU one for one on 1 January 1999. */
const EURO_FROM = '1999-01-01';

const fail: (message: string) => never = failFor(CODE);

/** The month a payload is for, from its request or its recorded name. */
function monthOf(name: string): [year: number, month: number] {
  const recorded = /monthly-rates-(\d{4})-(\d{2})\.json$/.exec(name);
  if (recorded) return [Number(recorded[1]), Number(recorded[2])];
  const month = /\bmonth=(\d{1,2})\b/.exec(name)?.[1];
  const year = /\byear=(\d{4})\b/.exec(name)?.[1];
  if (!month || !year || Number(month) < 1 || Number(month) > 12) fail(`${name} does not say which month it is for`);
  return [Number(year), Number(month)];
}

export const source: SyncSource = {
  code: CODE,
  name: 'European Commission (InforEuro)',
  countryCode: 'EU',
  countryName: 'European Union',
  currency: 'EUR',
  tableBase: { XEU: 'XEU' },
  cadence: 'monthly',
  periodRates: true,
  // Set on the penultimate working day of the month before: a look every weekday afternoon for the
  // month in force and the coming one.
  schedule: '45 14 * * 1-5',
  // No time of day is documented.
  publishedAtUtc: '12:00:00',
  feedUrl: `https://ec.europa.eu${PATH}?lang=en`,
  baseUrl: 'https://ec.europa.eu',
  termsUrl: 'https://commission.europa.eu/legal-notice_en',
  // The Commission's reuse policy (Decision 2011/833/EU, CC BY 4.0); the API's own terms not checked.
  terms: 'attribution',
  attribution: 'Source: European Commission, InforEuro',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const [year, month] = monthOf(payload.name);
    const { from, to } = monthPeriod(year, month);
    const rows = parseJsonKeepingDigits(CODE, payload.name, decodeText(payload.body), ['value']);
    if (!Array.isArray(rows)) fail(`${payload.name} is not InforEuro's list of rates: ${decodeText(payload.body).slice(0, 80)}`);
    // A month not set yet.
    if (rows.length === 0) throw new NoPublication(CODE, `${payload.name}: no rates for ${year}-${month}`);
    const table = from < EURO_FROM ? 'XEU' : '';
    return rows.flatMap((row: unknown) => {
      if (!isRecord(row) || typeof row.isoA3Code !== 'string' || !/^[A-Z]{3}$/.test(row.isoA3Code)) return fail(`${payload.name}: a row without an isoA3Code: ${JSON.stringify(row).slice(0, 80)}`);
      const code = row.isoA3Code;
      // The euro's own row (1), and currencies without a rate that month (null).
      if (code === 'EUR' || row.value === null) return [];
      const quote = RELABELLED[code] ?? code;
      return [{ date: from, validTo: to, quote, rate: decimalOf(fail, row.value, `${code} in ${year}-${month}`), unit: 1, direction: 'indirect' as const, ...(table ? { table } : {}) }];
    });
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One request a month, and the coming month's, which may not be set yet.
    const months = windowMonths(window, 1);
    return months.map(([y, m], i) => ({ url: `${ctx.base}${PATH}?lang=en&month=${m}&year=${y}`, ...(i === months.length - 1 ? { optional: true } : {}) }));
  },
};
