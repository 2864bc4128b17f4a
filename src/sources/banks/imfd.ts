// IMF exchange-rate reports as TSV (tsvflag=Y): a month of representative rates (rms_mth REP), of SDR
// values (rms_mth SDRCV), or the last five days of SDR values (rms_five). Each report is one or more
// tables (title line, "Currency<TAB>March 02, 2026<TAB>…", a row per currency, a blank line) and notes.
// Base USD: REP rows are currency units per USD (indirect), "(1)" rows USD per unit (direct).
import { type Direction, type FeedRequest, type Observation, type Payload, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor } from '../read.js';
import { monthNumber } from '../months.js';

const CODE = 'IMFD';
type Report = 'REP' | 'SDRCV' | 'CVSDR';
const TITLES: readonly (readonly [RegExp, Report])[] = [
  [/^Representative Exchange Rates for Selected Currencies\b/, 'REP'],
  [/^SDRs per Currency unit\b/, 'SDRCV'],
  [/^Currency units per SDR\b/, 'CVSDR'],
];
/** IMF row names → ISO. An unknown name fails the payload rather than losing a currency unseen. */
export const IMF_NAMES: Readonly<Record<string, string>> = {
  'algerian dinar': 'DZD', 'australian dollar': 'AUD', 'bahrain dinar': 'BHD', 'botswana pula': 'BWP',
  'brazilian real': 'BRL', 'brunei dollar': 'BND', 'canadian dollar': 'CAD', 'chilean peso': 'CLP',
  'chinese yuan': 'CNY', 'colombian peso': 'COP', 'czech koruna': 'CZK', 'danish krone': 'DKK', euro: 'EUR',
  'hungarian forint': 'HUF', 'icelandic krona': 'ISK', 'indian rupee': 'INR', 'indonesian rupiah': 'IDR',
  'israeli new shekel': 'ILS', 'japanese yen': 'JPY', 'kazakhstani tenge': 'KZT', 'korean won': 'KRW',
  'kuwaiti dinar': 'KWD', 'malaysian ringgit': 'MYR', 'mauritian rupee': 'MUR', 'mexican peso': 'MXN',
  'nepalese rupee': 'NPR', 'new zealand dollar': 'NZD', 'norwegian krone': 'NOK', 'omani rial': 'OMR',
  'pakistani rupee': 'PKR', 'peruvian sol': 'PEN', 'philippine peso': 'PHP', 'polish zloty': 'PLN',
  'qatari riyal': 'QAR', 'russian ruble': 'RUB', 'saudi arabian riyal': 'SAR', 'singapore dollar': 'SGD',
  'south african rand': 'ZAR', 'sri lankan rupee': 'LKR', 'swedish krona': 'SEK', 'swiss franc': 'CHF',
  'thai baht': 'THB', 'trinidadian dollar': 'TTD', 'tunisian dinar': 'TND', 'u.a.e. dirham': 'AED',
  'u.k. pound': 'GBP', 'uruguayan peso': 'UYU',
};
// The IMF expresses these officially in units per SDR, not per USD (note (2) of rms_five).
const PER_SDR = new Set(['iranian rial', 'libyan dinar']);
const HEADER_DATE = /^([A-Z][a-z]+) (\d{1,2}), (\d{4})$/;
const THOUSANDS = /^\d{1,3}(,\d{3})+(\.\d+)?$/;
// rms_mth.aspx?…reportType=REP|SDRCV…&tsvflag=Y and rms_five.aspx?tsvflag=Y (live), rms_mth-REP-….tsv,
// rms_five-….tsv (recorded). The HTML pages and other report types (CVSDR) are not read.
const NAME = /(^|\/)(rms_mth\.aspx\?(?=.*\btsvflag=Y\b)(?=.*\breportType=(REP|SDRCV)\b)|rms_five\.aspx\?(?=.*\btsvflag=Y\b)|rms_mth-(REP|SDRCV)-[^/]*\.tsv$|rms_five-[^/]*\.tsv$)/;

const fail: (message: string) => never = failFor(CODE);

function headerDate(cell: string): string {
  const m = HEADER_DATE.exec(cell.trim());
  const month = m ? monthNumber(m[1]!) : 0;
  if (!m || month === 0) fail(`column header ${JSON.stringify(cell)} is not "Month DD, YYYY"`);
  return `${m[3]}-${String(month).padStart(2, '0')}-${m[2]!.padStart(2, '0')}`;
}

/** What a row stands for in this report, or undefined when it is skipped. */
function meaning(report: Report, label: string): { quote: string; direction: Direction } | undefined {
  const [, rawName, mark] = /^(.*?)\s*(?:\((\d)\))?$/.exec(label.trim())!;
  const name = rawName!.toLowerCase();
  // SDR values of other currencies are cross rates against the SDR, not expressible against USD (the
  // REP report has their USD rates). Only the U.S. dollar row is a rate of this base: SDRs per 1 USD.
  // The "currency units per SDR" tables repeat the same figures as reciprocals rounded again; we take
  // SDRs per USD from both reports so rms_five and rms_mth SDRCV give the same observation.
  if (report === 'CVSDR') return undefined;
  if (report === 'SDRCV') return name === 'u.s. dollar' ? { quote: 'XDR', direction: 'indirect' } : undefined;
  // The USD row of REP is 1.000000, the base itself. Marks other than (1) are defined in notes the TSV
  // cuts off ("…and those indicated by"), so their direction is unknown; such rows are skipped.
  if (name === 'u.s. dollar' || PER_SDR.has(name) || (mark !== undefined && mark !== '1')) return undefined;
  if (!Object.hasOwn(IMF_NAMES, name)) fail(`unknown currency ${JSON.stringify(label)}`);
  return { quote: IMF_NAMES[name]!, direction: mark === '1' ? 'direct' : 'indirect' };
}

/** The SelectDate of each month the window touches: its last day, or `to` for the month in progress. */
function selectDates(from: string, to: string): string[] {
  const out: string[] = [];
  let [y, m] = [Number(from.slice(0, 4)), Number(from.slice(5, 7))];
  while (`${y}-${String(m).padStart(2, '0')}` <= to.slice(0, 7)) {
    const end = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
    out.push(end < to ? end : to);
    [y, m] = m === 12 ? [y + 1, 1] : [y, m + 1];
  }
  return out;
}

export const source: SyncSource = {
  code: CODE,
  name: 'International Monetary Fund',
  countryCode: 'ZZ',
  countryName: 'International Monetary Fund',
  currency: 'USD',
  cadence: 'daily',
  schedule: '*/30 18-20 * * 1-5',
  // The IMF documents no publication time; we take the start of the observed polling window.
  publishedAtUtc: '18:00:00',
  // Without SelectDate the report is the current month's.
  feedUrl: 'https://www.imf.org/external/np/fin/data/rms_mth.aspx?reportType=REP&tsvflag=Y',
  baseUrl: 'https://www.imf.org/external/np/fin/data',
  termsUrl: 'https://www.imf.org/en/About/copyright-and-terms',
  // SOURCE.md's line says non-commercial; the terms' special terms for Data (the statistics the IMF
  // produces, these rates among them) let them be published and sold with the IMF cited as source.
  terms: 'attribution',
  // The IMF's terms let data be reused on condition that the IMF is cited as the source.
  attribution: 'Source: International Monetary Fund',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const lines = decodeText(payload.body).split(/\r?\n/);
    const out: Observation[] = [];
    let report: Report | undefined;
    let dates: string[] | undefined;
    let tables = 0;
    let notes = false;
    for (const [i, line] of lines.entries()) {
      if (dates !== undefined) {
        if (line.trim() === '') {
          dates = undefined;
          continue;
        }
        const cells = line.split('\t');
        if (cells.length !== dates.length + 1) fail(`line ${i + 1} has ${cells.length} cells, its header ${dates.length + 1}`);
        const row = meaning(report!, cells[0]!);
        if (row === undefined) continue;
        for (const [j, date] of dates.entries()) {
          const cell = cells[j + 1]!.trim();
          // Days a currency was not reported are "NA" (REP/SDRCV) or blank (rms_five).
          if (cell === '' || cell === 'NA') continue;
          // Commas only ever separate thousands here ("1,435.400000"); cleanDecimal would read "1,16" as 1.16.
          const where = `${cells[0]} has bad figure ${JSON.stringify(cell)} on ${date}`;
          if (cell.includes(',') && !THOUSANDS.test(cell)) fail(where);
          out.push({ date, quote: row.quote, rate: decimalOf(fail, cell.replaceAll(',', ''), where), unit: 1, direction: row.direction });
        }
      } else if (line.startsWith('Currency\t')) {
        if (report === undefined) fail(`line ${i + 1}: a table without a known report title`);
        dates = line.split('\t').slice(1).map(headerDate);
        tables++;
      } else {
        const title = TITLES.find(([re]) => re.test(line));
        if (title) report = title[1];
        else if (tables > 0 && /^(Notes:|\(\d\) )/.test(line)) notes = true;
      }
    }
    if (tables === 0) fail(`${payload.name} holds no rate table`);
    // The notes follow the last table: without them the file was cut off between two rows.
    if (!notes) fail(`${payload.name} ends without its notes: truncated`);
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  requests(window, ctx): FeedRequest[] {
    const base = ctx.base.replace(/\/+$/, '');
    // A month of REP for the USD rates and of SDRCV for the SDR (see `meaning`).
    return selectDates(window.from, window.to).flatMap((date) =>
      (['REP', 'SDRCV'] as const).map((type) => ({ url: `${base}/rms_mth.aspx?SelectDate=${date}&reportType=${type}&tsvflag=Y` })),
    );
  },
};
