// Bank of Japan time-series API (stat-search), database FM08: the Tokyo interbank US dollar/yen spot
// rate at 17:00 JST (FXERD04, yen per dollar). The only figure here against the yen; the source is
// narrow on purpose. Dates are business days; weekends and holidays come as null.
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isRecord, parseJson } from '../read.js';

const CODE = 'BOJP';
// Series we read, with the currency each is yen per unit of. FXERD34 (US dollars per euro, same
// table) is a cross rate without the yen: it is skipped, and not asked for.
const SERIES: Readonly<Record<string, string>> = { FXERD04: 'USD' };
const SKIPPED = new Set(['FXERD34']);
// getDataCode?…&db=FM08&code=FXERD04… (live) or getDataCode-FM08-FXERD04-….json (recorded).
const NAME = /(^|\/)getDataCode([?-]).*FM08/i;

const fail: (message: string) => never = failFor(CODE);


/** The figures of one series (null where there is none), or undefined for the series we skip. */
function series(entry: unknown): (Observation | null)[] | undefined {
  if (!isRecord(entry)) fail('RESULTSET entry is not an object');
  const code = entry.SERIES_CODE;
  if (typeof code !== 'string') fail(`bad SERIES_CODE ${JSON.stringify(code)}`);
  if (SKIPPED.has(code)) return undefined;
  const quote = SERIES[code];
  if (quote === undefined) fail(`unexpected series ${code}`);
  const values = isRecord(entry.VALUES) ? entry.VALUES : {};
  const { SURVEY_DATES: dates, VALUES: figures } = values;
  if (!Array.isArray(dates) || !Array.isArray(figures) || dates.length !== figures.length) fail(`${code} has no matching SURVEY_DATES and VALUES`);
  return dates.map((raw: unknown, i): Observation | null => {
    const day = String(raw);
    if (!/^\d{8}$/.test(day)) fail(`${code} has bad survey date ${JSON.stringify(raw)}`);
    const date = `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`;
    const figure: unknown = figures[i];
    // Weekends and Tokyo holidays are listed with null: no fixing that day.
    // JSON numbers: 157.50 arrives as 157.5 (the API sends no trailing zeros to keep).
    return figure === null ? null : { date, quote, rate: decimalOf(fail, figure, `${code} has bad value on ${date}`), unit: 1, direction: 'direct' };
  });
}

export const source: SyncSource = {
  code: CODE,
  name: 'Bank of Japan',
  countryCode: 'JP',
  countryName: 'Japan',
  currency: 'JPY',
  cadence: 'daily',
  schedule: '*/30 0-2 * * 1-5',
  // The rate is taken at 17:00 Tokyo time (JST, UTC+9, no daylight saving): 08:00 UTC. The API only
  // carries it from the next morning, hence the poll at 09:00-11:30 JST.
  publishedAtUtc: '08:00:00',
  feedUrl: 'https://www.stat-search.boj.or.jp/api/v1/getDataCode?format=json&lang=en&db=FM08&code=FXERD04',
  baseUrl: 'https://www.stat-search.boj.or.jp',
  termsUrl: 'https://www.boj.or.jp/en/about/copyright.htm',
  terms: 'unknown',
  // The BOJ lets its figures be reproduced provided the Bank of Japan is credited as the source.
  attribution: 'Source: Bank of Japan',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    // The API answers HTTP 200 even on errors: STATUS and MESSAGE in the body say what went wrong.
    if (!isRecord(doc) || doc.STATUS !== 200) {
      fail(`${payload.name}: status ${JSON.stringify(isRecord(doc) ? doc.STATUS : undefined)} ${isRecord(doc) ? String(doc.MESSAGE ?? '') : ''}`.trim());
    }
    if (!Array.isArray(doc.RESULTSET)) fail(`${payload.name} has no RESULTSET array`);
    // A reply cut at the API's size limit names where to go on; we ask for one series and at most a
    // year, far below it, so a NEXTPOSITION means the reply is not what we asked for.
    if (doc.NEXTPOSITION !== null && doc.NEXTPOSITION !== undefined) fail(`${payload.name} is incomplete (NEXTPOSITION ${String(doc.NEXTPOSITION)})`);
    const days = doc.RESULTSET.flatMap((entry: unknown) => series(entry) ?? []);
    const out = days.filter((o): o is Observation => o !== null);
    // Days listed, every one null: the months asked hold weekends and holidays only so far.
    if (out.length === 0 && days.length > 0) throw new NoPublication(CODE, `${payload.name} holds no rates: no fixing on the days listed`);
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // Daily series take months (YYYYMM) as bounds and answer whole months; one request per calendar
    // year keeps every reply far below the API's size limit.
    const code = Object.keys(SERIES).join(',');
    const [fromYear, toYear] = [Number(window.from.slice(0, 4)), Number(window.to.slice(0, 4))];
    const requests: FeedRequest[] = [];
    for (let year = fromYear; year <= toYear; year++) {
      const start = year === fromYear ? window.from.slice(0, 7).replace('-', '') : `${year}01`;
      const end = year === toYear ? window.to.slice(0, 7).replace('-', '') : `${year}12`;
      requests.push({ url: `${ctx.base}/api/v1/getDataCode?format=json&lang=en&db=FM08&code=${code}&startDate=${start}&endDate=${end}` });
    }
    return requests;
  },
};
