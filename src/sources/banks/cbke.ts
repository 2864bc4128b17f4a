// Central Bank of Kenya indicative mean rates, read from the wpDataTables endpoint behind its forex
// page (table 193, January 2024 onwards): rows of [dd/mm/yyyy, currency name, mean]. Currencies are
// named, not coded; most rows are KES per unit, the East African cross rows the other way round.
import { type Direction, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, fromDmy, parseJson } from '../read.js';

const CODE = 'CBKE';
const TABLE_ID = '193';
// admin-ajax.php?action=get_wdtable&table_id=193 (live) or wdtable-193-….json (recorded).
const NAME = /[?&]action=get_wdtable&table_id=193(&|$)|(^|\/)wdtable-193-[^/]*\.json$/;

interface Row {
  quote: string;
  unit: number;
  direction: Direction;
}

// Every name the table uses, exactly as written. An unknown name fails the payload rather than being
// dropped or guessed: a new currency, or a renamed one, has to be looked at before it is ingested.
const ROWS: Readonly<Record<string, Row>> = {
  'US DOLLAR': { quote: 'USD', unit: 1, direction: 'direct' },
  'STG POUND': { quote: 'GBP', unit: 1, direction: 'direct' },
  EURO: { quote: 'EUR', unit: 1, direction: 'direct' },
  'SA RAND': { quote: 'ZAR', unit: 1, direction: 'direct' },
  'AE DIRHAM': { quote: 'AED', unit: 1, direction: 'direct' },
  'CAN $': { quote: 'CAD', unit: 1, direction: 'direct' },
  'S FRANC': { quote: 'CHF', unit: 1, direction: 'direct' },
  // "(100)": KES per 100 yen, stated only in the name.
  'JPY (100)': { quote: 'JPY', unit: 100, direction: 'direct' },
  'SW KRONER': { quote: 'SEK', unit: 1, direction: 'direct' },
  'NOR KRONER': { quote: 'NOK', unit: 1, direction: 'direct' },
  'DAN KRONER': { quote: 'DKK', unit: 1, direction: 'direct' },
  'IND RUPEE': { quote: 'INR', unit: 1, direction: 'direct' },
  'HONGKONG DOLLAR': { quote: 'HKD', unit: 1, direction: 'direct' },
  'SINGAPORE DOLLAR': { quote: 'SGD', unit: 1, direction: 'direct' },
  'SAUDI RIYAL': { quote: 'SAR', unit: 1, direction: 'direct' },
  'CHINESE YUAN': { quote: 'CNY', unit: 1, direction: 'direct' },
  'AUSTRALIAN $': { quote: 'AUD', unit: 1, direction: 'direct' },
  // "KES / USHS" is Uganda shillings per 1 Kenya shilling (24.07 on 05/01/2024, not 0.04): indirect.
  'KES / USHS': { quote: 'UGX', unit: 1, direction: 'indirect' },
  'KES / TSHS': { quote: 'TZS', unit: 1, direction: 'indirect' },
  'KES / RWF': { quote: 'RWF', unit: 1, direction: 'indirect' },
  'KES / BIF': { quote: 'BIF', unit: 1, direction: 'indirect' },
};

const fail: (message: string) => never = failFor(CODE);

function observation(cells: unknown): Observation {
  if (!Array.isArray(cells) || cells.length !== 3) fail(`row ${JSON.stringify(cells)} is not [date, currency, mean]`);
  const [day, name, mean] = cells as unknown[];
  // Day first, dd/mm/yyyy.
  const date = typeof day === 'string' ? fromDmy(day) : undefined;
  if (date === undefined) fail(`bad date ${JSON.stringify(day)}`);
  const row = typeof name === 'string' && Object.hasOwn(ROWS, name.trim()) ? ROWS[name.trim()]! : undefined;
  if (row === undefined) fail(`unknown currency ${JSON.stringify(name)} on ${date}`);
  const rate = decimalOf(fail, mean, `bad ${row.quote} mean on ${date}`);
  return { date, quote: row.quote, rate, unit: row.unit, direction: row.direction };
}

export const source: SyncSource = {
  code: CODE,
  name: 'Central Bank of Kenya',
  countryCode: 'KE',
  countryName: 'Kenya',
  currency: 'KES',
  cadence: 'daily',
  schedule: '*/30 8-10 * * 1-5',
  // No publication time is documented; the observed polling window opens at 08:00 UTC (11:00 in
  // Nairobi, EAT = UTC+3 all year), so a figure is taken as published by then.
  publishedAtUtc: '08:00:00',
  feedUrl: 'https://www.centralbank.go.ke/wp-admin/admin-ajax.php?action=get_wdtable&table_id=193',
  baseUrl: 'https://www.centralbank.go.ke',
  // SOURCE.md names no terms page; this is the page the CBK publishes the rates on.
  termsUrl: 'https://www.centralbank.go.ke/forex/',
  terms: 'unknown',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const doc = parseJson(CODE, payload.name, payload.body.toString('utf8'));
    const rows = typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>).data : undefined;
    // WordPress answers a bad call with "0" or "-1", and an error page is HTML: neither has data rows.
    if (!Array.isArray(rows)) fail(`${payload.name} has no data array`);
    if (rows.length === 0) fail(`${payload.name} holds no rates`);
    // The table repeats some days (all 21 rows of 28/11/2025 come twice); identical repeats are
    // dropped, two different figures for one currency and day are an error, not a choice.
    const seen = new Map<string, Observation>();
    for (const o of rows.map(observation)) {
      const key = `${o.date} ${o.quote}`;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, o);
      else if (first.rate !== o.rate) fail(`two ${o.quote} means on ${o.date}: ${first.rate} and ${o.rate}`);
    }
    return [...seen.values()];
  },
  requests(_window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // The endpoint takes no dates: length=-1 returns the whole table (2024 to today, ~460 kB) and
    // ingest keeps the window. Older years sit in another table (32), which is not read here.
    return [
      {
        url: `${ctx.base}/wp-admin/admin-ajax.php?action=get_wdtable&table_id=${TABLE_ID}`,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'draw=1&start=0&length=-1',
      },
    ];
  },
};
