// Da Afghanistan Bank exchange rates: a Drupal page per day with the day's table (cash sell, cash
// buy, transfer sell, transfer buy; AFN per unit, currencies by decorated names) and, below it, a
// table of last month's averages.
import { parse as parseHtml } from 'node-html-parser';
import { Decimal } from '../../money/decimal.js';
import { NoPublication, type FeedRequest, type FetchWindow, type Observation, type Payload, type RequestContext, type SyncSource } from '../types.js';
import { decimalOf, failFor, wholeHtml, windowDays } from '../read.js';
import { monthNumber } from '../months.js';

const CODE = 'AFGB';
const PATH = '/exchange-rates';
const COLUMNS = ['Currency', 'Cash (Sell)', 'Cash (Buy)', 'Transfer (Sell)', 'Transfer (Buy)'];
// …/exchange-rates?field_date_value=YYYY-MM-DD (live) or dab-exchange-rates-….html (recorded).
const NAME = /\/exchange-rates\?(?:[^#]*&)?field_date_value=\d{4}-\d{2}-\d{2}(&|$)|(^|\/)dab-exchange-rates-[^/]*\.html$/;

// Every row label, exactly as written. An unknown label fails the page rather than being guessed.
const ROWS: Readonly<Record<string, { quote: string; unit: number }>> = {
  USD$: { quote: 'USD', unit: 1 },
  'EURO€': { quote: 'EUR', unit: 1 },
  'POUND£': { quote: 'GBP', unit: 1 },
  'SWISS₣': { quote: 'CHF', unit: 1 },
  'INDIAN Rs.': { quote: 'INR', unit: 1 },
  'PAKISTAN Rs.': { quote: 'PKR', unit: 1 },
  // A toman is ten rials: the row is AFN per 10 IRR, stated only in the label.
  'IRAN Toman': { quote: 'IRR', unit: 10 },
  'CNY¥': { quote: 'CNY', unit: 1 },
  'UAE DIRHAM': { quote: 'AED', unit: 1 },
  'SAUDI RIYAL': { quote: 'SAR', unit: 1 },
};

const fail: (message: string) => never = failFor(CODE);
const clean = (text: string) => text.replace(/\uFEFF/g, '').replace(/\s+/g, ' ').trim();

export const source: SyncSource = {
  code: CODE,
  name: 'Da Afghanistan Bank',
  countryCode: 'AF',
  countryName: 'Afghanistan',
  currency: 'AFN',
  cadence: 'daily',
  // Afghanistan's weekend is Friday; the bank is open Saturday to Thursday.
  schedule: '*/30 5-7 * * 0-4,6',
  // No release time is documented; the observed polling window opens at 05:00 UTC (09:30 in Kabul,
  // AFT = UTC+4:30 all year), so a day's rates are taken as published by then.
  publishedAtUtc: '05:00:00',
  feedUrl: `https://www.dab.gov.af${PATH}`,
  baseUrl: 'https://www.dab.gov.af',
  // SOURCE.md names no terms; this is the page the bank publishes the rates on.
  termsUrl: `https://www.dab.gov.af${PATH}`,
  terms: 'unknown',
  grade: 'A',
  accepts(name) {
    return NAME.test(name);
  },
  parse(payload: Payload): Observation[] {
    const html = payload.body.toString('utf8');
    wholeHtml(fail, payload.name, html);
    // Only what comes before "Average Rates" is the day's table. The monthly averages below it are
    // another statistic for another period (and would give a second USD figure for the day).
    const day = html.split(/<h2[^>]*>\s*Average Rates\s*<\/h2>/i)[0]!;
    if (day.includes('There were no results')) throw new NoPublication(CODE, `${payload.name}: no rates for that day (a holiday)`);
    const updated = /Last updated:\s*(\d{1,2}) ([A-Z][a-z]+) (\d{4})/.exec(day);
    const month = updated ? monthNumber(updated[2]!) : 0;
    if (!updated || month === 0) fail(`${payload.name} has no "Last updated" date`);
    // The date of the figures, as the page states it above the table.
    const date = `${updated[3]}-${String(month).padStart(2, '0')}-${updated[1]!.padStart(2, '0')}`;
    const tables = parseHtml(day).querySelectorAll('table');
    if (tables.length !== 1) fail(`${payload.name} has ${tables.length} rate tables before the averages, expected 1`);
    const [head, ...rows] = tables[0]!.querySelectorAll('tr').map((tr) => tr.querySelectorAll('th, td').map((c) => clean(c.text)));
    if (head?.join('|') !== COLUMNS.join('|')) fail(`unexpected columns ${JSON.stringify(head)}`);
    if (rows.length === 0) fail(`${payload.name} holds no rates`);
    return rows.map(([label = '', , , transferSell, transferBuy]): Observation => {
      const row = Object.hasOwn(ROWS, label) ? ROWS[label]! : fail(`unknown currency ${JSON.stringify(label)} on ${date}`);
      const sell = new Decimal(decimalOf(fail, transferSell, `${row.quote} transfer sell on ${date}`));
      const buy = new Decimal(decimalOf(fail, transferBuy, `${row.quote} transfer buy on ${date}`));
      // DAB publishes buying and selling rates, cash and transfer, and defines no mid. The rate kept
      // is the exact midpoint of the transfer pair (the narrower spread, the non-cash market): our
      // reading, not the bank's. 64.0267 and 63.9267 give 63.9767.
      return { date, quote: row.quote, rate: sell.plus(buy).div(2).toString(), unit: row.unit, direction: 'direct' };
    });
  },
  requests(window: FetchWindow, ctx: RequestContext): FeedRequest[] {
    // One page per day, Fridays left out. A day without rates answers "There were no results."
    return windowDays(window)
      .filter((d) => new Date(`${d}T00:00:00Z`).getUTCDay() !== 5)
      .map((d) => ({ url: `${ctx.base}${PATH}?field_date_value=${d}`, optional: true }));
  },
};
