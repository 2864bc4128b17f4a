// Central Bank of Iceland exchange rates from its XML time series: group 9 (the official reference
// rates of 10 currencies and the SDR) and group 7 (indicative mid rates of the others), ISK per 1 unit.
// The XML names currencies only in Icelandic, so each time series is read through its stable ID.
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, decodeText, failFor, isRecord, parseXml, xmlParser } from '../read.js';

const CODE = 'SISL';
const PATH = '/xmltimeseries/Default.aspx';
const GROUPS = ['9', '7'];
// Default.aspx?…GroupID=9|7…&Type=xml (live) or xmltimeseries-GroupID-9-….xml (recorded).
const NAME = /xmltimeseries(\/Default\.aspx\?([^#]*&)?GroupID=(9|7)&([^#]*&)?Type=xml(&|$)|-GroupID-(9|7)-[^/]*\.xml$)/i;
/** Mid-rate series ID → currency. Those of the currencies the euro replaced (ATS…PTE), and of the
 *  EEK, LVL, LTL, MTL, HRK, BGN and RUB, are empty today but fill older windows. Series 3504, the
 *  bolívar, is left out: an old window would hold VEB or VEF figures, a new one VES. */
export const SEDLABANKI_SERIES: ReadonlyMap<string, string> = new Map([
  // Group 9: the official reference rates.
  ['4052', 'ATS'], ['4055', 'USD'], ['4058', 'BEF'], ['4061', 'DKK'], ['4064', 'EUR'], ['4067', 'FIM'],
  ['4070', 'FRF'], ['4073', 'GRD'], ['4076', 'NLG'], ['4079', 'IEP'], ['4082', 'ITL'], ['4085', 'JPY'],
  ['4088', 'CAD'], ['4091', 'NOK'], ['4094', 'PTE'], ['4097', 'XDR'], ['4100', 'ESP'], ['4103', 'GBP'],
  ['4106', 'CHF'], ['4109', 'SEK'], ['4112', 'DEM'],
  // Group 7: indicative mid rates, listed since December 2006 (series 29–53 in the order announced then).
  ['29', 'CNY'], ['30', 'RUB'], ['31', 'PLN'], ['32', 'EEK'], ['33', 'LVL'], ['34', 'LTL'], ['35', 'NGN'],
  ['36', 'TWD'], ['37', 'KRW'], ['38', 'SRD'], ['39', 'AUD'], ['40', 'NZD'], ['41', 'HKD'], ['42', 'HUF'],
  ['43', 'ILS'], ['44', 'ZAR'], ['45', 'SGD'], ['46', 'MXN'], ['47', 'MTL'], ['48', 'TRY'], ['49', 'HRK'],
  ['50', 'INR'], ['51', 'BGN'], ['52', 'CZK'], ['53', 'BRL'], ['74', 'THB'], ['288', 'JMD'], ['3503', 'SAR'],
  ['19254', 'KWD'],
]);
// Group 9 also has buying and selling series (kaupgengi, sölugengi), discontinued on 1 April 2020;
// the mid (miðgengi) is the official rate, so they are skipped.
const BUY_SELL = /skráð (kaupgengi|sölugengi)\.$/;
const MID = /skráð miðgengi\.$/;
// "3/24/2026 12:00:00 AM": month/day/year, always midnight.
const DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4}) 12:00:00 AM$/;

const xml = xmlParser({ isArray: (tag) => tag === 'TimeSeries' || tag === 'Entry' });

const fail: (message: string) => never = failFor(CODE);

type Node = Record<string, unknown>;
const text = (x: unknown): string => (typeof x === 'string' ? x : '');

function seriesObservations(series: Node): Observation[] {
  const id = text(series.ID);
  const description = text(series.Description);
  // An empty <TimeSeriesData /> (a retired currency, or no business day in the window) is a string.
  const entries = isRecord(series.TimeSeriesData) && Array.isArray(series.TimeSeriesData.Entry) ? series.TimeSeriesData.Entry : [];
  if (entries.length === 0 || BUY_SELL.test(description)) return [];
  const quote = SEDLABANKI_SERIES.get(id);
  // An unmapped series with figures is a currency we cannot name: stop rather than guess.
  if (quote === undefined || !MID.test(description)) fail(`series ${JSON.stringify(id)} (${JSON.stringify(text(series.Name))}) is not a known mid rate`);
  return entries.map((entry: unknown): Observation => {
    const raw = isRecord(entry) ? entry : {};
    const m = DATE.exec(text(raw.Date));
    if (!m) fail(`${quote} has bad date ${JSON.stringify(raw.Date)}`);
    const date = `${m[3]}-${m[1]!.padStart(2, '0')}-${m[2]!.padStart(2, '0')}`;
    return { date, quote, rate: decimalOf(fail, raw.Value, `bad ${quote} rate on ${date}`), unit: 1, direction: 'direct' };
  });
}

export const source: SyncSource = {
  code: CODE,
  name: 'Central Bank of Iceland',
  countryCode: 'IS',
  countryName: 'Iceland',
  currency: 'ISK',
  cadence: 'daily',
  schedule: '*/30 16-18 * * 1-5',
  // Fixed about 14:15 CET and published about 16:00 Reykjavik time, which is UTC all year.
  publishedAtUtc: '16:00:00',
  // The service always takes a date range (DagsFra/DagsTil); there is no "latest" form.
  feedUrl: `https://sedlabanki.is${PATH}?DagsFra=2026-01-01&DagsTil=2026-12-31&GroupID=9&Type=xml`,
  baseUrl: 'https://sedlabanki.is',
  termsUrl: 'https://www.cb.is/statistics/official-exchange-rate/',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const group = parseXml(CODE, payload.name, decodeText(payload.body), xml).Group;
    if (!isRecord(group) || !GROUPS.includes(text(group.ID))) fail(`${payload.name} is not time-series group 9 or 7`);
    const series = Array.isArray(group.TimeSeries) ? group.TimeSeries.filter(isRecord) : [];
    const out = series.flatMap(seriesObservations);
    // Series listed but every one empty: no rate was set in the window (a holiday span), a valid
    // answer. A group without any series is not that answer.
    if (out.length === 0 && series.length > 0) throw new NoPublication(CODE, `${payload.name} holds no rates: none set in the window`);
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    return GROUPS.map((group) => ({ url: `${ctx.base}${PATH}?DagsFra=${window.from}&DagsTil=${window.to}&GroupID=${group}&Type=xml` }));
  },
};
