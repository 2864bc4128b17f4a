// Bank of Thailand daily average exchange rates (THB per unit, commercial banks in Bangkok) from the
// BOT API gateway. The header claims "Baht / 1 Unit", but JPY is per 100 and IDR per 1,000: the
// multiplier only shows in the currency's English name ("JAPAN : YEN (100 YEN) (JPY)").
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, isRecord, parseJson, unitOf, windowDays } from '../read.js';

const CODE = 'BOTH';
const PATH = '/Stat-ExchangeRate/v2/DAILY_AVG_EXG_RATE/';
const ISO_CODE = /^[A-Z]{3}$/;
// The hidden multiplier: "(100 YEN)", "(1,000 RUPIAH)" inside currency_name_eng.
const NAME_UNIT = /\((\d{1,3}(?:,\d{3})*) [A-Z][A-Z ]*\)/;
// Live …/DAILY_AVG_EXG_RATE/?start_period=… or recorded DAILY_AVG_EXG_RATE-<from>_<to>.json; not MONTHLY_….
const NAME = /(^|[/])DAILY_AVG_EXG_RATE[-/]/;
// A request for a period (what requests() send), live or recorded, rather than the bare latest call.
const RANGED = /start_period=|DAILY_AVG_EXG_RATE-\d{4}-\d{2}-\d{2}_/;
// Long backfills go in pieces of this many days, well within what the gateway answers in one go.
const MAX_DAYS = 90;

const fail: (message: string) => never = failFor(CODE);


function observation(row: unknown): Observation | undefined {
  if (!isRecord(row)) fail('data_detail row is not an object');
  const { period: date, currency_id: quote, currency_name_eng: name, mid_rate: mid } = row;
  if (!isIsoDate(date)) fail(`bad period ${JSON.stringify(date)}`);
  // Upper case as sent: the gateway writes ISO codes that way, anything else is not its answer.
  if (typeof quote !== 'string' || !ISO_CODE.test(quote)) fail(`bad currency_id ${JSON.stringify(quote)} on ${date}`);
  // Mid is the bank's own midpoint of buying transfer and selling; a currency it quotes without a
  // mid that day has nothing to report (we never average sight/transfer rates ourselves).
  if (mid === null || mid === undefined || mid === '') return undefined;
  const multiplier = typeof name === 'string' ? NAME_UNIT.exec(name)?.[1] : undefined;
  const unit = multiplier === undefined ? 1 : unitOf(fail, multiplier, `${quote} multiplier in ${JSON.stringify(name)}`);
  return { date, quote, rate: decimalOf(fail, mid, `bad ${quote} mid_rate on ${date}`), unit, direction: 'direct' };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Bank of Thailand',
  countryCode: 'TH',
  countryName: 'Thailand',
  currency: 'THB',
  cadence: 'daily',
  schedule: '*/30 11-13 * * 1-5',
  // Released every business day at 18:00 Bangkok time (ICT, UTC+7, no daylight saving): 11:00 UTC.
  publishedAtUtc: '11:00:00',
  feedUrl: `https://gateway.api.bot.or.th${PATH}`,
  baseUrl: 'https://gateway.api.bot.or.th',
  termsUrl: 'https://apiportal.bot.or.th/bot/public/',
  terms: 'unknown',
  needsKey: true,
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    const data = isRecord(doc) && isRecord(doc.result) ? doc.result.data : undefined;
    const rows = isRecord(data) ? data.data_detail : undefined;
    // Gateway errors ({"httpCode":"401",…}) and API errors have no result.data.data_detail.
    if (!Array.isArray(rows)) fail(`${payload.name} has no result.data.data_detail array`);
    // A ranged request over weekends and Thai holidays only is answered with no rows.
    if (rows.length === 0 && RANGED.test(payload.name)) throw new NoPublication(CODE, `${payload.name} holds no rates: no business day in the range`);
    const out = rows.map(observation).filter((o): o is Observation => o !== undefined);
    if (out.length === 0) fail(`${payload.name} holds no rates`);
    return out;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    const days = windowDays(window);
    const requests: FeedRequest[] = [];
    for (let i = 0; i < days.length; i += MAX_DAYS) {
      const [from, to] = [days[i]!, days[Math.min(i + MAX_DAYS, days.length) - 1]!];
      requests.push({
        url: `${ctx.base}${PATH}?start_period=${from}&end_period=${to}`,
        // The gateway takes the client's key as the bare Authorization header value.
        headers: { accept: 'application/json', ...(ctx.key ? { authorization: ctx.key } : {}) },
      });
    }
    return requests;
  },
};
