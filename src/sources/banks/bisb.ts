// The Bank for International Settlements' US dollar exchange rates (dataflow WS_XRU), monthly, end of
// period, as SDMX-CSV: period rates (D21), units per US dollar (indirect), each month's last-business-
// day figure standing for that month, from its first day to its last. One row per economy, not per
// currency: a currency shared by several (the euro by 24 rows) is read from the union's or its own
// row (CHOSEN). History is restated in successor units and revised: a later answer for a month
// replaces its figures. Recorded: three answers (2025-01/02, 2001-05, 1900-01).
import { Decimal } from '../../money/decimal.js';
import { csvCells } from '../csv.js';
import { monthPeriod, windowMonths } from '../periods.js';
import { decimalOf, decodeText, failFor } from '../read.js';
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';

const CODE = 'BISB';
const FLOW = '/api/v2/data/dataflow/BIS/WS_XRU/1.0/M...E';
// The API's dataflow URL, and recordings named WS_XRU-M-E-<first month>-<last month>.csv.
const NAME = /\/BIS\/WS_XRU\/1\.0\/M\.\.\.E(\?|$)|(^|\/)WS_XRU-M-E-\d{4}-\d{2}-\d{4}-\d{2}\.csv$/;
const ACCEPT = 'application/vnd.sdmx.data+csv;version=1.0.0';
/** Which economy's row stands for a shared currency: the union's (euro area, WAEMU, Australia for
 *  Kiribati's dollar); otherwise the economy whose code the currency's starts with, else the first. */
const CHOSEN: Readonly<Record<string, string>> = { EUR: 'XM', XOF: 'WA', XAF: 'CM', XCD: 'AG', AUD: 'AU' };
/** Series the BIS keeps under an old code in its successor's unit: Sierra Leone's leone restated in
 *  new leones throughout (22.6 per USD in 2025, 1.9 in 2001: SLE's magnitude), Venezuela's bolívar
 *  in bolívares soberanos from their introduction in August 2018 (57.8 per USD in 2025). They are
 *  stored under the code of the unit they are in. */
const RESTATED: Readonly<Record<string, { code: string; from: string }>> = { SLL: { code: 'SLE', from: '1900-01' }, VEF: { code: 'VES', from: '2018-08' } };
/** Months read before a poll's window: late and revised figures of the months just past. */
const REREAD_MONTHS = 3;
/** Months per request: ten years of ~185 rows, about 3 MB. */
const SPAN_MONTHS = 120;

const fail: (message: string) => never = failFor(CODE);

type Row = { area: string; currency: string; period: string; value: string };

function rowsOf(name: string, text: string): Row[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const header = csvCells(fail, lines[0] ?? '');
  const column = (field: string) => {
    const i = header.indexOf(field);
    if (i < 0) fail(`${name} is not WS_XRU's SDMX-CSV (no ${field} column)`);
    return i;
  };
  const [area, currency, period, value, mult] = ['REF_AREA', 'CURRENCY', 'TIME_PERIOD', 'OBS_VALUE', 'UNIT_MULT'].map(column) as number[];
  return lines.slice(1).flatMap((line) => {
    const cells = csvCells(fail, line);
    const code = cells[currency!] ?? '';
    if (!/^[A-Z]{3}$/.test(code)) fail(`${cells[area!]}: bad CURRENCY ${JSON.stringify(code)}`);
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(cells[period!] ?? '')) fail(`${code}: bad TIME_PERIOD ${JSON.stringify(cells[period!])}`);
    // A series without an observation that month.
    if ((cells[value!] ?? '') === '' || cells[value!] === 'NaN') return [];
    const published = decimalOf(fail, cells[value!], `${code} of ${cells[area!]} in ${cells[period!]}`);
    // UNIT_MULT is a power of ten (0 in every row seen): the figure is per USD in 10^n units.
    const n = Number(cells[mult!] ?? '0');
    if (!Number.isInteger(n) || n < 0 || n > 9) fail(`${code}: bad UNIT_MULT ${JSON.stringify(cells[mult!])}`);
    return [{ area: cells[area!]!, currency: code, period: cells[period!]!, value: n === 0 ? published : new Decimal(published).times(10 ** n).toFixed() }];
  });
}

/** The row that stands for a currency in a month, of the economies that publish it. */
function chosen(rows: Row[]): Row {
  const currency = rows[0]!.currency;
  const preferred = CHOSEN[currency] ?? currency.slice(0, 2);
  return rows.find((r) => r.area === preferred) ?? [...rows].sort((a, b) => (a.area < b.area ? -1 : 1))[0]!;
}

export const source: SyncSource = {
  code: CODE,
  name: 'Bank for International Settlements',
  countryCode: 'ZZ',
  countryName: 'Bank for International Settlements',
  currency: 'USD',
  cadence: 'monthly',
  periodRates: true,
  // The BIS updates the series weekly (Frankfurter polls Thursdays 18:00 UTC): once a week.
  schedule: '15 18 * * 4',
  // No time of day is documented.
  publishedAtUtc: '12:00:00',
  feedUrl: `https://stats.bis.org${FLOW}`,
  baseUrl: 'https://stats.bis.org',
  termsUrl: 'https://www.bis.org/terms_conditions.htm',
  // SOURCE.md: the BIS terms were not read.
  terms: 'unknown',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const text = decodeText(payload.body);
    if (text.trimStart().startsWith('<')) fail(`${payload.name} is not SDMX-CSV: ${text.trim().slice(0, 60)}`);
    const groups = new Map<string, Row[]>();
    for (const r of rowsOf(payload.name, text)) {
      // USD is the base (the United States' and Micronesia's rows are 1).
      if (r.currency === 'USD') continue;
      const key = `${r.period} ${r.currency}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    // A header alone: the months asked for hold no observation yet.
    if (groups.size === 0) throw new NoPublication(CODE, `${payload.name} holds no observation`);
    return [...groups.values()].map((rows) => {
      const r = chosen(rows);
      const { from, to } = monthPeriod(Number(r.period.slice(0, 4)), Number(r.period.slice(5, 7)));
      const restated = RESTATED[r.currency];
      const quote = restated && r.period >= restated.from ? restated.code : r.currency;
      return { date: from, validTo: to, quote, rate: r.value, unit: 1, direction: 'indirect' };
    });
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    const months = windowMonths({ from: window.from, to: window.to }).map(([y, m]) => `${y}-${String(m).padStart(2, '0')}`);
    const first = new Date(Date.UTC(Number(months[0]!.slice(0, 4)), Number(months[0]!.slice(5, 7)) - 1 - REREAD_MONTHS, 1)).toISOString().slice(0, 7);
    const all = [...windowMonths({ from: `${first}-01`, to: window.to })].map(([y, m]) => `${y}-${String(m).padStart(2, '0')}`);
    const out: FeedRequest[] = [];
    for (let i = 0; i < all.length; i += SPAN_MONTHS) {
      const span = all.slice(i, i + SPAN_MONTHS);
      out.push({ url: `${ctx.base}${FLOW}?c%5BTIME_PERIOD%5D=ge:${span[0]}%2Ble:${span.at(-1)}`, headers: { accept: ACCEPT } });
    }
    return out;
  },
};
