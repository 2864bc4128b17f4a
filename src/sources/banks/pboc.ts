// The People's Bank of China's RMB central parity rates, published by CFETS (chinamoney.com.cn) at
// 09:15 Beijing time on interbank trading days, from its history endpoint (a POST, JSON). Directions
// are mixed by label within one row: `USD/CNY` is CNY per 1 USD (direct), `CNY/MYR` is MYR per 1 CNY
// (indirect), and `100JPY/CNY` carries its unit in the label.
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, isIsoDate, isRecord, parseJson } from '../read.js';
import { addDays } from '../../time/days.js';

const CODE = 'PBOC';
const PATH = '/ags/ms/cm-u-bk-ccpr/CcprHisNew';
// …/CcprHisNew?currency=&startDate=…&endDate=…&pageNum=1&pageSize=50 (live), CcprHisNew-….json (recorded).
const NAME = /(^|\/)CcprHisNew(\?.*|-[^/]*\.json)$/;
// The server refuses pages of more than 50 records (HTTP 403) and spans of a year or more. A span of
// 60 days holds at most 44 weekdays and the odd weekend working day: one page.
const PAGE_SIZE = 50;
const SPAN_DAYS = 60;
// What a pair without a figure shows.
const MISSING = '---';

const fail: (message: string) => never = failFor(CODE);

interface Pair {
  quote: string;
  unit: number;
  direction: Observation['direction'];
}

/** `USD/CNY`, `100JPY/CNY` (CNY per unit units: direct) or `CNY/MYR` (MYR per 1 CNY: indirect). */
function pairOf(label: unknown): Pair {
  const text = typeof label === 'string' ? label : '';
  const direct = /^(\d*)([A-Z]{3})\/CNY$/.exec(text);
  if (direct) return { quote: direct[2]!, unit: direct[1] ? Number(direct[1]) : 1, direction: 'direct' };
  const indirect = /^CNY\/([A-Z]{3})$/.exec(text);
  if (indirect) return { quote: indirect[1]!, unit: 1, direction: 'indirect' };
  return fail(`unknown pair ${JSON.stringify(label)}`);
}

export const source: SyncSource = {
  code: CODE,
  name: "People's Bank of China (CFETS central parity)",
  countryCode: 'CN',
  countryName: 'China',
  currency: 'CNY',
  cadence: 'daily',
  // Every day: China's working days include the odd weekend day next to a holiday.
  schedule: '20 1,2,4 * * *',
  // 09:15 in Beijing (UTC+8 all year), the day the rates apply; the parity is set then, too.
  publishedAtUtc: '01:15:00',
  feedUrl: `https://www.chinamoney.com.cn${PATH}?currency=&startDate=2026-09-01&endDate=2026-09-04&pageNum=1&pageSize=${PAGE_SIZE}`,
  baseUrl: 'https://www.chinamoney.com.cn',
  termsUrl: 'https://www.chinamoney.com.cn/english/homflkdcm/',
  // "Unless authorized by CFETS in writing, no entity or individual may reprint, copy, distribute…"
  terms: 'permission-required',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    if (!isRecord(doc) || !isRecord(doc.head) || !isRecord(doc.data)) fail(`${payload.name} is not a CFETS answer`);
    // A refusal (a span of a year or more) comes with its message and no records.
    if (doc.head.rep_code !== '200' || !Array.isArray(doc.records)) fail(`${payload.name} was refused: ${JSON.stringify(doc.head.rep_message ?? doc.data.flagMessage ?? '')}`);
    if (!Array.isArray(doc.data.head)) fail(`${payload.name} has no pair labels`);
    const pairs = doc.data.head.map(pairOf);
    const observations: Observation[] = [];
    for (const record of doc.records) {
      if (!isRecord(record) || !isIsoDate(record.date) || !Array.isArray(record.values)) fail(`${payload.name}: a record without its date or values`);
      const { date, values } = record;
      if (values.length !== pairs.length) fail(`${date}: ${values.length} values for ${pairs.length} pairs`);
      pairs.forEach((p, i) => {
        if (values[i] === MISSING) return;
        observations.push({ date, quote: p.quote, rate: decimalOf(fail, values[i], `${p.quote} on ${date}`), unit: p.unit, direction: p.direction });
      });
    }
    // A span of holidays or weekends.
    if (observations.length === 0) throw new NoPublication(CODE, `${payload.name} holds no trading day`);
    return observations;
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // Every pair at once (currency= blank), in spans of 60 days (history from 2006-01-04). The
    // parameters are in the query string and the body is empty, as the bank's page sends them.
    const requests: FeedRequest[] = [];
    for (let from = window.from; from <= window.to; from = addDays(from, SPAN_DAYS)) {
      const end = addDays(from, SPAN_DAYS - 1);
      const to = end < window.to ? end : window.to;
      requests.push({ url: `${ctx.base}${PATH}?currency=&startDate=${from}&endDate=${to}&pageNum=1&pageSize=${PAGE_SIZE}`, method: 'POST', body: '' });
    }
    return requests;
  },
};
